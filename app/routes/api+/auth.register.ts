import type { ActionFunctionArgs } from '@remix-run/node';
import { registerSchema } from '~/models/auth-schemas';
import { registerUser } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { clientIp, consumeRateLimit } from '~/services/rate-limit.server';
import { messageResponse, methodNotAllowed, parseBody, rateLimitedResponse, validationErrorResponse } from '~/utils/api.server';

/**
 * POST /api/auth/register { email, password, confirmPassword, firstName, lastName } → { message }.
 * The answer is the same whether or not the address already has an account.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const parsed = await parseBody(request, registerSchema);
  if (!parsed.ok) return parsed.response;
  const em = await getEm();
  const limit = await consumeRateLimit(em, 'register', { ip: clientIp(request), email: parsed.data.email });
  if (!limit.allowed) return rateLimitedResponse(limit.retryAfterSeconds);

  const result = await registerUser(em, parsed.data);
  if (!result.ok) return validationErrorResponse(result.errors);
  return messageResponse('auth:messages.registerSuccess', 200);
}
