import type { UserContext } from '../services/request-context.server';
import type { ChangePasswordInput, ProfileInput } from './auth-schemas';
import type { User } from '../entities';
import { fieldErrors, ok, rateLimited, type Result } from './result';
import { cancelEmailChange, changePassword, issueProfileUploadUrl, updateProfile, type UpdateProfileResult } from './users.server';

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

/** An upload address for a profile picture: rate-limited, at most a few open at once. */
export async function requestProfileUploadUrl(ctx: UserContext): Promise<Result<{ uploadURL: string }>> {
  const result = await issueProfileUploadUrl(ctx.em, ctx.user, { ip: ctx.ip });
  if (!result.ok) return rateLimited(result.retryAfterSeconds);
  return ok({ uploadURL: result.uploadURL });
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
