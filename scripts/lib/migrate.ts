import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../mikro-orm.config';
import { storeMissingProjectPrices } from '../../app/models/project-prices.server';

/**
 * The PostgreSQL advisory lock every instance takes around its migrations
 * (one bigint; any constant works as long as all instances use the same).
 * Several instances starting at once (a deploy of N replicas) would otherwise
 * all see the same pending migrations and apply them twice.
 */
export const MIGRATION_LOCK_KEY = 4_711_202_611_260_022n;

type LockConnection = { query: (sql: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };

/**
 * Applies every pending migration in prisma-free-migrations/; returns their names.
 * Holds MIGRATION_LOCK_KEY meanwhile: a second instance waits here until the
 * first has finished, then finds nothing pending. The lock is a session lock
 * on a connection of its own, so a migrator that dies releases it with its
 * connection.
 */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  // Migrations are plain SQL; no entity discovery needed (and none loaded twice
  // next to the bundled server's copies).
  const orm = await MikroORM.init({
    ...createOrmConfig(databaseUrl),
    entities: [],
    discovery: { warnWhenNoEntities: false, requireEntitiesArray: false },
  });
  const knexClient = orm.em.getConnection().getKnex().client;
  let lock: LockConnection | undefined;
  try {
    lock = (await knexClient.acquireConnection()) as LockConnection;
    const key = String(MIGRATION_LOCK_KEY);
    const { rows } = await lock.query('select pg_try_advisory_lock($1::bigint) as locked', [key]);
    if (!rows[0]?.locked) {
      console.log('[start] another instance is applying migrations; waiting for it to finish');
      await lock.query('select pg_advisory_lock($1::bigint)', [key]);
    }
    try {
      const applied = await orm.getMigrator().up();
      await storeMissingPrices(databaseUrl);
      return applied.map((migration) => migration.name);
    } finally {
      await lock.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
    }
  } finally {
    if (lock) await knexClient.releaseConnection(lock);
    await orm.close(true);
  }
}

/**
 * The one-off step after the migrations: the engine's figures of projects saved before they
 * were stored (app/models/project-prices.server.ts says why not in the migration). Still under
 * the migration lock, so two starting instances do not price the same rows.
 */
async function storeMissingPrices(databaseUrl: string): Promise<void> {
  const orm = await MikroORM.init(createOrmConfig(databaseUrl));
  try {
    const priced = await storeMissingProjectPrices(orm.em.fork());
    if (priced > 0) console.log(`[start] stored the prices of ${priced} projects`);
  } finally {
    await orm.close(true);
  }
}
