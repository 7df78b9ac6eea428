import type { ActionFunctionArgs } from '@remix-run/node';
import { changePasswordSchema } from '~/models/auth-schemas';
import { changePassword } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { messageResponse, methodNotAllowed, parseBody, validationErrorResponse } from '~/utils/api.server';
import { getSessionId, requireApiUser } from '~/utils/auth.server';

/**
 * PUT /api/profile/password { currentPassword, newPassword, confirmPassword } → { message }.
 * A wrong current password: 400 `{ code: 'INVALID_PASSWORD', message }`.
 * Success ends the user's other sessions; this one stays.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const em = await getEm();
  const user = await requireApiUser(request, em);
  const parsed = await parseBody(request, changePasswordSchema);
  if (!parsed.ok) return parsed.response;

  const result = await changePassword(em, user, parsed.data.currentPassword, parsed.data.newPassword, {
    keepSessionId: await getSessionId(request),
  });
  if (result.ok) return messageResponse('auth:messages.passwordChanged', 200);
  if (result.code === 'INVALID_PASSWORD') {
    return messageResponse('auth:messages.invalidPassword', 400, { code: 'INVALID_PASSWORD' });
  }
  return validationErrorResponse(result.errors, 'auth:messages.passwordChangeFailed');
}
