import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../mikro-orm.config';
import authMessages from '../../public/locales/de/auth.json';

declare global {
  // Survives dev-server module reloads so we do not open a pool per edit.
  var __druckpreisOrm: Promise<MikroORM> | undefined;
}

function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (scripts/start.ts sets it for the embedded database)');
  return url;
}

export function getOrm(): Promise<MikroORM> {
  if (!globalThis.__druckpreisOrm) {
    const orm = MikroORM.init({ ...createOrmConfig(databaseUrl()), pool: { min: 0, max: 10 } });
    // A database that is down at the first request must not poison every later one.
    orm.catch(() => {
      if (globalThis.__druckpreisOrm === orm) globalThis.__druckpreisOrm = undefined;
    });
    globalThis.__druckpreisOrm = orm;
  }
  return globalThis.__druckpreisOrm;
}

/** A fresh EntityManager fork: take one per request and pass it down to models/. */
export async function getEm(): Promise<EntityManager> {
  let orm: MikroORM;
  try {
    orm = await getOrm();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw serviceUnavailableResponse();
    throw error;
  }
  // After a request failed for want of a database, check before the next one fails the same way
  // (a JSON route would answer 500; this answers 503 until the database is back).
  if (lastFailure && !(await isDatabaseHealthy(1000))) throw serviceUnavailableResponse();
  lastFailure = 0;
  return orm.em.fork();
}

let lastFailure = 0;

/** Remembers that a request failed because the database was unreachable (entry.server's handleError). */
export function noteDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  lastFailure = Date.now();
  return true;
}

/** Seconds a client is asked to wait while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

/** 503 with Retry-After and a German text; loaders and the JSON API throw it, pages show the error page. */
export function serviceUnavailableResponse(): Response {
  return new Response(authMessages.messages.serviceUnavailable, {
    status: 503,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
  });
}

// node-postgres / PostgreSQL codes that mean "no database right now", not "bad query".
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE',
  '57P01', '57P02', '57P03', '3D000', '08000', '08001', '08003', '08004', '08006',
]);

/** True for errors that mean the database cannot be reached (an outage), as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Knex: Timeout acquiring a connection/i.test(message)) return true;
    current = cause;
  }
  return false;
}

/** True when the database answers a trivial query within the timeout. */
export async function isDatabaseHealthy(timeoutMs = 2000): Promise<boolean> {
  try {
    const orm = await withTimeout(getOrm(), timeoutMs);
    await withTimeout(orm.em.getConnection().execute('select 1'), timeoutMs);
    lastFailure = 0;
    return true;
  } catch {
    return false;
  }
}

export async function closeOrm() {
  const orm = globalThis.__druckpreisOrm;
  globalThis.__druckpreisOrm = undefined;
  if (orm) await (await orm).close(true);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });
}
