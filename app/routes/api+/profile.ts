import type { ActionFunctionArgs } from '@remix-run/node';
import { profileSchema } from '~/models/auth-schemas';
import { toPublicUser, updateProfile } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { jsonResponse, methodNotAllowed, parseBody, validationErrorResponse } from '~/utils/api.server';
import { requireApiUser } from '~/utils/auth.server';
import { getServerT } from '~/i18n.server';

/**
 * PUT /api/profile { firstName, lastName, email } → { message, user }.
 * A changed address must be confirmed again (see app/models/users.server.ts).
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const em = await getEm();
  const user = await requireApiUser(request, em);
  const parsed = await parseBody(request, profileSchema);
  if (!parsed.ok) return parsed.response;

  const result = await updateProfile(em, user, parsed.data);
  if (!result.ok) return validationErrorResponse(result.errors, 'auth:messages.profileUpdateFailed');
  const t = await getServerT('auth');
  return jsonResponse({
    message: t(result.emailChanged ? 'auth:messages.profileUpdatedVerify' : 'auth:messages.profileUpdated'),
    emailChanged: result.emailChanged,
    user: toPublicUser(result.user),
  });
}
