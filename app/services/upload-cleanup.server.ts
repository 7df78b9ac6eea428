import type { EntityManager } from '@mikro-orm/postgresql';
import { getOrm } from './db.server';
import { getFileStore } from './storage.server';

/**
 * Deletes uploads whose address was handed out but never completed (their
 * bytes were never checked, and nothing serves them). Safe on several
 * instances: each run claims due rows with FOR UPDATE SKIP LOCKED inside one
 * transaction, deletes the objects, then the rows; a crash leaves the rows
 * for the next run.
 */
export async function deleteAbandonedUploads(options: { em?: EntityManager; limit?: number } = {}): Promise<number> {
  const em = options.em ?? (await getOrm()).em.fork();
  const store = getFileStore();
  return em.transactional(async (tx) => {
    const rows: { key: string }[] = await tx.execute(
      `select key from pending_uploads where expires_at <= now() order by expires_at limit ? for update skip locked`,
      [options.limit ?? 100],
    );
    for (const row of rows) await store.delete(row.key);
    if (rows.length > 0) {
      await tx.execute(`delete from pending_uploads where key in (${rows.map(() => '?').join(', ')})`, rows.map((row) => row.key));
    }
    return rows.length;
  });
}

const CLEANUP_INTERVAL_MS = 5 * 60 * 1000;

/** Runs the cleanup every 5 minutes in this process (every instance may; the claims keep them apart). */
export function startUploadCleanup(): () => void {
  let lastErrorLog = 0;
  const run = () =>
    deleteAbandonedUploads().catch((error) => {
      if (Date.now() - lastErrorLog < 60_000) return;
      lastErrorLog = Date.now();
      console.error('[uploads] cleanup:', error instanceof Error ? error.message : error);
    });
  const timer = setInterval(() => void run(), CLEANUP_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
