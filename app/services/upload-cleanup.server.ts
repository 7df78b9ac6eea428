import type { EntityManager } from '@mikro-orm/postgresql';
import { productImagePathOf } from '../domain/product-images';
import { getEnv } from '~/lib/env.server';
import { getOrm } from './db.server';
import { getFileStore, type FileStore } from './storage.server';

/** Rows claimed per transaction: keeps the row locks (and a save waiting on one) short. */
const BATCH_SIZE = 100;

/**
 * Deletes the objects of pending uploads that are due (`pending_uploads`,
 * see entities/pending-upload.entity.ts): profile picture uploads never
 * completed (15 minutes) and product images never saved with a project
 * (a day). Returns how many rows were claimed.
 *
 * Safe on several instances: each run claims due rows with FOR UPDATE SKIP
 * LOCKED inside one transaction, deletes the objects, then the rows; a crash
 * leaves the rows for the next run, and two runs never claim the same row.
 *
 * Never deletes an image a project shows. A project save takes the image's
 * row out of the list in the same transaction as the project write
 * (models/product-images.server.ts): a save that got there first holds the
 * row's lock, so this run skips it; a save that comes while this run holds
 * the claim waits for it, then finds the file gone and saves the project
 * without the image. As a second line, a claimed row whose path a project
 * references (written by some other way) is dropped without its file.
 *
 * `now` (default: the database's clock) lets tests run the job a day later.
 */
export async function deleteAbandonedUploads(options: { em?: EntityManager; limit?: number; now?: Date; store?: FileStore } = {}): Promise<number> {
  const em = options.em ?? (await getOrm()).em.fork();
  const store = options.store ?? getFileStore();
  return em.transactional(async (tx) => {
    const rows: { key: string; kind: string }[] = await tx.execute(
      `select key, kind from pending_uploads where expires_at <= coalesce(?::timestamptz, now()) order by expires_at limit ? for update skip locked`,
      [options.now ?? null, options.limit ?? BATCH_SIZE],
    );
    if (rows.length === 0) return 0;
    const productPaths = rows.filter((row) => row.kind === 'product').map((row) => productImagePathOf(row.key));
    const referenced = new Set(
      productPaths.length === 0
        ? []
        : (
            await tx.execute<{ path: string }[]>(
              `select distinct product_image_path as path from projects where product_image_path in (${productPaths.map(() => '?').join(', ')})`,
              productPaths,
            )
          ).map((row) => row.path),
    );
    for (const row of rows) {
      if (row.kind === 'product' && referenced.has(productImagePathOf(row.key))) continue;
      await store.delete(row.key);
    }
    await tx.execute(`delete from pending_uploads where key in (${rows.map(() => '?').join(', ')})`, rows.map((row) => row.key));
    return rows.length;
  });
}

/** Batches per run at most: a backlog is worked off over a few runs without one run hogging a connection. */
const MAX_BATCHES_PER_RUN = 20;

/**
 * Runs the cleanup every UPLOAD_CLEANUP_INTERVAL_SECONDS (5 minutes) in this process
 * (every instance may; the claims keep them apart).
 */
export function startUploadCleanup(): () => void {
  let lastErrorLog = 0;
  const run = async () => {
    try {
      for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
        if ((await deleteAbandonedUploads()) < BATCH_SIZE) break;
      }
    } catch (error) {
      if (Date.now() - lastErrorLog < 60_000) return;
      lastErrorLog = Date.now();
      console.error('[uploads] cleanup:', error instanceof Error ? error.message : error);
    }
  };
  const timer = setInterval(() => void run(), getEnv().UPLOAD_CLEANUP_INTERVAL_SECONDS * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
