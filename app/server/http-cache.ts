import type { HeadersFunction } from '@remix-run/node';

/**
 * What a page says about caching, through its route's `headers` export. The
 * server enforces the rest (entry.server.tsx): whatever is rendered for a
 * session, sets a cookie or read admin-changeable data is sent
 * `private, no-store`, whatever the route says; a page without this export is
 * `private, no-store` too.
 */

/** Seconds a shared page may be reused: the footer year and the print date are its only clock-dependent texts. */
export const PUBLIC_PAGE_MAX_AGE = 60;

export const PRIVATE_NO_STORE = 'private, no-store';

/**
 * For pages whose response, for a visitor, depends only on the address and the
 * cookies (the root loader reads the consent cookie, so `Vary: Cookie`). Export
 * it as `export const headers = publicPageHeaders;`.
 */
export const publicPageHeaders: HeadersFunction = () => ({
  'Cache-Control': `public, max-age=${PUBLIC_PAGE_MAX_AGE}`,
  Vary: 'Cookie',
});
