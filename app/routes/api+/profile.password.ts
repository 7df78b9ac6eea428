import type { ActionFunctionArgs } from '@remix-run/node';
import { changePasswordSchema } from '~/domain/auth-schemas';
import { changeOwnPassword } from '~/models/profile.server';
import { requireApiUserContext } from '~/services/auth.server';
import { messageResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['PUT'] as const;

/**
 * PUT /api/profile/password { currentPassword, newPassword, confirmPassword } → { message }.
 * A wrong current password: 400 `{ code: 'INVALID_PASSWORD', message }`.
 * Success ends the user's other sessions; this one stays.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'PUT') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const parsed = await parseBody(args.request, changePasswordSchema);
  if (!parsed.ok) return parsed.response;
  const result = await changeOwnPassword(ctx, parsed.data);
  return apiResult(result, () => messageResponse('auth:messages.passwordChanged', 200));
}
