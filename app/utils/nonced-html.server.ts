import zlib from 'node:zlib';

/**
 * A rendered page cut at every occurrence of its CSP nonce, so a stored copy
 * can be sent again with another response's nonce by joining bytes, without
 * searching or re-encoding text. The nonce is 16 random bytes, so page content
 * never contains it by chance.
 */
export type NoncedHtml = readonly Buffer[];

export function splitAtNonce(html: Buffer, nonce: string): NoncedHtml {
  if (!nonce) return [html];
  const needle = Buffer.from(nonce);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = html.indexOf(needle); at !== -1; at = html.indexOf(needle, start)) {
    parts.push(html.subarray(start, at));
    start = at + needle.length;
  }
  parts.push(html.subarray(start));
  return parts;
}

export function joinWithNonce(parts: NoncedHtml, nonce: string): Buffer {
  if (parts.length === 1) return parts[0];
  const needle = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  parts.forEach((part, index) => {
    if (index > 0) pieces.push(needle);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

/**
 * A stored page compressed in one synchronous call for the client's
 * Accept-Encoding. Streaming it through the compression middleware costs three
 * times as much (a fresh compressor per response). Brotli at quality 1 is the
 * fastest setting browsers accept and still smaller than gzip at level 1.
 */
export function compressHtml(body: Buffer, acceptEncoding: string | null | undefined): { encoding: 'br' | 'gzip' | null; body: Buffer } {
  const accepted = acceptEncoding ?? '';
  if (/\bbr\b/.test(accepted)) {
    const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length };
    return { encoding: 'br', body: zlib.brotliCompressSync(body, { params }) };
  }
  if (/\bgzip\b/.test(accepted)) return { encoding: 'gzip', body: zlib.gzipSync(body, { level: 1 }) };
  return { encoding: null, body };
}
