import type { ActionFunctionArgs } from '@remix-run/node';
import { forgotPasswordSchema } from '~/domain/auth-schemas';
import { requestSignInLink } from '~/models/sign-in-links.server';
import { getRequestContext } from '~/services/request-context.server';
import { messageResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/auth/login-link { email } → { message }: mails a sign-in link
 * (single use, 15 minutes) when the address has a confirmed account. The same
 * 200 either way; 429 only when this IP asked too often
 * (models/sign-in-links.server.ts).
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const parsed = await parseBody(args.request, forgotPasswordSchema);
  if (!parsed.ok) return parsed.response;
  const result = await requestSignInLink(await getRequestContext(args), parsed.data);
  return apiResult(result, () => messageResponse('signin:messages.linkSent', 200));
}
