import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PendingUpload, Project } from '../entities';
import type { UserContext } from '../services/request-context.server';
import { normalizeUploadedImage } from '../services/images.server';
import { getFileStore } from '../services/storage.server';
import { PRODUCT_IMAGE_MAX_BYTES } from '../domain/limits';
import { parseProductImagePath, productImagePathOf } from '../domain/product-images';
import { fieldErrors, ok, rateLimited, type Result } from '../domain/result';

/**
 * Product image uploads: the bytes are checked and re-encoded by the profile
 * picture's pipeline (JPEG/PNG by their first bytes, pixel limit, no
 * metadata) and stored under a key that names the owner.
 *
 * Life of an upload: it is stored together with a `pending_uploads` row
 * (kind `product`). A project save that accepts the path deletes that row in
 * the same transaction as the project write; an upload still pending after
 * `PRODUCT_UPLOAD_TTL_MS` is deleted by the cleanup job
 * (services/upload-cleanup.server.ts). A project saved without its image, or
 * deleted, deletes the file at once (`releaseProductImage`).
 */

const ERROR_KEYS = {
  tooLarge: 'projects:image.tooLarge',
  wrongType: 'projects:image.wrongType',
  notAnImage: 'projects:image.wrongType',
  tooManyPixels: 'projects:image.tooManyPixels',
} as const;

/** An upload never saved with a project is deleted after a day (issue 12 §4). */
export const PRODUCT_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * Product images a user may have uploaded and not saved with a project (each
 * up to 10 MB, kept a day). Saving one with a project, or removing it in the
 * calculator without JavaScript, frees its place.
 */
export const MAX_PENDING_PRODUCT_IMAGES = 20;

export async function uploadProductImage(ctx: UserContext, bytes: Buffer): Promise<Result<{ imagePath: string }>> {
  const normalized = await normalizeUploadedImage(bytes, { maxBytes: PRODUCT_IMAGE_MAX_BYTES });
  if (!normalized.ok) return fieldErrors({ image: [ERROR_KEYS[normalized.error]] }, { message: ERROR_KEYS[normalized.error] });
  const key = `product/${ctx.user.id}/${crypto.randomBytes(16).toString('hex')}`;
  // The row first: a crash before or during the write leaves a row the job clears, never an untracked file.
  const retryAfterSeconds = await ctx.em.transactional(async (em) => {
    // The user's row lock makes parallel uploads count one after another (never past the quota).
    await em.execute('select 1 from "users" where "id" = ? for update', [ctx.user.id]);
    const open = await em.find(
      PendingUpload,
      { userId: ctx.user.id, kind: 'product', expiresAt: { $gt: ctx.now } },
      { orderBy: { expiresAt: 'asc' }, limit: MAX_PENDING_PRODUCT_IMAGES, fields: ['expiresAt'] },
    );
    if (open.length >= MAX_PENDING_PRODUCT_IMAGES) return Math.max(1, Math.ceil((open[0].expiresAt.getTime() - ctx.now.getTime()) / 1000));
    await em.insert(PendingUpload, { key, userId: ctx.user.id, kind: 'product', createdAt: ctx.now, expiresAt: new Date(ctx.now.getTime() + PRODUCT_UPLOAD_TTL_MS) });
    return 0;
  });
  // The only limit on image uploads is the number of unsaved ones; it says so rather than "too many attempts".
  if (retryAfterSeconds > 0) return rateLimited(retryAfterSeconds, 'projects:image.tooManyPending');
  await getFileStore().put(key, normalized.jpeg, 'image/jpeg');
  return ok({ imagePath: productImagePathOf(key) });
}

/** A save accepting an image and a release of it run one after another (lock held until the transaction ends). */
async function lockImage(em: EntityManager, key: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`product-image:${key}`]);
}

/**
 * The image a save may keep: the project's current one, or an upload of this
 * user that exists in the store. Anything else (another user's image, a
 * made-up path, an upload the cleanup has deleted) is dropped, never stored.
 *
 * Must run inside the transaction that writes the project: an accepted upload
 * leaves the pending list in that transaction, so it cannot be committed as
 * saved and still be marked abandoned (or the other way round). The row is
 * deleted before the file is looked up: if a cleanup run has claimed the row,
 * the delete waits for that run, and the lookup then sees the file gone.
 */
export async function acceptProductImage(em: EntityManager, userId: string, path: string | null, current: string | null): Promise<string | null> {
  if (!path) return null;
  if (path === current) return path;
  const parsed = parseProductImagePath(path);
  if (!parsed || parsed.ownerId !== userId) return null;
  await lockImage(em, parsed.key);
  await em.nativeDelete(PendingUpload, { key: parsed.key, userId });
  return (await getFileStore().get(parsed.key)) ? path : null;
}

/**
 * Deletes a product image from the store unless a project still shows it
 * (and, given an owner, only theirs); an upload not yet saved leaves the
 * pending list (and its owner's quota) with it.
 */
export async function releaseProductImage(em: EntityManager, path: string, ownerId?: string): Promise<void> {
  const parsed = parseProductImagePath(path);
  if (!parsed || (ownerId !== undefined && parsed.ownerId !== ownerId)) return;
  await em.transactional(async (tx) => {
    // A save accepting the same image either committed before (counted below) or waits and then finds it gone.
    await lockImage(tx, parsed.key);
    await tx.nativeDelete(PendingUpload, { key: parsed.key });
    if ((await tx.count(Project, { productImagePath: path })) > 0) return;
    await getFileStore().delete(parsed.key);
  });
}
