import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import v8 from 'node:v8';
import type { EntryContext } from '@remix-run/node';
import { pageCache } from './page-cache.server';
import { getEnv } from '../lib/env.server';
import { compressHtml, splitAtNonce, storedBytes, type NoncedHtml } from './nonced-html.server';

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
 * root loader data) never matches anyone else's. Each hit gets its own
 * response's CSP nonce; entries live 60 s at most (the footer year and the
 * print date are the only clock-dependent texts) and the map is bounded (300
 * pages, 48 MB per worker).
 */
const pages = pageCache<NoncedHtml>({ maxEntries: 300, ttlMs: 60_000, maxBytes: 48 * 1024 * 1024, sizeOf: storedBytes });

function isRenderCacheEnabled(): boolean {
  return getEnv().RENDER_CACHE === 'on';
}

/** A render that may be sent again: successful, and neither an action's result nor an error page. */
export function isReusableRender(context: EntryContext, status: number): boolean {
  const state = context.staticHandlerContext;
  return status === 200 && !state.actionData && !state.errors;
}

/**
 * Null when this render must not be reused (not a plain successful GET, or
 * loader data that cannot be serialized, such as a pending promise).
 * V8's own serialization: off the JavaScript heap and faster than
 * JSON.stringify, and at least as exact (equal bytes mean equal data).
 */
export function renderCacheKey(request: Request, context: EntryContext, status: number): string | null {
  if (!isRenderCacheEnabled() || request.method !== 'GET' || !isReusableRender(context, status)) return null;
  let data: Buffer;
  try {
    data = v8.serialize(context.staticHandlerContext.loaderData);
  } catch {
    return null;
  }
  return createHash('sha256').update(request.url).update('\0').update(data).digest('base64url');
}

/** The stored page, still cut at its nonce (see nonced-html.server.ts). */
export function getCachedPage(key: string): NoncedHtml | null {
  return pages.get(key) ?? null;
}

export function storePage(key: string, parts: NoncedHtml) {
  pages.set(key, parts);
}

/**
 * A pass-through stream that hands over what it forwarded, cut at the nonce,
 * once the render completes, unless `shouldKeep` says the render failed.
 */
export function recordingStream(nonce: string, shouldKeep: () => boolean, onRecorded: (parts: NoncedHtml) => void): Transform {
  const chunks: Buffer[] = [];
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      if (shouldKeep()) onRecorded(splitAtNonce(Buffer.concat(chunks), nonce));
      callback();
    },
  });
}

/** For tests. */
export function clearRenderCache() {
  pages.clear();
}

/** A stored page as this request's response, with its nonce and compressed for its Accept-Encoding. */
export function cachedHtmlResponse(parts: NoncedHtml, nonce: string, acceptEncoding: string | null, headers: Headers, status: number): Response {
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.append('Vary', 'Accept-Encoding');
  const { encoding, body } = compressHtml(parts, nonce, acceptEncoding);
  // The compression middleware leaves responses that already carry a Content-Encoding alone.
  if (encoding) headers.set('Content-Encoding', encoding);
  return new Response(new Uint8Array(body), { headers, status });
}
