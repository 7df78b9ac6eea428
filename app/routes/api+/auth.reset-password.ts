import type { ActionFunctionArgs } from '@remix-run/node';
import { resetPasswordSchema } from '~/models/auth-schemas';
import { resetPassword } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { messageResponse, methodNotAllowed, readBody, validationErrorResponse, zodFieldErrors, malformedBodyResponse } from '~/utils/api.server';

/**
 * POST /api/auth/reset-password { token, password, confirmPassword } → { message }.
 * The token works once within 1 h; success ends all of the user's sessions.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const raw = await readBody(request);
  if (!raw) return malformedBodyResponse();
  const parsed = resetPasswordSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    // Without a token there is nothing to fix in the form: the link is broken.
    if (errors.token) return messageResponse('auth:messages.resetInvalid', 400);
    return validationErrorResponse(errors);
  }

  const result = await resetPassword(await getEm(), parsed.data.token, parsed.data.password);
  if (result.ok) return messageResponse('auth:messages.resetSuccess', 200);
  if (result.reason === 'weakPassword') return validationErrorResponse(result.errors);
  return messageResponse('auth:messages.resetInvalid', 400);
}
