/**
 * The cookies loaders read besides the consent cookie (`CONSENT_COOKIE_NAME`
 * in consent.ts). The visitor page cache (visitor-page-cache.server.ts) keeps
 * its hands off every request that carries one, so a cookie a loader starts
 * reading belongs here.
 */
export const SESSION_COOKIE_NAME = '__session';
export const TOAST_COOKIE_NAME = 'toast';

export const LOADER_COOKIE_NAMES: readonly string[] = [SESSION_COOKIE_NAME, TOAST_COOKIE_NAME];
