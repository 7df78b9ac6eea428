import { safeRedirect } from '../lib/safe-redirect';
import { redirect, type AppLoadContext } from '@remix-run/node';
import { User } from '../entities';
import { isAdmin } from '../domain/permissions';
import { getServerT } from '../i18n.server';
import { deviceCookieHeaders } from './device-cookie.server';
import { commitSession, destroySession, getSession, sessionStorage } from './session.server';
import { getRequestContext, isUserContext, type UserContext } from './request-context.server';

/**
 * Who is signed in: sessions (services/session.server.ts) and the guards for
 * loaders and actions, all on the per-request context: `getRequestContext`,
 * `requireUserContext` (pages), `requireApiUserContext` (JSON API, 401),
 * `requireAdmin`. Checking a password is an operation: `login` in
 * models/accounts.server.ts.
 */

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

/**
 * Everything a successful sign-in sets: the new session (see
 * `issueUserSession`) and the browser's device cookie for this account
 * (services/device-cookie.server.ts), as Set-Cookie headers.
 */
export async function signInHeaders(request: Request, userId: string): Promise<Headers> {
  const headers = new Headers();
  headers.append('Set-Cookie', await issueUserSession(request, userId));
  for (const cookie of await deviceCookieHeaders(request, userId)) headers.append('Set-Cookie', cookie);
  return headers;
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
export async function getSessionId(requestOrArgs: Request | ContextArgs): Promise<string> {
  return (await getRequestContext(argsOf(requestOrArgs))).sessionId;
}

// ---------------------------------------------------------------------------
// Guards: all read the per-request context (request-context.server.ts), so a
// page whose root and route loaders both ask reads the session and user once.

type ContextArgs = { request: Request; context?: AppLoadContext };

function argsOf(requestOrArgs: Request | ContextArgs): ContextArgs {
  return requestOrArgs instanceof Request ? { request: requestOrArgs } : requestOrArgs;
}

export async function getOptionalUserId(requestOrArgs: Request | ContextArgs): Promise<string | null> {
  return (await getRequestContext(argsOf(requestOrArgs))).user?.id ?? null;
}

/** The signed-in user, or null for visitors (and for sessions whose user was deleted). */
export async function getOptionalUser(requestOrArgs: Request | ContextArgs): Promise<User | null> {
  return (await getRequestContext(argsOf(requestOrArgs))).user;
}

/** The context of a signed-in user, or null for a visitor: pages that show visitors something of their own ask this. */
export async function getUserContext(requestOrArgs: Request | ContextArgs): Promise<UserContext | null> {
  const ctx = await getRequestContext(argsOf(requestOrArgs));
  return isUserContext(ctx) ? ctx : null;
}

/** Pages: the context of a signed-in user; visitors are redirected to /auth and come back afterwards. */
export async function requireUserContext(
  requestOrArgs: Request | ContextArgs,
  { redirectTo }: { redirectTo?: string | null } = {},
): Promise<UserContext> {
  const args = argsOf(requestOrArgs);
  const ctx = await getUserContext(args);
  if (ctx) return ctx;
  const url = new URL(args.request.url);
  const back = safeRedirect(redirectTo ?? `${url.pathname}${url.search}`);
  throw redirect(`/auth?${new URLSearchParams({ redirectTo: back })}`);
}

/** Pages: the signed-in user (see `requireUserContext`). */
export async function requireUser(requestOrArgs: Request | ContextArgs, options: { redirectTo?: string | null } = {}): Promise<User> {
  return (await requireUserContext(requestOrArgs, options)).user;
}

/** JSON API: the context of a signed-in user, or a 401 `{ message }`. */
export async function requireApiUserContext(requestOrArgs: Request | ContextArgs): Promise<UserContext> {
  const ctx = await getUserContext(requestOrArgs);
  if (ctx) return ctx;
  const t = await getServerT('auth');
  throw Response.json({ message: t('auth:messages.unauthorized') }, { status: 401, headers: { 'Cache-Control': 'no-store' } });
}

/** JSON API: the signed-in user, or a 401 `{ message }`. */
export async function requireApiUser(requestOrArgs: Request | ContextArgs): Promise<User> {
  return (await requireApiUserContext(requestOrArgs)).user;
}

/**
 * The one admin check, for admin pages and the admin API: visitors go to
 * /api/login; signed-in non-admins get 403 `{ message }` (pages render it in
 * their ErrorBoundary).
 */
export async function requireAdmin(requestOrArgs: Request | ContextArgs): Promise<UserContext> {
  const ctx = await getUserContext(requestOrArgs);
  if (!ctx) throw redirect('/api/login');
  if (!isAdmin(ctx.user)) {
    const t = await getServerT('auth');
    throw Response.json({ message: t('auth:messages.forbidden') }, { status: 403, headers: { 'Cache-Control': 'private, no-store' } });
  }
  return ctx;
}

/** A local path to go to after sign-in (the one rule: app/lib/safe-redirect.ts). */
export { safeRedirect };
export { getRequestContext, type RequestContext, type UserContext } from './request-context.server';
