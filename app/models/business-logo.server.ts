import crypto from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { BusinessDetails } from '../entities';
import { normalizeUploadedImage, type ImageError } from '../services/images.server';
import type { UserContext } from '../services/request-context.server';
import { getFileStore } from '../services/storage.server';
import { BUSINESS_LOGO_MAX_BYTES, BUSINESS_LOGO_MAX_PIXELS } from '../domain/limits';
import { consumeRateLimit } from '../services/rate-limit.server';
import { logoPathOf, parseLogoPath } from '../domain/quotes';
import { invalid, ok, rateLimited, tooLarge, type Failure, type Result } from '../domain/result';

/**
 * The seller's logo on quotes (issue 26 §1): the profile picture's pipeline
 * (JPEG or PNG by their first bytes, pixel limit, re-encoded to a plain JPEG
 * without metadata), at most BUSINESS_LOGO_MAX_BYTES, scaled to LOGO_MAX_EDGE.
 *
 * A quote is a snapshot and keeps the logo path it was saved with, so a stored
 * logo never changes: each upload gets a new key, and a replaced or removed
 * logo's file is deleted only when no quote shows it. Served to its owner only
 * (models/image-access.server.ts).
 */

/** Long edge in pixels: 50 × 20 mm on the PDF at 300 dpi is about 600 × 240; a little more for crisp screens. */
export const LOGO_MAX_EDGE = 800;

const ERROR_KEYS: Record<ImageError, string> = {
  tooLarge: 'quotes:logo.tooLarge',
  wrongType: 'quotes:logo.wrongType',
  notAnImage: 'quotes:logo.wrongType',
  tooManyPixels: 'quotes:logo.tooManyPixels',
};

const MAX_MB = BUSINESS_LOGO_MAX_BYTES / 1024 / 1024;

/** A refused logo: 413 when too large, else 400, with the German reason. */
export function refusedLogo(error: ImageError): Failure {
  return error === 'tooLarge' ? tooLarge(ERROR_KEYS.tooLarge) : invalid(ERROR_KEYS[error], { params: { n: MAX_MB, mp: BUSINESS_LOGO_MAX_PIXELS / 1_000_000 }, details: { error } });
}

export async function uploadBusinessLogo(ctx: UserContext, bytes: Buffer): Promise<Result<{ logoPath: string }>> {
  const details = await ctx.em.findOne(BusinessDetails, { user: ctx.user.id });
  // The logo belongs to the business details, which need a name and an address first.
  if (!details) return invalid('quotes:logo.detailsFirst');
  // Each upload decodes an image and stores a file: capped per seller and IP (RATE_LIMIT_RULES.logoUpload).
  const limit = await consumeRateLimit(ctx.em, 'logoUpload', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds, 'quotes:logo.rateLimited');
  const normalized = await normalizeUploadedImage(bytes, { maxBytes: BUSINESS_LOGO_MAX_BYTES, maxEdge: LOGO_MAX_EDGE, maxPixels: BUSINESS_LOGO_MAX_PIXELS });
  if (!normalized.ok) return refusedLogo(normalized.error);
  const key = `logo/${ctx.user.id}/${crypto.randomBytes(16).toString('hex')}`;
  const store = getFileStore();
  await store.put(key, normalized.jpeg, 'image/jpeg');
  let swapped: { previous: string | null; logoPath: string } | null;
  try {
    // Parallel uploads queue on the business details' row (SELECT … FOR UPDATE, read afresh): each
    // replaces and releases the logo the one before it stored, so none is left behind unreferenced.
    swapped = await ctx.em.transactional(async (em) => {
      const row = await lockDetails(em, ctx.user.id);
      if (!row) return null;
      const previous = row.logoPath ?? null;
      row.logoPath = logoPathOf(key);
      await em.flush();
      return { previous, logoPath: row.logoPath };
    });
  } catch (error) {
    await store.delete(key).catch(() => undefined);
    throw error;
  }
  // The business details went meanwhile (the account was deleted): the new file goes too.
  if (!swapped) {
    await store.delete(key).catch(() => undefined);
    return invalid('quotes:logo.detailsFirst');
  }
  if (swapped.previous) await releaseLogo(ctx.em, swapped.previous, ctx.user.id);
  return ok({ logoPath: swapped.logoPath });
}

/** The user's business details, locked until the transaction ends (uploads and removals of the logo queue on it). */
async function lockDetails(em: EntityManager, userId: string): Promise<BusinessDetails | null> {
  return em.findOne(BusinessDetails, { user: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

export async function removeBusinessLogo(ctx: UserContext): Promise<Result<{ removed: boolean }>> {
  const previous = await ctx.em.transactional(async (em) => {
    const row = await lockDetails(em, ctx.user.id);
    const logo = row?.logoPath ?? null;
    if (!row || !logo) return null;
    row.logoPath = null;
    await em.flush();
    return logo;
  });
  if (!previous) return ok({ removed: false });
  await releaseLogo(ctx.em, previous, ctx.user.id);
  return ok({ removed: true });
}

/** Deletes a logo's file unless the business details or a quote still show it. */
export async function releaseLogo(em: EntityManager, path: string, ownerId: string): Promise<void> {
  const parsed = parseLogoPath(path);
  if (!parsed || parsed.ownerId !== ownerId) return;
  const [{ used }] = await em.execute<{ used: string }[]>(
    `select (select count(*) from business_details where logo_path = ?) + (select count(*) from quotes where user_id = ? and seller->>'logoPath' = ?) as used`,
    [path, ownerId, path],
  );
  if (Number(used) > 0) return;
  await getFileStore()
    .delete(parsed.key)
    .catch((error) => console.error(`[quotes] logo ${parsed.key} not deleted: ${error instanceof Error ? error.message : error}`));
}

/** The logo's bytes for a quote's PDF, or null (no logo, not this seller's, or gone from the store: the PDF is made without it). */
export async function logoBytes(path: string | null | undefined, ownerId: string): Promise<Buffer | null> {
  const parsed = parseLogoPath(path);
  if (!parsed || parsed.ownerId !== ownerId) return null;
  const object = await getFileStore()
    .get(parsed.key)
    .catch(() => null);
  return object && object.contentType === 'image/jpeg' ? object.body : null;
}

/** The storage keys of every logo of a user (business details and quotes), for the account deletion. */
export async function logoKeysOfUser(em: EntityManager, userId: string): Promise<string[]> {
  const rows = await em.execute<{ path: string }[]>(
    `select logo_path as path from business_details where user_id = ? and logo_path is not null
     union select seller->>'logoPath' as path from quotes where user_id = ? and seller->>'logoPath' is not null`,
    [userId, userId],
  );
  return rows.map((row) => parseLogoPath(row.path)).filter((parsed) => parsed?.ownerId === userId).map((parsed) => parsed!.key);
}
