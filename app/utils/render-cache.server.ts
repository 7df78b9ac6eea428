import { createHash, randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { EntryContext } from '@remix-run/node';
import { getEnv } from './env.server';

/**
 * Rendered documents, reused while their inputs are the same.
 *
 * A Remix document is a pure function of its URL and its loader data (nothing
 * in our components reads anything else that varies per request), so the HTML
 * of a GET whose URL and loader data match a recent render can be sent again
 * instead of running React. That is most of a page view's cost: the landing
 * page, the default calculator and every shared calculator link.
 *
 * The key includes the loader data, so a signed-in user's page (user in the
 * root loader data) never matches anyone else's. The per-request CSP nonce is
 * swapped in on every hit; entries live 60 s at most (the footer year and the
 * print date are the only clock-dependent texts) and the map is bounded.
 */
const MAX_ENTRIES = 300;
const TTL_MS = 60_000;
// Stands in for the nonce inside cached HTML; unguessable, so page content can never contain it.
const NONCE_MARKER = `__nonce_${randomBytes(12).toString('hex')}__`;

type Entry = { html: string; expires: number };
const entries = new Map<string, Entry>();

function isRenderCacheEnabled(): boolean {
  return getEnv().RENDER_CACHE === 'on';
}

/** Null when this render must not be reused (not a plain successful GET). */
export function renderCacheKey(request: Request, context: EntryContext, status: number): string | null {
  if (!isRenderCacheEnabled() || request.method !== 'GET' || status !== 200) return null;
  const state = context.staticHandlerContext;
  if (state.actionData || state.errors) return null;
  return createHash('sha256').update(request.url).update('\0').update(JSON.stringify(state.loaderData)).digest('base64url');
}

export function getCachedHtml(key: string, nonce: string): string | null {
  const entry = entries.get(key);
  if (!entry) return null;
  if (entry.expires < Date.now()) {
    entries.delete(key);
    return null;
  }
  // Refresh the entry's place in the (insertion-ordered) map: least recently used goes first.
  entries.delete(key);
  entries.set(key, entry);
  return entry.html.replaceAll(NONCE_MARKER, nonce);
}

/** A pass-through stream that stores what it forwarded once the render completes without error. */
export function recordingStream(key: string, nonce: string, shouldStore: () => boolean): Transform {
  const chunks: Buffer[] = [];
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      if (shouldStore()) {
        const html = Buffer.concat(chunks).toString('utf8');
        entries.set(key, { html: nonce ? html.replaceAll(nonce, NONCE_MARKER) : html, expires: Date.now() + TTL_MS });
        while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      }
      callback();
    },
  });
}

/** For tests. */
export function clearRenderCache() {
  entries.clear();
}

/**
 * A cached page, compressed here in one synchronous call. Streaming it through
 * the compression middleware costs three times as much (a fresh compressor per
 * response), which was most of the time a cache hit took. The middleware leaves
 * responses that already carry a Content-Encoding alone.
 */
export function cachedHtmlResponse(html: string, acceptEncoding: string | null, headers: Headers, status: number): Response {
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.append('Vary', 'Accept-Encoding');
  const accepted = acceptEncoding ?? '';
  if (/\bbr\b/.test(accepted)) {
    headers.set('Content-Encoding', 'br');
    return new Response(zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }), { headers, status });
  }
  if (/\bgzip\b/.test(accepted)) {
    headers.set('Content-Encoding', 'gzip');
    return new Response(zlib.gzipSync(html, { level: 1 }), { headers, status });
  }
  return new Response(html, { headers, status });
}
