import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../entities';
import type { UserContext } from '../services/request-context.server';
import { normalizeUploadedImage } from '../services/images.server';
import { getFileStore } from '../services/storage.server';
import { parseProductImagePath, PRODUCT_IMAGE_MAX_BYTES, productImagePathOf } from './product-images';
import { fieldErrors, ok, type Result } from './result';

/**
 * Product image uploads: the bytes are checked and re-encoded by the profile
 * picture's pipeline (JPEG/PNG by their first bytes, pixel limit, no
 * metadata) and stored under a key that names the owner.
 */

const ERROR_KEYS = {
  tooLarge: 'projects:image.tooLarge',
  wrongType: 'projects:image.wrongType',
  notAnImage: 'projects:image.wrongType',
  tooManyPixels: 'projects:image.tooManyPixels',
} as const;

export async function uploadProductImage(ctx: UserContext, bytes: Buffer): Promise<Result<{ imagePath: string }>> {
  const normalized = await normalizeUploadedImage(bytes, { maxBytes: PRODUCT_IMAGE_MAX_BYTES });
  if (!normalized.ok) return fieldErrors({ image: [ERROR_KEYS[normalized.error]] }, { message: ERROR_KEYS[normalized.error] });
  const key = `product/${ctx.user.id}/${crypto.randomBytes(16).toString('hex')}`;
  await getFileStore().put(key, normalized.jpeg, 'image/jpeg');
  return ok({ imagePath: productImagePathOf(key) });
}

/**
 * The image a save may keep: the project's current one, or an upload of this
 * user that exists in the store. Anything else (another user's image, a made-up
 * path) is dropped, never stored.
 */
export async function acceptableProductImage(userId: string, path: string | null, current: string | null): Promise<string | null> {
  if (!path) return null;
  if (path === current) return path;
  const parsed = parseProductImagePath(path);
  if (!parsed || parsed.ownerId !== userId) return null;
  return (await getFileStore().get(parsed.key)) ? path : null;
}

/** Deletes a product image from the store unless a project still shows it (and, given an owner, only theirs). */
export async function releaseProductImage(em: EntityManager, path: string, ownerId?: string): Promise<void> {
  const parsed = parseProductImagePath(path);
  if (!parsed || (ownerId !== undefined && parsed.ownerId !== ownerId)) return;
  if ((await em.count(Project, { productImagePath: path })) > 0) return;
  await getFileStore().delete(parsed.key);
}
