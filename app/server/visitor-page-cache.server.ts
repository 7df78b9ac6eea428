import type { EntryContext } from '@remix-run/node';
import type { LRUCache } from 'lru-cache';
import { pageCache } from './page-cache.server';
import { compressHtml, storedBytes, type NoncedHtml } from './nonced-html.server';
import { isReusableRender } from './render-cache.server';

/**
 * Whole pages answered before Remix runs: a small shared cache in front of the
 * app that follows HTTP's rules, as a CDN would (a CDN cannot, because every
 * response has its own CSP nonce; this cache puts a fresh one into each answer).
 *
 * There is no list of routes or cookies here. A page is stored only when its
 * response says it may be shared: `Cache-Control: public, max-age=N` (N > 0,
 * and no private / no-store / no-cache), no `Set-Cookie`, a successful GET that
 * was neither an action's result nor an error page. Routes say so through their
 * `headers` export (app/server/http-cache.ts); entry.server.tsx makes every
 * response that carries a session, sets a cookie or read admin-changeable data
 * `private, no-store` before it gets here, so such a page is never shared. An
 * entry lives N seconds and answers only requests whose headers named in the
 * response's `Vary` are the same (`Vary: Cookie`: visitors without cookies share
 * one entry, each consent choice has its own, a session never matches).
 */

// Headers that belong to one response (or that the cache sets itself), never stored.
const UNSTORED_HEADERS = new Set(['content-encoding', 'content-length', 'content-security-policy', 'date', 'transfer-encoding', 'age']);

// Per address, at most this many variants (different Vary values) are kept.
const MAX_VARIANTS = 8;

/** What entry.server.tsx hands over after rendering a page. */
export type VisitorPage = { status: number; headers: Headers; parts: NoncedHtml };
/** Present in the load context of a GET: the page is stored if its response allows it. */
export type VisitorPageSlot = { offer(page: VisitorPage, context: EntryContext): void };

type Entry = { status: number; headers: [string, string][]; parts: NoncedHtml; expires: number };
type Variants = { vary: string[]; entries: Map<string, Entry> };

function variantsBytes(variants: Variants): number {
  let bytes = 0;
  for (const entry of variants.entries.values()) bytes += storedBytes(entry.parts);
  return bytes;
}

type NodeRequest = { method?: string; url?: string; headers: Record<string, string | string[] | undefined> };
type NodeResponse = { statusCode: number; setHeader(name: string, value: string | number): unknown; end(body: Buffer): unknown };

/** Seconds a shared cache may keep a response, or null when it must not keep it. */
export function sharedMaxAge(headers: Headers): number | null {
  if (headers.has('set-cookie')) return null;
  const directives = new Map<string, string>();
  for (const part of (headers.get('cache-control') ?? '').toLowerCase().split(',')) {
    const [name, value = ''] = part.trim().split('=');
    if (name) directives.set(name, value.replace(/"/g, ''));
  }
  if (!directives.has('public') || ['private', 'no-store', 'no-cache'].some((name) => directives.has(name))) return null;
  const maxAge = Number(directives.get('s-maxage') ?? directives.get('max-age'));
  return Number.isInteger(maxAge) && maxAge > 0 ? maxAge : null;
}

/** The header names of a Vary value, lower case; null for `Vary: *` (never matches). */
function varyNames(headers: Headers): string[] | null {
  const names = (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes('*')) return null;
  // Compression is per response here: every encoding is served from one entry.
  return [...new Set(names.filter((name) => name !== 'accept-encoding'))].sort();
}

function headerValue(request: NodeRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function variantKey(request: NodeRequest, names: string[]): string {
  return names.map((name) => headerValue(request, name)).join('\0');
}

/** True when a request may be answered from (and fill) this cache: a GET with an address. */
export function isCacheableRequest(request: NodeRequest): boolean {
  return request.method === 'GET' && Boolean(request.url);
}

export class VisitorPageCache {
  private pages: LRUCache<string, Variants>;

  constructor(private readonly now: () => number = Date.now) {
    // The cap on any entry's life, whatever max-age a route asks for.
    // 200 addresses and 32 MB per worker, whichever is reached first.
    this.pages = pageCache<Variants>({ maxEntries: 200, ttlMs: 10 * 60_000, maxBytes: 32 * 1024 * 1024, sizeOf: variantsBytes, now });
  }

  get size() {
    return this.pages.size;
  }

  /** What the stored pages hold, as counted against the byte budget. */
  get bytes() {
    return this.pages.calculatedSize;
  }

  /** The slot for the load context: the page is kept if its response allows it. */
  slotFor(request: NodeRequest): VisitorPageSlot {
    // Only the header values are kept, not the request.
    const snapshot: NodeRequest = { method: request.method, url: request.url, headers: { ...request.headers } };
    return {
      offer: (page, context) => {
        if (isReusableRender(context, page.status)) this.store(snapshot, page);
      },
    };
  }

  /** Stores a response if HTTP allows a shared cache to; returns whether it did. */
  store(request: NodeRequest, page: VisitorPage): boolean {
    if (!isCacheableRequest(request)) return false;
    const maxAge = sharedMaxAge(page.headers);
    const vary = varyNames(page.headers);
    if (maxAge === null || vary === null) return false;
    const headers: [string, string][] = [];
    page.headers.forEach((value, name) => {
      if (!UNSTORED_HEADERS.has(name)) headers.push([name, value]);
    });
    const url = request.url!;
    let variants = this.pages.get(url);
    // A different Vary for the address starts over: old variants were keyed by other headers.
    if (!variants || variants.vary.join() !== vary.join()) variants = { vary, entries: new Map() };
    const key = variantKey(request, vary);
    variants.entries.delete(key);
    variants.entries.set(key, { status: page.status, headers, parts: page.parts, expires: this.now() + maxAge * 1000 });
    while (variants.entries.size > MAX_VARIANTS) variants.entries.delete(variants.entries.keys().next().value!);
    // A new object: lru-cache measures a value again only when another one is set.
    this.pages.set(url, { ...variants });
    return true;
  }

  lookup(request: NodeRequest): Entry | null {
    if (!isCacheableRequest(request)) return null;
    const variants = this.pages.get(request.url!);
    if (!variants) return null;
    const key = variantKey(request, variants.vary);
    const entry = variants.entries.get(key);
    if (!entry) return null;
    if (entry.expires <= this.now()) {
      variants.entries.delete(key);
      return null;
    }
    return entry;
  }

  /**
   * Answers the request from the cache and returns true, or returns false and
   * leaves the response untouched. `nonce` is this response's CSP nonce (its
   * Content-Security-Policy header is already set).
   */
  answer(request: NodeRequest, response: NodeResponse, nonce: string): boolean {
    const entry = this.lookup(request);
    if (!entry) return false;
    const { encoding, body } = compressHtml(entry.parts, nonce, headerValue(request, 'accept-encoding'));
    response.statusCode = entry.status;
    let vary = 'Accept-Encoding';
    for (const [name, value] of entry.headers) {
      if (name === 'vary') vary = `${value}, Accept-Encoding`;
      else response.setHeader(name, value);
    }
    response.setHeader('Vary', vary);
    if (encoding) response.setHeader('Content-Encoding', encoding);
    response.setHeader('Content-Length', body.length);
    // Like a CDN's: says the page came from this cache (for operators and tests).
    response.setHeader('X-Cache', 'hit');
    response.end(body);
    return true;
  }
}
