import crypto from 'node:crypto';
import { createCookie, type Cookie } from '@remix-run/node';
import { getEnv } from '../lib/env.server';
import { sessionSecrets } from './session.server';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device
 * Cookies"): after a successful sign-in the browser keeps, for a year, a cookie
 * naming the account and a random nonce, HMAC-signed with a key derived from
 * the session secret. A sign-in that carries a valid one for the account it
 * names is counted in that cookie's own bucket (rate-limit-config.server.ts,
 * `loginDevice`) and nothing else: no failure from another IP or browser
 * stops it. The cookie holds no state; its failure counter lives in
 * `rate_limits` (docs/sign-in-protection.md).
 *
 * One cookie holds up to five accounts (a shared computer), the newest first.
 * It is sent only where sign-in happens (`/auth`, its single-fetch `/auth.data`
 * and `/api/auth/…`), so it never turns a visitor page private or splits the
 * visitor page cache (which varies on Cookie).
 */
export const DEVICE_COOKIE_NAME = '__device';

const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const MAX_ACCOUNTS = 5;
/** Every path a sign-in is posted to: the page, its data request (single fetch) and the JSON API. */
export const DEVICE_COOKIE_PATHS = ['/auth', '/auth.data', '/api/auth'] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

/** One account a browser signed in to: the account's id and the nonce of that sign-in. */
export type DeviceToken = { userId: string; nonce: string };

let cookiePromise: Promise<Cookie> | undefined;

function deviceCookie(): Promise<Cookie> {
  cookiePromise ??= sessionSecrets().then((secrets) =>
    createCookie(DEVICE_COOKIE_NAME, {
      httpOnly: true,
      sameSite: 'lax',
      secure: getEnv().NODE_ENV === 'production' && !getEnv().APP_URL?.startsWith('http://'),
      maxAge: MAX_AGE_SECONDS,
      // A key of its own (derived, so rotation follows SESSION_SECRET): a session cookie's signature never fits here.
      secrets: secrets.map((secret) => crypto.createHmac('sha256', secret).update('druckpreis device cookie v1').digest('base64url')),
    }),
  );
  cookiePromise.catch(() => {
    cookiePromise = undefined;
  });
  return cookiePromise;
}

/** The accounts this browser's device cookie names (only a cookie whose signature holds; [] otherwise). */
export async function readDeviceTokens(request: Request): Promise<DeviceToken[]> {
  const header = request.headers.get('Cookie');
  if (!header || !header.includes(`${DEVICE_COOKIE_NAME}=`)) return [];
  let value: unknown;
  try {
    value = await (await deviceCookie()).parse(header);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value
    .slice(0, MAX_ACCOUNTS)
    .filter((entry): entry is [string, string] => Array.isArray(entry) && typeof entry[0] === 'string' && typeof entry[1] === 'string')
    .filter(([userId, nonce]) => UUID.test(userId) && NONCE.test(nonce))
    .map(([userId, nonce]) => ({ userId: userId.toLowerCase(), nonce }));
}

/**
 * The Set-Cookie headers after a successful sign-in of `userId`: a new nonce
 * for this account, the other accounts the cookie named kept (at most five).
 */
export async function deviceCookieHeaders(request: Request, userId: string): Promise<string[]> {
  const others = (await readDeviceTokens(request)).filter((token) => token.userId !== userId.toLowerCase());
  const fresh: DeviceToken = { userId: userId.toLowerCase(), nonce: crypto.randomBytes(16).toString('base64url') };
  const value = [fresh, ...others].slice(0, MAX_ACCOUNTS).map((token) => [token.userId, token.nonce]);
  const cookie = await deviceCookie();
  return Promise.all(DEVICE_COOKIE_PATHS.map((path) => cookie.serialize(value, { path })));
}
