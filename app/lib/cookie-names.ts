/**
 * Names of the cookies that mean "this request belongs to someone": a response
 * to a request carrying one is private (app/server/http-cache.server.ts).
 */
export const SESSION_COOKIE_NAME = '__session';
export const TOAST_COOKIE_NAME = 'toast';

