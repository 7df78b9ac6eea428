import zlib from 'node:zlib';
import type { EntryContext } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { splitAtNonce } from '~/server/nonced-html.server';
import { applyCachePolicy } from '~/server/http-cache.server';
import { sharedMaxAge, VisitorPageCache } from '~/server/visitor-page-cache.server';

const request = (url: string, cookie?: string, method = 'GET') => ({
  method,
  url,
  headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } as Record<string, string | undefined>,
});

/** A render as Remix hands it to entry.server (only what the cache looks at). */
function context(state: Record<string, unknown> = {}) {
  return { staticHandlerContext: { matches: [], actionData: null, errors: null, ...state } } as unknown as EntryContext;
}
const render = context();
const PUBLIC = { 'Cache-Control': 'public, max-age=60', Vary: 'Cookie' };

const html = '<html><script nonce="first">boot()</script><p>Kalkulation für Vase</p></html>';
const page = (headers: Record<string, string> = PUBLIC, status = 200) => ({
  status,
  headers: new Headers({ 'Content-Type': 'text/html; charset=utf-8', ...headers }),
  parts: splitAtNonce(Buffer.from(html), 'first'),
});

function fakeResponse() {
  const headers = new Map<string, string>();
  let body: Buffer = Buffer.alloc(0);
  return {
    statusCode: 0,
    headers,
    setHeader(name: string, value: string | number) {
      headers.set(name.toLowerCase(), String(value));
    },
    end(chunk: Buffer) {
      body = chunk;
    },
    text() {
      const encoding = headers.get('content-encoding');
      if (encoding === 'gzip') return zlib.gunzipSync(body).toString();
      return encoding === 'br' ? zlib.brotliDecompressSync(body).toString() : body.toString();
    },
  };
}

describe('visitor page cache', () => {
  it('stores only what the response allows a shared cache to keep', () => {
    expect(sharedMaxAge(new Headers(PUBLIC))).toBe(60);
    expect(sharedMaxAge(new Headers({ 'Cache-Control': 'public, s-maxage=30, max-age=5' }))).toBe(30);
    expect(sharedMaxAge(new Headers())).toBeNull();
    expect(sharedMaxAge(new Headers({ 'Cache-Control': 'max-age=60' }))).toBeNull();
    expect(sharedMaxAge(new Headers({ 'Cache-Control': 'public, max-age=0' }))).toBeNull();
    expect(sharedMaxAge(new Headers({ 'Cache-Control': 'public, max-age=60, no-store' }))).toBeNull();
    expect(sharedMaxAge(new Headers({ 'Cache-Control': 'private, no-store' }))).toBeNull();
    expect(sharedMaxAge(new Headers({ ...PUBLIC, 'Set-Cookie': 'toast=; Max-Age=0' }))).toBeNull();

    const cache = new VisitorPageCache();
    const offer = (url: string, entry: ReturnType<typeof page>, ctx = render, cookie?: string) =>
      cache.slotFor(request(url, cookie)).offer(entry, ctx);
    offer('/a', page({}));
    offer('/b', page({ 'Cache-Control': 'private, no-store' }));
    offer('/c', page({ ...PUBLIC, 'Set-Cookie': 'toast=; Max-Age=0' }));
    offer('/d', page(PUBLIC, 404));
    offer('/e', page(), context({ errors: { root: new Error('x') } }));
    offer('/f', page(), context({ actionData: { route0: { ok: true } } }));
    offer('/g', page({ 'Cache-Control': 'public, max-age=60', Vary: '*' }));
    cache.slotFor(request('/post', undefined, 'POST')).offer(page(), render);
    expect(cache.size).toBe(0);
    offer('/h', page());
    expect(cache.size).toBe(1);
  });

  it('answers only requests whose Vary headers match: each consent choice its own entry, a session never', () => {
    const cache = new VisitorPageCache();
    cache.slotFor(request('/calculator?quantity=2')).offer(page(), render);
    expect(cache.lookup(request('/calculator?quantity=2'))).not.toBeNull();
    expect(cache.lookup(request('/calculator?quantity=3'))).toBeNull();
    expect(cache.lookup(request('/calculator?quantity=2', 'cookie_consent=abc'))).toBeNull();
    expect(cache.lookup(request('/calculator?quantity=2', '__session=s%3Aabc'))).toBeNull();
    expect(cache.lookup(request('/calculator?quantity=2', undefined, 'POST'))).toBeNull();
    expect(cache.lookup(request('/calculator?quantity=2', undefined, 'HEAD'))).toBeNull();

    cache.slotFor(request('/calculator?quantity=2', 'cookie_consent=abc')).offer(page(), render);
    expect(cache.lookup(request('/calculator?quantity=2', 'cookie_consent=abc'))).not.toBeNull();
    expect(cache.lookup(request('/calculator?quantity=2'))).not.toBeNull();
    expect(cache.lookup(request('/calculator?quantity=2', 'cookie_consent=xyz'))).toBeNull();
  });

  it('answers a stored page with the new nonce, its headers and the encoding the browser accepts', () => {
    const cache = new VisitorPageCache();
    const miss = fakeResponse();
    expect(cache.answer(request('/calculator'), miss, 'second')).toBe(false);
    expect(miss.statusCode).toBe(0);

    cache.slotFor(request('/calculator')).offer(page({ ...PUBLIC, 'Content-Length': '99' }), render);
    const hit = fakeResponse();
    expect(cache.answer(request('/calculator'), hit, 'second')).toBe(true);
    expect(hit.statusCode).toBe(200);
    expect(hit.text()).toBe(html.replace('first', 'second'));
    expect(hit.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(hit.headers.get('cache-control')).toBe('public, max-age=60');
    expect(hit.headers.get('content-encoding')).toBe('gzip');
    expect(hit.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(Number(hit.headers.get('content-length'))).toBeLessThan(200);
  });

  it('forgets a page after its max-age and the least recently stored address beyond 200', () => {
    let now = 1_000;
    const cache = new VisitorPageCache(() => now);
    cache.store(request('/old'), page());
    cache.store(request('/short'), page({ 'Cache-Control': 'public, max-age=5' }));
    now += 4_999;
    expect(cache.lookup(request('/short'))).not.toBeNull();
    now += 1;
    expect(cache.lookup(request('/short'))).toBeNull();
    now += 54_999;
    expect(cache.lookup(request('/old'))).not.toBeNull();
    now += 1;
    expect(cache.lookup(request('/old'))).toBeNull();

    for (let index = 0; index < 205; index++) cache.store(request(`/k${index}`), page());
    expect(cache.size).toBe(200);
    expect(cache.lookup(request('/k4'))).toBeNull();
    expect(cache.lookup(request('/k5'))).not.toBeNull();
  });

  it('holds at most 32 MB of pages per worker, however large they are', () => {
    const cache = new VisitorPageCache();
    const large = { ...page(), parts: splitAtNonce(Buffer.alloc(1024 * 1024, 'a'), 'first') };
    for (let index = 0; index < 60; index++) cache.store(request(`/gross${index}`), large);
    expect(cache.bytes).toBeLessThanOrEqual(32 * 1024 * 1024);
    expect(cache.size).toBeLessThan(60);
    expect(cache.lookup(request('/gross59'))).not.toBeNull();
    expect(cache.lookup(request('/gross0'))).toBeNull();
  });
});

describe('cache policy of every page and .data response', () => {
  const webRequest = (cookie?: string) => new Request('http://localhost/calculator', { headers: cookie ? { Cookie: cookie } : {} });

  it("keeps a visitor's shareable page public and makes it vary on Cookie", async () => {
    const headers = new Headers({ 'Cache-Control': 'public, max-age=60' });
    await applyCachePolicy(headers, webRequest('cookie_consent=abc'), {});
    expect(headers.get('Cache-Control')).toBe('public, max-age=60');
    expect(headers.get('Vary')).toBe('Cookie');
  });

  it('makes everything rendered for a session, setting a cookie, marked private or not declared shareable private, no-store', async () => {
    const cases: Array<[Headers, Request, Record<string, unknown>]> = [
      [new Headers(PUBLIC), webRequest('__session=s%3Aabc'), {}],
      [new Headers(PUBLIC), webRequest('cookie_consent=abc; toast=xyz'), {}],
      [new Headers({ ...PUBLIC, 'Set-Cookie': 'toast=; Max-Age=0' }), webRequest(), {}],
      [new Headers(PUBLIC), webRequest(), { requestContext: { current: Promise.resolve({ privateResponse: true }) } }],
      [new Headers(PUBLIC), webRequest(), { requestContext: { current: Promise.reject(new Error('database down')) } }],
      [new Headers(), webRequest(), {}],
      [new Headers({ 'Cache-Control': 'max-age=60' }), webRequest(), {}],
    ];
    for (const [headers, request, loadContext] of cases) {
      await applyCachePolicy(headers, request, loadContext);
      expect(headers.get('Cache-Control')).toBe('private, no-store');
    }
  });
});
