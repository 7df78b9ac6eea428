import crypto from 'node:crypto';
import { createCookie, createSessionStorage, type Cookie, type Session, type SessionStorage } from '@remix-run/node';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ReferenceKind } from '@mikro-orm/core';
import { Session as SessionRow, User } from '../entities';
import { getEnv } from '../lib/env.server';
import { getEm } from './db.server';
import { getOrCreateSecret } from './secrets.server';
import { queryPrepared } from './prepared-query.server';
import { SESSION_COOKIE_NAME } from '../lib/cookie-names';

export { SESSION_COOKIE_NAME };

/**
 * Server-side sessions in the `sessions` table (sid, sess jsonb, expire).
 * The `__session` cookie holds only the signed session id.
 *
 * Limits (docs/security.md, "Accounts and sessions"):
 * - idle: a session unused for 7 days ends. `expire` moves forward when the
 *   session is read, but at most once per hour, so a busy user does not cost a
 *   write per request.
 * - absolute: 30 days after it was created (`sess.createdAt`) a session ends
 *   however active it is; signing in again makes a new one.
 */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
export const SESSION_TOUCH_INTERVAL_MS = 60 * 60 * 1000;

export type SessionData = {
  userId?: string;
  /** ms since epoch, set when the row is created; enforces the absolute limit. */
  createdAt?: number;
};
export type SessionFlashData = Record<string, unknown>;
export type AppSession = Session<SessionData, SessionFlashData>;
export type AppSessionStorage = SessionStorage<SessionData, SessionFlashData>;

/** 32 random bytes, base64url: the session id. */
export function newSessionId(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** When a session with this creation time, used now, expires: idle limit capped by the absolute limit. */
export function nextExpiry(createdAt: number, now = Date.now()): Date {
  return new Date(Math.min(now + SESSION_IDLE_MS, createdAt + SESSION_ABSOLUTE_MS));
}

/** The secrets that sign the session cookie (also the root of the device cookie's key, services/device-cookie.server.ts). */
export async function sessionSecrets(): Promise<string[]> {
  const fromEnv = getEnv().SESSION_SECRET;
  if (fromEnv) {
    // Comma-separated for rotation: the first signs, all verify.
    const secrets = fromEnv
      .split(',')
      .map((secret) => secret.trim())
      .filter(Boolean);
    if (secrets.length > 0) return secrets;
  }
  return [await getOrCreateSecret('session')];
}

async function createSessionCookie(): Promise<Cookie> {
  return createCookie(SESSION_COOKIE_NAME, {
    httpOnly: true,
    sameSite: 'lax',
    // Secure in production, unless the operator deliberately serves plain http (APP_URL http://…),
    // where browsers would drop a Secure cookie and nobody could sign in.
    secure: getEnv().NODE_ENV === 'production' && !getEnv().APP_URL?.startsWith('http://'),
    path: '/',
    // The browser may keep the id as long as the absolute limit; the server decides whether it is still valid.
    maxAge: SESSION_ABSOLUTE_MS / 1000,
    secrets: await sessionSecrets(),
  });
}

let lastPurge = 0;
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** Deletes expired rows now and then (cheap: `sessions.expire` is indexed). */
async function purgeExpiredSessions(em: EntityManager) {
  const now = Date.now();
  if (now - lastPurge < PURGE_INTERVAL_MS) return;
  lastPurge = now;
  await em.nativeDelete(SessionRow, { expire: { $lt: new Date(now) } });
}

function isLive(row: Pick<SessionRow, 'sess' | 'expire'>, now: number): boolean {
  if (row.expire.getTime() <= now) return false;
  const createdAt = Number(row.sess.createdAt);
  if (!Number.isFinite(createdAt)) return false;
  return now - createdAt < SESSION_ABSOLUTE_MS;
}

/**
 * The data of a stored session that is still live, sliding its idle window
 * (at most once per hour); null, and the row deleted, when it has ended.
 */
async function keepAlive(em: EntityManager, sid: string, row: Pick<SessionRow, 'sess' | 'expire'>): Promise<SessionData | null> {
  const now = Date.now();
  if (!isLive(row, now)) {
    await em.nativeDelete(SessionRow, { sid });
    return null;
  }
  const createdAt = Number(row.sess.createdAt);
  const wanted = nextExpiry(createdAt, now);
  if (wanted.getTime() - row.expire.getTime() >= SESSION_TOUCH_INTERVAL_MS) {
    await em.nativeUpdate(SessionRow, { sid }, { expire: wanted });
  }
  return row.sess as SessionData;
}

function createDatabaseSessionStorage(cookie: Cookie): AppSessionStorage {
  return createSessionStorage<SessionData, SessionFlashData>({
    cookie,
    async createData(data) {
      const em = await getEm();
      await purgeExpiredSessions(em);
      const createdAt = Date.now();
      const sid = newSessionId();
      em.create(SessionRow, { sid, sess: { ...data, createdAt }, expire: nextExpiry(createdAt) });
      await em.flush();
      return sid;
    },
    async readData(sid) {
      sessionReadStats.reads += 1;
      const em = await getEm();
      const row = await em.findOne(SessionRow, { sid });
      return row ? keepAlive(em, sid, row) : null;
    },
    async updateData(sid, data) {
      const em = await getEm();
      const row = await em.findOne(SessionRow, { sid });
      const now = Date.now();
      if (!row || !isLive(row, now)) {
        // The row ended meanwhile (logout elsewhere, revoked, expired): never resurrect it.
        return;
      }
      const createdAt = Number(row.sess.createdAt);
      row.sess = { ...data, createdAt };
      row.expire = nextExpiry(createdAt, now);
      await em.flush();
    },
    async deleteData(sid) {
      if (!sid) return;
      const em = await getEm();
      await em.nativeDelete(SessionRow, { sid });
    },
  });
}

let storagePromise: Promise<{ cookie: Cookie; storage: AppSessionStorage }> | undefined;

function getCookieAndStorage(): Promise<{ cookie: Cookie; storage: AppSessionStorage }> {
  storagePromise ??= createSessionCookie().then((cookie) => ({ cookie, storage: createDatabaseSessionStorage(cookie) }));
  storagePromise.catch(() => {
    storagePromise = undefined;
  });
  return storagePromise;
}

async function getStorage(): Promise<AppSessionStorage> {
  return (await getCookieAndStorage()).storage;
}

/**
 * The session id and user id of a request, read like `getSession` does (the
 * signed cookie, then the live row, sliding its idle window), plus the user's
 * row from the same query: a signed-in page costs one round trip for both.
 * `user` is the raw `users` row (the caller maps it into its EntityManager).
 */
/** Counts session reads from the database (`getSession` and `readSessionWithUser`); tests assert one per request. */
export const sessionReadStats = { reads: 0 };

const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

let userColumnList: string | null = null;
/**
 * The users table's columns by name, from the ORM's metadata, never `u.*`: the
 * session read is a prepared statement, and PostgreSQL refuses to run one whose
 * `*` would now return other columns ("cached plan must not change result
 * type"), so a migration adding a column would have failed every signed-in
 * request of the instances still running until they restarted.
 */
function userColumnsOf(em: EntityManager): string {
  if (userColumnList) return userColumnList;
  const meta = em.getMetadata().get(User.name);
  const names = new Set<string>();
  for (const prop of meta.props) {
    if (prop.persist === false || !prop.fieldNames) continue;
    if (prop.kind === ReferenceKind.ONE_TO_MANY || prop.kind === ReferenceKind.MANY_TO_MANY) continue;
    if (prop.kind === ReferenceKind.ONE_TO_ONE && !prop.owner) continue;
    for (const name of prop.fieldNames) names.add(name);
  }
  userColumnList = [...names].map((name) => `u."${name}"`).join(', ');
  return userColumnList;
}

export async function readSessionWithUser(
  em: EntityManager,
  cookieHeader: string | null,
): Promise<{ sid: string; userId: string | null; userRow: Record<string, unknown> | null } | null> {
  if (!cookieHeader) return null;
  const { cookie } = await getCookieAndStorage();
  const sid: unknown = await cookie.parse(cookieHeader);
  // Only what newSessionId() makes is looked up (a signed cookie with a NUL byte made PostgreSQL fail).
  if (typeof sid !== 'string' || !SESSION_ID_PATTERN.test(sid)) return null;
  sessionReadStats.reads += 1;
  const rows = await queryPrepared<Record<string, unknown>>(
    em,
    `select s."sess" as "__session_sess", s."expire" as "__session_expire", ${userColumnsOf(em)}
       from "sessions" s left join "users" u
         -- The primary key's index, and no cast error should a row ever hold something else.
         on u."id" = case when s."sess"->>'userId' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then (s."sess"->>'userId')::uuid end
      where s."sid" = ? limit 1`,
    [sid],
  );
  const row = rows[0];
  if (!row) return null;
  const { __session_sess: sess, __session_expire: expire, ...userColumns } = row;
  const data = await keepAlive(em, sid, { sess: sess as Record<string, unknown>, expire: new Date(expire as string | Date) });
  if (!data) return null;
  const userId = typeof data.userId === 'string' && data.userId ? data.userId : null;
  return { sid, userId, userRow: userId && userColumns.id ? userColumns : null };
}

/**
 * The app's session storage. The cookie secret may come from a file that is
 * created on first use, so the real storage is built lazily; this object has
 * the same methods as any Remix SessionStorage.
 */
export const sessionStorage: AppSessionStorage = {
  async getSession(cookieHeader, options) {
    return (await getStorage()).getSession(cookieHeader, options);
  },
  async commitSession(session, options) {
    return (await getStorage()).commitSession(session, options);
  },
  async destroySession(session, options) {
    return (await getStorage()).destroySession(session, options);
  },
};

export function getSession(request: Request): Promise<AppSession> {
  return sessionStorage.getSession(request.headers.get('Cookie'));
}

export const commitSession = sessionStorage.commitSession;
export const destroySession = sessionStorage.destroySession;

/** For tests: a correctly signed session cookie (`name=value`) holding any id. */
export async function signedSessionCookieForTests(sid: string): Promise<string> {
  const { cookie } = await getCookieAndStorage();
  return (await cookie.serialize(sid)).split(';')[0];
}

/** For tests: forget the cached cookie (e.g. after changing SESSION_SECRET). */
export function resetSessionStorageForTests() {
  storagePromise = undefined;
  lastPurge = 0;
}

/**
 * Ends every session of a user except `keepSid` (password change keeps the
 * current one; reset and admin actions keep none). Runs on the given
 * EntityManager, so inside a transaction it commits with the change that
 * caused it. Returns how many sessions ended.
 */
export async function deleteUserSessions(em: EntityManager, userId: string, keepSid?: string | null): Promise<number> {
  const result = keepSid
    ? await em.execute(`delete from "sessions" where "sess"->>'userId' = ? and "sid" <> ?`, [userId, keepSid], 'run')
    : await em.execute(`delete from "sessions" where "sess"->>'userId' = ?`, [userId], 'run');
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}
