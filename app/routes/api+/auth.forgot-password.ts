import type { ActionFunctionArgs } from '@remix-run/node';
import { forgotPasswordSchema } from '~/models/auth-schemas';
import { requestPasswordReset } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { clientIp, consumeRateLimit } from '~/services/rate-limit.server';
import { messageResponse, methodNotAllowed, parseBody, rateLimitedResponse } from '~/utils/api.server';

/** POST /api/auth/forgot-password { email } → { message }, the same whether or not the address has an account. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const parsed = await parseBody(request, forgotPasswordSchema);
  if (!parsed.ok) return parsed.response;
  const em = await getEm();
  const limit = await consumeRateLimit(em, 'forgotPassword', { ip: clientIp(request), email: parsed.data.email });
  if (!limit.allowed) return rateLimitedResponse(limit.retryAfterSeconds);

  await requestPasswordReset(em, parsed.data.email);
  return messageResponse('auth:messages.forgotPasswordSent', 200);
}
