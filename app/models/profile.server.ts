import type { UserContext } from '../services/request-context.server';
import type { ChangePasswordInput, ProfileInput } from './auth-schemas';
import { fieldErrors, ok, type Result } from './result';
import { changePassword, updateProfile, type UpdateProfileResult } from './users.server';

/**
 * Profile operations for the signed-in user (the /profile page and
 * /api/profile*): always the context's own user, never an id from the input.
 */

export type SavedProfile = Extract<UpdateProfileResult, { ok: true }>;

/** Name and address; a changed address must be confirmed again (users.server.ts). */
export async function saveProfile(ctx: UserContext, input: ProfileInput): Promise<Result<SavedProfile>> {
  const result = await updateProfile(ctx.em, ctx.user, input);
  if (!result.ok) return fieldErrors({ ...result.errors, '': ['auth:messages.profileUpdateFailed'] }, { message: 'auth:messages.profileUpdateFailed' });
  return ok(result);
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
