import type { ActionFunctionArgs } from '@remix-run/node';
import { login } from '~/models/accounts.server';
import { loginSchema } from '~/domain/auth-schemas';
import { toPublicUser } from '~/models/users.server';
import { issueUserSession } from '~/services/auth.server';
import { getRequestContext } from '~/services/request-context.server';
import { jsonResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/auth/login { email, password } → the user, with a NEW session cookie.
 * 401 for an unknown address or a wrong password (same body), 403 with
 * `emailNotVerified` for an unconfirmed account, 429 when rate-limited.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const parsed = await parseBody(args.request, loginSchema);
  if (!parsed.ok) return parsed.response;
  const result = await login(await getRequestContext(args), parsed.data);
  return apiResult(result, async (user) =>
    jsonResponse(toPublicUser(user), { headers: { 'Set-Cookie': await issueUserSession(args.request, user.id) } }),
  );
}
