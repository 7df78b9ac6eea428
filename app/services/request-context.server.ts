import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities';
import { getEm, noteDatabaseFailure, serviceUnavailableResponse } from './db.server';
import { clientIp } from './client-ip.server';
import { readSessionWithUser, SESSION_COOKIE_NAME } from './session.server';

/**
 * The per-request context every operation takes: one EntityManager fork, the
 * session and its user read once, the client IP and the request's clock.
 *
 * The HTTP server's `getLoadContext` (scripts/lib/server.ts) puts an empty
 * holder into Remix's load context; the first loader or action that asks
 * fills it, and every other loader of the same request (root and page run in
 * parallel) gets the same promise, so a signed-in page reads its session and
 * user once. Called without a holder (tests calling a loader directly) it
 * falls back to one context per Request object.
 */
export type RequestContext = {
  em: EntityManager;
  user: User | null;
  /** '' when the browser has no (valid) session. */
  sessionId: string;
  ip: string;
  now: Date;
  /** The request carried a session cookie (valid or not): its response is private. */
  hasSession: boolean;
  /** Set by `keepResponsePrivate`: the response must not be shared (app/server/http-cache.server.ts). */
  privateResponse: boolean;
};
export type UserContext = RequestContext & { user: User };

/** Whether the context is a signed-in user's (the same object, narrowed: what an operation marks on it stays marked). */
export function isUserContext(ctx: RequestContext): ctx is UserContext {
  return ctx.user !== null;
}

export type RequestContextHolder = { current?: Promise<RequestContext> };

declare module '@remix-run/node' {
  interface AppLoadContext {
    cspNonce?: string;
    requestContext?: RequestContextHolder;
  }
}

/** What the HTTP server's getLoadContext adds for each request. */
export function createRequestContextHolder(): RequestContextHolder {
  return {};
}

const byRequest = new WeakMap<Request, Promise<RequestContext>>();

/** Counts context builds (each is one session read); tests assert one per request. */
export const requestContextStats = { built: 0 };

async function buildRequestContext(request: Request): Promise<RequestContext> {
  requestContextStats.built += 1;
  const cookieHeader = request.headers.get('Cookie') ?? '';
  const hasSession = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE_NAME}=`).test(cookieHeader);
  // A visitor's page may need no database (the calculator): it is not refused for an outage up front.
  const em = await getEm({ checkHealth: hasSession });
  let user: User | null = null;
  let sessionId = '';
  if (hasSession) {
    // The session row and its user in one query (the hot path of every signed-in page).
    let read: Awaited<ReturnType<typeof readSessionWithUser>>;
    try {
      read = await readSessionWithUser(em, cookieHeader);
    } catch (error) {
      // The database died under this very request: the same 503 (German page, Retry-After) that
      // every later request gets from getEm(), also for a client-side navigation's first `.data`.
      if (noteDatabaseFailure(error)) throw serviceUnavailableResponse();
      throw error;
    }
    if (read) {
      sessionId = read.sid;
      if (read.userRow) user = em.map(User, read.userRow);
    }
  }
  return { em, user, sessionId, ip: clientIp(request), now: new Date(), hasSession, privateResponse: false };
}

export function getRequestContext({ request, context }: { request: Request; context?: { requestContext?: RequestContextHolder } }): Promise<RequestContext> {
  const holder = context?.requestContext;
  if (holder) {
    holder.current ??= buildRequestContext(request);
    // A failed build (database down) must not be remembered past this request's error page.
    return ownRefusal(holder.current);
  }
  let pending = byRequest.get(request);
  if (!pending) {
    pending = buildRequestContext(request);
    byRequest.set(request, pending);
  }
  return ownRefusal(pending);
}

/**
 * Root and page loaders share one build; when it is refused with a Response
 * (getEm()'s 503 during an outage) each gets its own copy, since Remix reads
 * the body of every thrown Response and a body can be read only once.
 */
function ownRefusal(pending: Promise<RequestContext>): Promise<RequestContext> {
  return pending.catch((error: unknown) => {
    throw error instanceof Response ? error.clone() : error;
  });
}

/**
 * Says that this request's response depends on data an admin can change (or
 * anything else a shared copy must not outlive): it is sent `private, no-store`
 * and never enters the visitor page cache, whatever the route's `headers` say.
 * Every loader that reads admin settings (e.g. the ads configuration) calls this.
 */
export function keepResponsePrivate(ctx: RequestContext): void {
  ctx.privateResponse = true;
}
