import type { ActionFunctionArgs } from '@remix-run/node';
import { loginSchema } from '~/models/auth-schemas';
import { toPublicUser } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { jsonResponse, messageResponse, methodNotAllowed, parseBody, rateLimitedResponse } from '~/utils/api.server';
import { attemptLogin, issueUserSession } from '~/utils/auth.server';

/**
 * POST /api/auth/login { email, password } → the user, with a NEW session cookie.
 * 401 for an unknown address or a wrong password (same body), 403 with
 * `emailNotVerified` for an unconfirmed account, 429 when rate-limited.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const parsed = await parseBody(request, loginSchema);
  if (!parsed.ok) return parsed.response;
  const em = await getEm();

  const attempt = await attemptLogin(request, em, parsed.data);
  switch (attempt.status) {
    case 'rateLimited':
      return rateLimitedResponse(attempt.retryAfterSeconds);
    case 'invalid':
      return messageResponse('auth:messages.loginInvalid', 401);
    case 'unverified':
      return messageResponse('auth:messages.emailNotVerified', 403, { emailNotVerified: true });
    case 'ok': {
      const cookie = await issueUserSession(request, attempt.user.id);
      return jsonResponse(toPublicUser(attempt.user), { headers: { 'Set-Cookie': cookie } });
    }
  }
}
