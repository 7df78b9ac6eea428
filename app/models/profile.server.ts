import { PendingUpload, User } from '../entities';
import { normalizeUploadedImage } from '../services/images.server';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { RequestContext, UserContext } from '../services/request-context.server';
import { getFileStore, isValidObjectKey, newObjectKey } from '../services/storage.server';
import { PROFILE_IMAGE_MAX_BYTES } from '../domain/limits';
import { profileImageErrorKeys } from '../domain/profile-image-upload';
import type { ChangePasswordInput, ProfileInput } from '../domain/auth-schemas';
import { fieldErrors, invalid, ok, rateLimited, type Failure, type Result } from '../domain/result';
import { cancelEmailChange, changePassword, updateProfile, type UpdateProfileResult } from './users.server';

/**
 * Profile operations for the signed-in user (the /profile page and
 * /api/profile*): always the context's own user, never an id from the input.
 */

export type SavedProfile = Extract<UpdateProfileResult, { ok: true }>;

/** Name and address; a changed address waits for its confirmation (users.server.ts), rate-limited. */
export async function saveProfile(ctx: UserContext, input: ProfileInput): Promise<Result<SavedProfile>> {
  const result = await updateProfile(ctx.em, ctx.user, input, { ip: ctx.ip });
  if (!result.ok && 'rateLimited' in result) return rateLimited(result.retryAfterSeconds);
  if (!result.ok) return fieldErrors({ ...result.errors, '': ['auth:messages.profileUpdateFailed'] }, { message: 'auth:messages.profileUpdateFailed' });
  return ok(result);
}

/** Withdraws a pending address change (the link mailed to it stops working). */
export async function cancelOwnEmailChange(ctx: UserContext): Promise<Result<{ user: User }>> {
  const result = await cancelEmailChange(ctx.em, ctx.user);
  return ok({ user: result.user });
}

/**
 * A new password after checking the current one; the user's other sessions
 * end, the one making the change stays. A wrong current password is a field
 * error on `currentPassword` with the code INVALID_PASSWORD (spec §7).
 */
export async function changeOwnPassword(
  ctx: UserContext,
  input: Pick<ChangePasswordInput, 'currentPassword' | 'newPassword'>,
): Promise<Result<undefined>> {
  const limit = await consumeRateLimit(ctx.em, 'currentPassword', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const result = await changePassword(ctx.em, ctx.user, input.currentPassword, input.newPassword, {
    keepSessionId: ctx.sessionId || null,
  });
  if (result.ok) return ok();
  if (result.code === 'INVALID_PASSWORD') {
    return fieldErrors({ currentPassword: ['auth:messages.invalidPassword'] }, { message: 'auth:messages.invalidPassword', code: 'INVALID_PASSWORD' });
  }
  return fieldErrors(
    { ...result.errors, '': ['auth:messages.passwordChangeFailed'] },
    { message: 'auth:messages.passwordChangeFailed' },
  );
}

// ---------------------------------------------------------------------------
// Profile picture. With JavaScript the browser runs the spec's upload flow
// (`requestProfileUploadUrl`, PUT to that address, `completeProfilePictureUpload`);
// without it the page posts the file (`changeProfilePicture`), which is where
// the upload flow ends too.

/** Upload addresses live 5 minutes; an upload not completed 10 minutes after that is deleted. */
const UPLOAD_URL_TTL_SECONDS = 300;
const UPLOAD_COMPLETION_GRACE_SECONDS = 600;
/** Uploads a user may have started and not completed at once (each up to 5 MB of unchecked bytes). */
const MAX_PENDING_UPLOADS = 3;

export type ProfileImageError = 'invalidAddress' | 'notUploaded' | 'tooLarge' | 'notAnImage' | 'wrongType' | 'tooManyPixels';
export type SavedPicture = { imageUrl: string; user: User };

/** A refused picture (400): the German reason, with the limit in MB for "too large", and the machine-readable `error`. */
export function refusedPicture(error: ProfileImageError): Failure {
  return invalid(profileImageErrorKeys[error], { params: { n: PROFILE_IMAGE_MAX_BYTES / 1024 / 1024 }, details: { error } });
}

/** The URL the app serves a stored image under (routes/_resources+/images.$.ts). */
function imageUrlForKey(key: string): string {
  return `/images/${key}`;
}

/** The object key behind one of our image URLs, or null. */
function keyFromImageUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const match = /^\/images\/(.+)$/.exec(url);
  return match && isValidObjectKey(match[1]) ? match[1] : null;
}

/** Object keys of a user's profile pictures (raw uploads and re-encoded ones) start with this. */
function profileKeyPrefix(userId: string): string {
  return `profile/${userId}/`;
}

/** A new, random key for a profile picture of this user: `profile/<userId>/<random>`. */
export function newProfileObjectKey(userId: string): string {
  return `${profileKeyPrefix(userId)}${newObjectKey('profile').slice('profile/'.length)}`;
}

/**
 * The object key of an upload address this user was given (query string
 * ignored, as the spec says), or null when the address is not one of theirs.
 */
function profileUploadKeyFromUrl(user: Pick<User, 'id'>, imageUrl: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(imageUrl, 'http://placeholder.invalid').pathname;
  } catch {
    return null;
  }
  const marker = `/${profileKeyPrefix(user.id)}`;
  const at = pathname.indexOf(marker);
  if (at < 0) return null;
  let key: string;
  try {
    key = decodeURIComponent(pathname.slice(at + 1));
  } catch {
    // A broken escape ("%", "%E0") is an address we never issued, not a server error.
    return null;
  }
  return isValidObjectKey(key) && key.startsWith(profileKeyPrefix(user.id)) && key.split('/').length === 3 ? key : null;
}

/**
 * Stores image bytes as the user's picture: the type is read from the bytes,
 * re-encoded to JPEG (metadata removed), at most 5 MB; the previous picture is
 * deleted. The page's form (no JavaScript) posts the file straight here.
 */
export async function changeProfilePicture(ctx: UserContext, bytes: Buffer): Promise<Result<SavedPicture>> {
  const normalized = await normalizeUploadedImage(bytes, { maxBytes: PROFILE_IMAGE_MAX_BYTES });
  if (!normalized.ok) return refusedPicture(normalized.error);
  const store = getFileStore();
  const key = newProfileObjectKey(ctx.user.id);
  await store.put(key, normalized.jpeg, 'image/jpeg');
  const managed = await ctx.em.findOneOrFail(User, { id: ctx.user.id });
  const previous = keyFromImageUrl(managed.profileImageUrl);
  managed.profileImageUrl = imageUrlForKey(key);
  await ctx.em.flush();
  ctx.user.profileImageUrl = managed.profileImageUrl;
  if (previous && previous !== key) await store.delete(previous).catch(() => undefined);
  return ok({ imageUrl: imageUrlForKey(key), user: ctx.user });
}

/**
 * An upload address for a profile picture (spec §7 `POST
 * /api/profile/upload-url`): rate-limited per user and IP, at most
 * `MAX_PENDING_UPLOADS` open at a time, and recorded so the cleanup job
 * (services/upload-cleanup.server.ts) deletes what is never completed.
 */
export async function requestProfileUploadUrl(ctx: UserContext): Promise<Result<{ uploadURL: string }>> {
  const { em, user, now } = ctx;
  // Quota first: a request refused by it does not count against the hourly limit.
  const open = await em.find(PendingUpload, { userId: user.id, kind: 'profile', expiresAt: { $gt: now } }, { orderBy: { expiresAt: 'asc' } });
  if (open.length >= MAX_PENDING_UPLOADS) {
    return rateLimited(Math.max(1, Math.ceil((open[0].expiresAt.getTime() - now.getTime()) / 1000)));
  }
  const limit = await consumeRateLimit(em, 'uploadUrl', { ip: ctx.ip, email: `user:${user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const key = newProfileObjectKey(user.id);
  const expiresAt = new Date(now.getTime() + (UPLOAD_URL_TTL_SECONDS + UPLOAD_COMPLETION_GRACE_SECONDS) * 1000);
  await em.insert(PendingUpload, { key, userId: user.id, kind: 'profile', expiresAt });
  return ok({ uploadURL: await getFileStore().presignPut(key, 'image/jpeg', UPLOAD_URL_TTL_SECONDS) });
}

/**
 * The completion step of the upload flow (spec §7 `PUT /api/profile/image`):
 * the address must be one this user was issued; the raw upload is read,
 * stored as the picture and deleted.
 */
export async function completeProfilePictureUpload(ctx: UserContext, input: { imageUrl: string }): Promise<Result<SavedPicture>> {
  const rawKey = profileUploadKeyFromUrl(ctx.user, input.imageUrl);
  if (!rawKey) return refusedPicture('invalidAddress');
  const store = getFileStore();
  const object = await store.get(rawKey);
  if (!object) return refusedPicture('notUploaded');
  try {
    return await changeProfilePicture(ctx, object.body);
  } finally {
    // Row first, then the bytes: a PUT to the upload address holds the row's lock while it
    // stores (storePendingProfileUpload), so it either finishes before this delete and its
    // bytes are deleted next, or it finds no row and stores nothing. No untracked file remains.
    await ctx.em.nativeDelete(PendingUpload, { key: rawKey });
    await store.delete(rawKey).catch(() => undefined);
  }
}

/**
 * Stores the bytes PUT to a profile upload address (routes/_resources+/uploads.$.ts),
 * only while the address's `pending_uploads` row exists: once the upload was completed
 * (or its completion failed) the row is gone, and bytes stored then would be tracked by
 * nothing, so the cleanup job would never delete them. The row stays locked while the
 * bytes are written, so a completion running at the same time waits for it.
 */
export async function storePendingProfileUpload(
  ctx: Pick<RequestContext, 'em'>,
  input: { key: string; body: Buffer; contentType: string },
): Promise<'stored' | 'notPending'> {
  return ctx.em.transactional(async (tx) => {
    const rows = await tx.execute<{ key: string }[]>(
      `select key from pending_uploads where key = ? and kind = 'profile' and expires_at > now() for update`,
      [input.key],
    );
    if (rows.length === 0) return 'notPending';
    await getFileStore().put(input.key, input.body, input.contentType);
    return 'stored';
  });
}
