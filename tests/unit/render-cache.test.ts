import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { EntryContext } from '@remix-run/node';
import { beforeEach, describe, expect, it } from 'vitest';
import { joinWithNonce, splitAtNonce } from '~/server/nonced-html.server';
import {
  cachedHtmlResponse,
  clearRenderCache,
  getCachedPage,
  recordingStream,
  renderCacheKey,
  storePage,
} from '~/server/render-cache.server';

const context = (loaderData: unknown, extra: Record<string, unknown> = {}) =>
  ({ staticHandlerContext: { loaderData, actionData: null, errors: null, ...extra } }) as unknown as EntryContext;

async function record(key: string, nonce: string, html: string, ok = true) {
  const stream = recordingStream(nonce, () => ok, (parts) => storePage(key, parts));
  const chunks: Buffer[] = [];
  Readable.from([Buffer.from(html)]).pipe(stream).on('data', (chunk) => chunks.push(chunk));
  await new Promise((resolve) => stream.on('end', resolve));
  return Buffer.concat(chunks).toString();
}

describe('render cache', () => {
  beforeEach(() => clearRenderCache());

  it('keys a GET by its URL and its loader data', () => {
    const request = new Request('http://localhost/calculator?quantity=2');
    const a = renderCacheKey(request, context({ root: { user: null } }), 200);
    expect(a).toBeTruthy();
    expect(renderCacheKey(request, context({ root: { user: null } }), 200)).toBe(a);
    // Another user (root loader data) or another address never shares an entry.
    expect(renderCacheKey(request, context({ root: { user: { id: 'u1' } } }), 200)).not.toBe(a);
    expect(renderCacheKey(new Request('http://localhost/calculator?quantity=3'), context({ root: { user: null } }), 200)).not.toBe(a);
  });

  it('never reuses errors, action results or non-GET renders', () => {
    const get = new Request('http://localhost/');
    expect(renderCacheKey(get, context({}), 404)).toBeNull();
    expect(renderCacheKey(get, context({}, { errors: { root: new Error('x') } }), 200)).toBeNull();
    expect(renderCacheKey(get, context({}, { actionData: { ok: true } }), 200)).toBeNull();
    expect(renderCacheKey(new Request('http://localhost/', { method: 'POST' }), context({}), 200)).toBeNull();
    // Data that cannot be serialized (a pending promise) is never reused.
    expect(renderCacheKey(get, context({ root: { later: Promise.resolve(1) } }), 200)).toBeNull();
  });

  it('passes the page through unchanged and serves it again with the new request nonce', async () => {
    const html = '<script nonce="first-nonce">boot()</script><p>Vase</p><script nonce="first-nonce"></script>';
    expect(await record('k', 'first-nonce', html)).toBe(html);
    const again = joinWithNonce(getCachedPage('k')!, 'second-nonce').toString();
    expect(again).toBe(html.replaceAll('first-nonce', 'second-nonce'));
    expect(again).not.toContain('first-nonce');
  });

  it('does not keep a render that failed', async () => {
    await record('broken', 'n', '<p>half</p>', false);
    expect(getCachedPage('broken')).toBeNull();
  });

  it('compresses a cached page for what the browser accepts', async () => {
    const html = '<p>Kostenkalkulation für Ä</p><script nonce="n1"></script>'.repeat(50);
    const page = splitAtNonce(Buffer.from(html), 'n1');
    // What Chromium sends: gzip, the one joined from pieces compressed once.
    const gzip = cachedHtmlResponse(page, 'n2', 'gzip, deflate, br, zstd', new Headers(), 200);
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(zlib.gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(html.replaceAll('n1', 'n2'));
    const br = cachedHtmlResponse(page, 'n1', 'br', new Headers(), 200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(html);
    const plain = cachedHtmlResponse(page, 'n1', null, new Headers(), 200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(html);
    expect(plain.headers.get('vary')).toContain('Accept-Encoding');
  });
});
