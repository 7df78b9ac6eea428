import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../mikro-orm.config';

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
  return (await getOrm()).em.fork();
}

/** True when the database answers a trivial query within the timeout. */
export async function isDatabaseHealthy(timeoutMs = 2000): Promise<boolean> {
  try {
    const orm = await withTimeout(getOrm(), timeoutMs);
    await withTimeout(orm.em.getConnection().execute('select 1'), timeoutMs);
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
