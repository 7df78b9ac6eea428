import zlib from 'node:zlib';
import type { EntryContext } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { splitAtNonce } from '~/utils/nonced-html.server';
import { VisitorPageCache, visitorPageKey } from '~/utils/visitor-page-cache.server';

const request = (url: string, cookie?: string, method = 'GET') => ({
  method,
  url,
  headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } as Record<string, string | undefined>,
});

/** Matched routes with the given handles, as Remix hands them to entry.server. */
function context(handles: unknown[], state: Record<string, unknown> = {}) {
  const ids = handles.map((_, index) => `route${index}`);
  return {
    staticHandlerContext: { matches: ids.map((id) => ({ route: { id } })), actionData: null, errors: null, ...state },
    routeModules: Object.fromEntries(ids.map((id, index) => [id, { handle: handles[index] }])),
  } as unknown as EntryContext;
}
const cacheable = context([{ i18n: ['common'], visitorCache: true }, { visitorCache: true }]);

const html = '<html><script nonce="first">boot()</script><p>Kalkulation für Vase</p></html>';
const page = (headers: Record<string, string> = {}, status = 200) => ({
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
      return headers.get('content-encoding') === 'br' ? zlib.brotliDecompressSync(body).toString() : body.toString();
    },
  };
}

describe('visitor page cache', () => {
  it('keys a visitor GET by address and consent choice, and leaves signed-in users and toasts to Remix', () => {
    const plain = visitorPageKey(request('/calculator?quantity=2'));
    expect(plain).toBeTruthy();
    expect(visitorPageKey(request('/calculator?quantity=2', '_ga=GA1.1'))).toBe(plain);
    expect(visitorPageKey(request('/calculator?quantity=3'))).not.toBe(plain);
    expect(visitorPageKey(request('/calculator?quantity=2', 'cookie_consent=abc'))).not.toBe(plain);

    expect(visitorPageKey(request('/calculator', '__session=s%3Aabc'))).toBeNull();
    expect(visitorPageKey(request('/calculator', 'cookie_consent=abc; toast=xyz'))).toBeNull();
    expect(visitorPageKey(request('/calculator', undefined, 'POST'))).toBeNull();
    expect(visitorPageKey(request('/calculator', undefined, 'HEAD'))).toBeNull();
  });

  it('answers a stored page with the new nonce, its headers and the encoding the browser accepts', () => {
    const cache = new VisitorPageCache();
    const key = visitorPageKey(request('/calculator'))!;
    const miss = fakeResponse();
    expect(cache.answer(key, request('/calculator'), miss, 'second')).toBe(false);
    expect(miss.statusCode).toBe(0);

    cache.slotFor(key).offer(page({ 'Cache-Control': 'private', 'Content-Length': '99', Vary: 'Cookie' }), cacheable);
    const hit = fakeResponse();
    expect(cache.answer(key, request('/calculator'), hit, 'second')).toBe(true);
    expect(hit.statusCode).toBe(200);
    expect(hit.text()).toBe(html.replace('first', 'second'));
    expect(hit.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(hit.headers.get('cache-control')).toBe('private');
    expect(hit.headers.get('content-encoding')).toBe('br');
    expect(hit.headers.get('vary')).toBe('Accept-Encoding');
    expect(hit.headers.get('x-cache')).toBe('hit');
    expect(Number(hit.headers.get('content-length'))).toBeLessThan(200);
  });

  it('keeps only pages every matched route declared cacheable, successful and without cookies', () => {
    const cache = new VisitorPageCache();
    const offer = (key: string, entry: ReturnType<typeof page>, ctx: EntryContext) => cache.slotFor(key).offer(entry, ctx);
    offer('a', page(), context([{ visitorCache: true }, { i18n: ['account'] }]));
    offer('b', page(), context([{ visitorCache: true }, undefined]));
    offer('c', page({ 'Set-Cookie': 'toast=; Max-Age=0' }), cacheable);
    offer('d', page({}, 404), cacheable);
    offer('e', page(), context([{ visitorCache: true }], { errors: { root: new Error('x') } }));
    offer('f', page(), context([{ visitorCache: true }], { actionData: { route0: { ok: true } } }));
    offer('g', page(), context([{ visitorCache: 'yes' }]));
    expect(cache.size).toBe(0);
    offer('h', page(), cacheable);
    expect(cache.size).toBe(1);
  });

  it('forgets a page after 60 seconds and the least recently stored beyond 200', () => {
    let now = 1_000;
    const cache = new VisitorPageCache(() => now);
    cache.store('old', page());
    now += 59_999;
    expect(cache.lookup('old')).not.toBeNull();
    now += 1;
    expect(cache.lookup('old')).toBeNull();

    for (let index = 0; index < 205; index++) cache.store(`k${index}`, page());
    expect(cache.size).toBe(200);
    expect(cache.lookup('k4')).toBeNull();
    expect(cache.lookup('k5')).not.toBeNull();
  });
});
