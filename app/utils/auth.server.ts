import { redirect } from '@remix-run/node';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';
import { User } from '../entities';
import { safeRedirect } from './safe-redirect';
import { getServerT } from '../i18n.server';
import { authenticate, type AuthenticateResult } from '../models/users.server';
import { getEm } from '../services/db.server';
import { consumeRateLimit, clientIp, settleRateLimit } from '../services/rate-limit.server';
import { commitSession, deleteUserSessions, destroySession, getSession, sessionStorage } from '../services/session.server';

/**
 * Sign-in with remix-auth's FormStrategy; the session (who is signed in) is
 * ours (services/session.server.ts). Guards for loaders and actions:
 * `getOptionalUser`, `requireUser` (pages), `requireApiUser` (JSON API, 401),
 * `requireAdmin`.
 */

export const LOGIN_STRATEGY = 'form';

/**
 * The verify function checks the password through the users model. It answers
 * with the model's result (ok / unverified / invalid) instead of throwing, so
 * the caller can tell "not yet confirmed" (403) from "wrong" (401).
 */
export const authenticator = new Authenticator<AuthenticateResult>().use(
  new FormStrategy<AuthenticateResult>(async ({ form }) => {
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    return authenticate(await getEm(), email, password);
  }),
  LOGIN_STRATEGY,
);

export type LoginAttempt =
  | { status: 'ok'; user: User }
  | { status: 'unverified' }
  | { status: 'invalid' }
  | { status: 'rateLimited'; retryAfterSeconds: number };

/**
 * One sign-in attempt with validated input (the JSON API and the /auth page
 * both call this): rate limit per IP and address first, then the
 * FormStrategy. Does not create the session; call `createUserSession` on ok.
 */
export async function attemptLogin(
  request: Request,
  em: EntityManager,
  input: { email: string; password: string },
): Promise<LoginAttempt> {
  const keys = { ip: clientIp(request), email: input.email };
  const limit = await consumeRateLimit(em, 'login', keys);
  if (!limit.allowed) return { status: 'rateLimited', retryAfterSeconds: limit.retryAfterSeconds };

  // The strategy reads a form body; the JSON API hands its (validated) fields over as one.
  const formRequest = new Request(request.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: input.email, password: input.password }),
  });
  const result = await authenticator.authenticate(LOGIN_STRATEGY, formRequest);
  // Only wrong passwords count against the address (rate-limit-config.server.ts).
  if (result.status !== 'invalid') await settleRateLimit(em, 'login', keys, 'success');
  if (result.status === 'ok') return { status: 'ok', user: result.user };
  return { status: result.status };
}

// ---------------------------------------------------------------------------
// Session lifecycle

/**
 * Signs a user in: the session the browser had before (if any) is deleted and
 * a NEW session id is issued, so an id planted before sign-in is worthless.
 * Returns the Set-Cookie header value.
 */
export async function issueUserSession(request: Request, userId: string): Promise<string> {
  const previous = await getSession(request);
  if (previous.id) await destroySession(previous);
  const session = await sessionStorage.getSession(null);
  session.set('userId', userId);
  return commitSession(session);
}

/** Signs a user in (see `issueUserSession`) and redirects to a safe local path. */
export async function createUserSession({
  request,
  userId,
  redirectTo,
  headers,
}: {
  request: Request;
  userId: string;
  redirectTo?: string | null;
  headers?: HeadersInit;
}): Promise<Response> {
  const responseHeaders = new Headers(headers);
  responseHeaders.append('Set-Cookie', await issueUserSession(request, userId));
  return redirect(safeRedirect(redirectTo), { headers: responseHeaders });
}

/** Ends the browser's session (row deleted) and returns the Set-Cookie header that clears the cookie. */
export async function endSession(request: Request): Promise<string> {
  return destroySession(await getSession(request));
}

/** Signs out and redirects (default: the home page). */
export async function logout(request: Request, { redirectTo = '/' }: { redirectTo?: string } = {}): Promise<Response> {
  return redirect(safeRedirect(redirectTo, '/'), { headers: { 'Set-Cookie': await endSession(request) } });
}

/** The id of the browser's current session ('' when it has none). */
export async function getSessionId(request: Request): Promise<string> {
  return (await getSession(request)).id;
}

/** Ends a user's other sessions (password change: keep the current one; reset: keep none). */
export function revokeOtherSessions(em: EntityManager, userId: string, keepSid?: string | null): Promise<number> {
  return deleteUserSessions(em, userId, keepSid);
}

// ---------------------------------------------------------------------------
// Guards

export async function getOptionalUserId(request: Request): Promise<string | null> {
  const userId = (await getSession(request)).get('userId');
  return typeof userId === 'string' && userId ? userId : null;
}

/** The signed-in user, or null for visitors (and for sessions whose user was deleted). */
export async function getOptionalUser(request: Request, em?: EntityManager): Promise<User | null> {
  const userId = await getOptionalUserId(request);
  if (!userId) return null;
  return (em ?? (await getEm())).findOne(User, { id: userId });
}

/** Pages: the signed-in user; visitors are redirected to /auth and come back afterwards. */
export async function requireUser(
  request: Request,
  { redirectTo, em }: { redirectTo?: string | null; em?: EntityManager } = {},
): Promise<User> {
  const user = await getOptionalUser(request, em);
  if (user) return user;
  const url = new URL(request.url);
  const back = safeRedirect(redirectTo ?? `${url.pathname}${url.search}`);
  throw redirect(`/auth?${new URLSearchParams({ redirectTo: back })}`);
}

/** JSON API: the signed-in user, or a 401 `{ message }`. */
export async function requireApiUser(request: Request, em?: EntityManager): Promise<User> {
  const user = await getOptionalUser(request, em);
  if (user) return user;
  const t = await getServerT('auth');
  throw Response.json({ message: t('auth:messages.unauthorized') }, { status: 401 });
}

/** Admin pages and API: visitors go to /api/login; signed-in non-admins get 403. */
export async function requireAdmin(request: Request, em?: EntityManager): Promise<User> {
  const user = await getOptionalUser(request, em);
  if (!user) throw redirect('/api/login');
  if (!isAdmin(user)) {
    const t = await getServerT('auth');
    throw Response.json({ message: t('auth:messages.forbidden') }, { status: 403 });
  }
  return user;
}

/** isAdmin is stored as 1/0; the spec's admin page also accepts `true`. */
export function isAdmin(user: Pick<User, 'isAdmin'>): boolean {
  const value = user.isAdmin as unknown;
  return value === 1 || value === true;
}

/** A local path to go to after sign-in (the one rule: app/utils/safe-redirect.ts). */
export { safeRedirect };
