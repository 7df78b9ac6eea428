import { describe, expect, it } from 'vitest';
import { joinWithNonce, splitAtNonce } from '~/utils/nonced-html.server';

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
