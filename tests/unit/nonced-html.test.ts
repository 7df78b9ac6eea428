import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptedCodings, compressHtml, crc32WithTable, joinWithNonce, splitAtNonce } from '~/server/nonced-html.server';

describe('nonced html', () => {
  it('cuts a page at every nonce and joins it with another', () => {
    const html = 'Ä<script nonce="abc==">1</script><p>ü</p><script nonce="abc==">2</script>';
    const parts = splitAtNonce(Buffer.from(html), 'abc==');
    expect(parts).toHaveLength(3);
    expect(joinWithNonce(parts, 'xyz+/').toString()).toBe(html.replaceAll('abc==', 'xyz+/'));
    expect(joinWithNonce(parts, 'abc==').toString()).toBe(html);
  });

  it('keeps a page without a nonce whole', () => {
    expect(joinWithNonce(splitAtNonce(Buffer.from('<p>x</p>'), 'n'), 'm').toString()).toBe('<p>x</p>');
    expect(joinWithNonce(splitAtNonce(Buffer.from('<p>x</p>'), ''), 'm').toString()).toBe('<p>x</p>');
  });
});

describe('compressHtml', () => {
  // A page cut at a few nonces, as a rendered one is.
  const html = `<script nonce="n0nce">1</script>${'<p>Kostenkalkulation für Ä</p>'.repeat(400)}<script nonce="n0nce">2</script>`;
  const parts = splitAtNonce(Buffer.from(html), 'n0nce');

  it('sends gzip when it is accepted, joined around this response’s nonce, with a valid checksum and length', () => {
    for (const nonce of ['first+/==', 'second']) {
      const { encoding, body } = compressHtml(parts, nonce, 'gzip, deflate, br, zstd');
      expect(encoding).toBe('gzip');
      // gunzipSync checks the CRC-32 and the size in the trailer.
      expect(zlib.gunzipSync(body).toString()).toBe(html.replaceAll('n0nce', nonce));
      expect(body.length).toBeLessThan(html.length / 10);
    }
  });

  it('joins pages without a nonce, with an empty part and with a nonce at either end', () => {
    for (const page of ['<p>x</p>', 'n0nce<p>x</p>n0nce', 'n0ncen0nce', '']) {
      const { body } = compressHtml(splitAtNonce(Buffer.from(page), 'n0nce'), 'zz', 'gzip');
      expect(zlib.gunzipSync(body).toString()).toBe(page.replaceAll('n0nce', 'zz'));
    }
  });

  it('sends brotli to a client that accepts it but not gzip, and the page as it is to one that accepts neither', () => {
    const brotli = compressHtml(parts, 'abc', 'br');
    expect(brotli.encoding).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(html.replaceAll('n0nce', 'abc'));
    const plain = compressHtml(parts, 'abc', null);
    expect(plain).toEqual({ encoding: null, body: Buffer.from(html.replaceAll('n0nce', 'abc')) });
  });

  it('follows the weights of Accept-Encoding: q=0 refuses a coding, * stands for the ones not listed', () => {
    const encodingFor = (header: string) => compressHtml(parts, 'n', header).encoding;
    expect(encodingFor('gzip;q=0, br')).toBe('br');
    expect(encodingFor('gzip;q=0')).toBeNull();
    expect(encodingFor('gzip;q=0, identity')).toBeNull();
    expect(encodingFor('GZIP;Q=0.5')).toBe('gzip');
    expect(encodingFor('*')).toBe('gzip');
    expect(encodingFor('br;q=0, *;q=0.1')).toBe('gzip');
    expect(encodingFor('gzip;q=0, *')).toBe('br');
    expect(encodingFor('deflate, identity')).toBeNull();
    expect(acceptedCodings('gzip;q=abc')('gzip')).toBe(false);
  });

  it('computes the same CRC-32 as zlib without it (Node before 20.15)', () => {
    const bytes = Buffer.from(html);
    expect(crc32WithTable(bytes, 0)).toBe(zlib.crc32(bytes));
    expect(crc32WithTable(bytes.subarray(100), crc32WithTable(bytes.subarray(0, 100), 0))).toBe(zlib.crc32(bytes));
  });
});
