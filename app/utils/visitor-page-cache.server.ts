import type { EntryContext } from '@remix-run/node';
import { CONSENT_COOKIE_NAME } from './consent';
import { LOADER_COOKIE_NAMES } from './cookie-names';
import { BoundedCache } from './bounded-cache.server';
import { compressHtml, joinWithNonce, type NoncedHtml } from './nonced-html.server';
import { isReusableRender } from './render-cache.server';

/**
 * Whole pages for visitors, answered before Remix runs: a small shared cache
 * in front of the app, as a CDN would be if the per-response CSP nonce did not
 * keep pages out of shared caches.
 *
 * The render cache (render-cache.server.ts) skips React but still runs Remix:
 * a web Request, route matching, every loader, the loader data's turbo-stream.
 * For the pages most people see (the landing page, the calculator and shared
 * calculator links, opened by visitors) that was most of the time a request
 * took. Those pages say in their route `handle` that for a visitor their
 * response depends on nothing but the address and the consent cookie:
 *
 *     export const handle = { visitorCache: true };
 *
 * A page is stored only when every route it matched says so, it was a
 * successful GET that set no cookie, and the request carried none of the
 * cookies a loader reads for signed-in users or toasts
 * (`LOADER_COOKIE_NAMES`). The consent choice is part of the key. Entries live
 * 60 s like the render cache's (the footer year and the print date), the map
 * is bounded, and each answer gets its own response's nonce.
 */
const VISITOR_CACHE_HANDLE = 'visitorCache';

// Headers that belong to one response (or that the cache sets itself), never stored.
const UNSTORED_HEADERS = new Set(['content-encoding', 'content-length', 'content-security-policy', 'date', 'transfer-encoding', 'vary']);

/** What entry.server.tsx hands over after rendering a page for a visitor. */
export type VisitorPage = { status: number; headers: Headers; parts: NoncedHtml };
/** Present in the load context when the request may be answered from this cache next time. */
export type VisitorPageSlot = { offer(page: VisitorPage, context: EntryContext): void };

type Entry = { status: number; headers: [string, string][]; parts: NoncedHtml };

type NodeRequest = { method?: string; url?: string; headers: Record<string, string | string[] | undefined> };
type NodeResponse = { statusCode: number; setHeader(name: string, value: string | number): unknown; end(body: Buffer): unknown };

function cookieValues(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    const name = (at === -1 ? pair : pair.slice(0, at)).trim();
    if (name && !cookies.has(name)) cookies.set(name, at === -1 ? '' : pair.slice(at + 1).trim());
  }
  return cookies;
}

/** The cache key of a request, or null when it must go to Remix (not a GET, or a loader cookie). */
export function visitorPageKey(request: NodeRequest): string | null {
  if (request.method !== 'GET' || !request.url) return null;
  const header = request.headers.cookie;
  const cookies = cookieValues(Array.isArray(header) ? header.join('; ') : header);
  if (LOADER_COOKIE_NAMES.some((name) => cookies.has(name))) return null;
  return `${request.url}\0${cookies.get(CONSENT_COOKIE_NAME) ?? ''}`;
}

/** True when every route the page matched declared `handle.visitorCache`. */
export function allowsVisitorCache(context: EntryContext): boolean {
  const matches = context.staticHandlerContext.matches;
  return (
    matches.length > 0 &&
    matches.every((match) => (context.routeModules[match.route.id]?.handle as Record<string, unknown> | undefined)?.[VISITOR_CACHE_HANDLE] === true)
  );
}

export class VisitorPageCache {
  private entries: BoundedCache<Entry>;

  constructor(now: () => number = Date.now) {
    this.entries = new BoundedCache<Entry>({ maxEntries: 200, ttlMs: 60_000, now });
  }

  get size() {
    return this.entries.size;
  }

  /** The slot for the load context: the page is kept if the render qualifies. */
  slotFor(key: string): VisitorPageSlot {
    return {
      offer: (page, context) => {
        if (isReusableRender(context, page.status) && !page.headers.has('set-cookie') && allowsVisitorCache(context)) {
          this.store(key, page);
        }
      },
    };
  }

  store(key: string, page: VisitorPage) {
    const headers: [string, string][] = [];
    page.headers.forEach((value, name) => {
      if (!UNSTORED_HEADERS.has(name)) headers.push([name, value]);
    });
    this.entries.set(key, { status: page.status, headers, parts: page.parts });
  }

  lookup(key: string): Entry | null {
    return this.entries.get(key);
  }

  /**
   * Answers the request from the cache and returns true, or returns false and
   * leaves the response untouched. `nonce` is this response's CSP nonce (its
   * Content-Security-Policy header is already set).
   */
  answer(key: string, request: NodeRequest, response: NodeResponse, nonce: string): boolean {
    const entry = this.lookup(key);
    if (!entry) return false;
    const html = joinWithNonce(entry.parts, nonce);
    const accept = request.headers['accept-encoding'];
    const { encoding, body } = compressHtml(html, Array.isArray(accept) ? accept.join(',') : accept);
    response.statusCode = entry.status;
    for (const [name, value] of entry.headers) response.setHeader(name, value);
    response.setHeader('Vary', 'Accept-Encoding');
    if (encoding) response.setHeader('Content-Encoding', encoding);
    response.setHeader('Content-Length', body.length);
    // Like a CDN's: says the page came from this cache (for operators and tests).
    response.setHeader('X-Cache', 'hit');
    response.end(body);
    return true;
  }
}
