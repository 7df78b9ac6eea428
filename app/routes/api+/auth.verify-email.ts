import type { LoaderFunctionArgs } from '@remix-run/node';
import { verifyEmail } from '~/models/accounts.server';
import { getRequestContext } from '~/services/request-context.server';
import { messageResponse } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/**
 * GET /api/auth/verify-email?token=… → { message }. The one GET that changes
 * state: following the link in the mail confirms the address (once, 24 h). A
 * used link is still refused (400), with the message that helps.
 */
export async function loader(args: LoaderFunctionArgs) {
  const result = await verifyEmail(await getRequestContext(args), { token: new URL(args.request.url).searchParams.get('token') });
  return apiResult(result, ({ change }) => messageResponse(change ? 'auth:messages.emailChangeConfirmed' : 'auth:messages.verifySuccess', 200));
}
