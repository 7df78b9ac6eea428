import type { ActionFunctionArgs } from '@remix-run/node';
import { profileSchema } from '~/domain/auth-schemas';
import { saveProfile } from '~/models/profile.server';
import { deleteOwnAccount } from '~/models/account-self-service.server';
import { endSession } from '~/services/auth.server';
import { toPublicUser } from '~/models/users.server';
import { getServerT } from '~/i18n.server';
import { requireApiUserContext } from '~/services/auth.server';
import { z } from 'zod';
import { methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The methods here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['PUT', 'DELETE'] as const;

/**
 * PUT /api/profile { firstName, lastName, email } → { message, emailChanged, user }.
 * A changed address must be confirmed again (see app/models/users.server.ts).
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method === 'DELETE') return deleteProfile(args);
  if (args.request.method !== 'PUT') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const parsed = await parseBody(args.request, profileSchema);
  if (!parsed.ok) return parsed.response;
  const result = await saveProfile(ctx, parsed.data);
  const t = await getServerT('auth');
  return apiResult(result, ({ user, emailChanged }) => ({
    message: t(emailChanged ? 'auth:messages.profileUpdatedVerify' : 'auth:messages.profileUpdated'),
    emailChanged,
    user: toPublicUser(user),
  }));
}

const deleteAccountSchema = z.object({
  currentPassword: z.string({ error: 'auth:errors.currentPasswordRequired' }).min(1, 'auth:errors.currentPasswordRequired').max(1024, 'auth:errors.passwordTooLong'),
});

/**
 * DELETE /api/profile { currentPassword } → `{ message }`: the account and
 * everything it owns (app/models/account-deletion.server.ts); the session
 * cookie is cleared. Wrong password: 400 `{ code: 'INVALID_PASSWORD' }`.
 */
async function deleteProfile(args: ActionFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  const parsed = await parseBody(args.request, deleteAccountSchema);
  if (!parsed.ok) return parsed.response;
  const t = await getServerT('admin');
  return apiResult(await deleteOwnAccount(ctx, parsed.data), async () =>
    Response.json({ message: t('ownAccount.deleted') }, { headers: { 'Set-Cookie': await endSession(args.request), 'Cache-Control': 'no-store' } }),
  );
}
