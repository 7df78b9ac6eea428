import type { ActionFunctionArgs } from '@remix-run/node';
import { profileSchema } from '~/domain/auth-schemas';
import { saveProfile } from '~/models/profile.server';
import { toPublicUser } from '~/models/users.server';
import { getServerT } from '~/i18n.server';
import { requireApiUserContext } from '~/services/auth.server';
import { methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['PUT'] as const;

/**
 * PUT /api/profile { firstName, lastName, email } → { message, emailChanged, user }.
 * A changed address must be confirmed again (see app/models/users.server.ts).
 */
export async function action(args: ActionFunctionArgs) {
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
