import path from 'node:path';
import type { Env } from '../../app/lib/env.server';
import { startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './migrate';

/**
 * Uses DATABASE_URL when set; otherwise starts the embedded PostgreSQL and
 * points DATABASE_URL at it (`supervise`: and restarts it when it dies).
 * Applies pending migrations either way.
 */
export async function prepareDatabase(env: Env, { supervise = false }: { supervise?: boolean } = {}): Promise<{ stop: () => Promise<void> }> {
  let stop = async () => {};
  if (!env.DATABASE_URL) {
    const db = await startEmbeddedPostgres({
      dataDir: path.join(env.DATA_DIR, 'postgres'),
      port: env.EMBEDDED_POSTGRES_PORT,
      database: 'druckpreis',
      // A long-running server brings its database back when it dies (scripts/lib/embedded-postgres.ts).
      supervise,
    });
    process.env.DATABASE_URL = db.url;
    stop = db.stop;
    console.log(`[start] embedded PostgreSQL on 127.0.0.1:${env.EMBEDDED_POSTGRES_PORT} (data in ${env.DATA_DIR}/postgres)`);
  }
  const applied = await runMigrations(process.env.DATABASE_URL!);
  if (applied.length) console.log(`[start] applied migrations: ${applied.join(', ')}`);
  return { stop };
}
