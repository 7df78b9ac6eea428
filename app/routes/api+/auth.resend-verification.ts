import type { ActionFunctionArgs } from '@remix-run/node';
import { resendVerificationEmail } from '~/models/accounts.server';
import { resendVerificationSchema } from '~/domain/auth-schemas';
import { getRequestContext } from '~/services/request-context.server';
import { messageResponse, methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/auth/resend-verification { email } → { message } (not in the spec's
 * table: the "resend the confirmation mail" the issue asks for). Same answer
 * whether the address is unknown, confirmed or waiting.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const parsed = await parseBody(args.request, resendVerificationSchema);
  if (!parsed.ok) return parsed.response;
  const result = await resendVerificationEmail(await getRequestContext(args), parsed.data);
  return apiResult(result, () => messageResponse('auth:messages.resendSent', 200));
}
