import type { ActionFunctionArgs } from '@remix-run/node';
import { invalidResetLink, resetPasswordWithToken } from '~/models/accounts.server';
import { resetPasswordSchema } from '~/domain/auth-schemas';
import { getRequestContext } from '~/services/request-context.server';
import { malformedBodyResponse, messageResponse, methodNotAllowed, readBody, validationErrorResponse, zodFieldErrors } from '~/web/api.server';
import { apiFailure, apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/auth/reset-password { token, password, confirmPassword } → { message }.
 * The token works once within 1 h; success ends all of the user's sessions.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const raw = await readBody(args.request);
  if (!raw) return malformedBodyResponse();
  const parsed = resetPasswordSchema.safeParse(raw);
  if (!parsed.success) {
    const errors = zodFieldErrors(parsed.error);
    // Without a token there is nothing to fix in the form: the link is broken.
    return errors.token ? apiFailure(invalidResetLink()) : validationErrorResponse(errors);
  }
  const result = await resetPasswordWithToken(await getRequestContext(args), parsed.data);
  return apiResult(result, () => messageResponse('auth:messages.resetSuccess', 200));
}
