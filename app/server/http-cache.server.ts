import type { AppLoadContext } from '@remix-run/node';
import { SESSION_COOKIE_NAME, TOAST_COOKIE_NAME } from '../lib/cookie-names';
import { PRIVATE_NO_STORE } from './http-cache';
import { sharedMaxAge } from './visitor-page-cache.server';

/**
 * The server's side of the cache rules (app/server/http-cache.ts), applied to
 * every document and `.data` response in entry.server.tsx. A response may stay
 * shareable only if its route said so AND:
 * - the request carried no session or toast cookie (what is rendered for a
 *   session is private, even where the page looks the same);
 * - it sets no cookie;
 * - no loader marked it private (`keepResponsePrivate(ctx)`, for data an admin
 *   can change: a shared copy would outlive the change).
 * Everything else is `private, no-store`. A shared page always varies on Cookie,
 * because the root loader reads cookies on every page.
 */
export async function applyCachePolicy(headers: Headers, request: Request, loadContext: AppLoadContext | undefined): Promise<void> {
  let shared = sharedMaxAge(headers) !== null && !carriesSessionCookie(request);
  if (shared) {
    const ctx = await loadContext?.requestContext?.current?.catch(() => null);
    if (ctx === null || ctx?.privateResponse) shared = false;
  }
  if (!shared) {
    headers.set('Cache-Control', PRIVATE_NO_STORE);
    return;
  }
  const vary = (headers.get('Vary') ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  if (!vary.some((name) => name.toLowerCase() === 'cookie' || name === '*')) headers.set('Vary', [...vary, 'Cookie'].join(', '));
}

function carriesSessionCookie(request: Request): boolean {
  const cookie = request.headers.get('Cookie');
  if (!cookie) return false;
  return cookie.split(';').some((pair) => {
    const name = pair.split('=', 1)[0].trim();
    return name === SESSION_COOKIE_NAME || name === TOAST_COOKIE_NAME;
  });
}
