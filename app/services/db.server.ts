import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../mikro-orm.config';
import { isDatabaseUnavailable, serviceUnavailableResponse } from './database-outage.server';

export { isDatabaseUnavailable, serviceUnavailableResponse, UNAVAILABLE_RETRY_AFTER_SECONDS } from './database-outage.server';

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

/**
 * A fresh EntityManager fork: take one per request and pass it down to models/.
 * `checkHealth: false` skips the outage check (a visitor's page that may need
 * no query at all, like the calculator, keeps being served while the database
 * is down; a query it does run fails and is answered with the 503).
 */
export async function getEm({ checkHealth = true }: { checkHealth?: boolean } = {}): Promise<EntityManager> {
  let orm: MikroORM;
  try {
    orm = await getOrm();
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw serviceUnavailableResponse();
    throw error;
  }
  // After a request failed for want of a database, check before the next one fails the same way
  // (503 until the database is back; resource routes turn it into their own format, database-outage.server.ts).
  if (lastFailure && checkHealth) {
    if (!(await isDatabaseHealthy(1000))) throw serviceUnavailableResponse();
    lastFailure = 0;
  }
  return orm.em.fork();
}

let lastFailure = 0;

/** Remembers that a request failed because the database was unreachable (entry.server's handleError). */
export function noteDatabaseFailure(error: unknown): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  lastFailure = Date.now();
  return true;
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
