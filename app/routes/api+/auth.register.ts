import type { ActionFunctionArgs } from '@remix-run/node';
import { register } from '~/models/accounts.server';
import { registerSchema } from '~/domain/auth-schemas';
import { getRequestContext } from '~/services/request-context.server';
import { messageResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/auth/register { email, password, confirmPassword, firstName, lastName } → { message }.
 * The answer is the same whether or not the address already has an account.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const parsed = await parseBody(args.request, registerSchema);
  if (!parsed.ok) return parsed.response;
  const result = await register(await getRequestContext(args), parsed.data);
  return apiResult(result, () => messageResponse('auth:messages.registerSuccess', 200));
}
