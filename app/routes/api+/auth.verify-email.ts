import type { LoaderFunctionArgs } from '@remix-run/node';
import { confirmEmail } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { messageResponse } from '~/utils/api.server';

/**
 * GET /api/auth/verify-email?token=… → { message }. The one GET that changes
 * state: following the link in the mail confirms the address (once, 24 h).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get('token')?.trim();
  if (!token) return messageResponse('auth:messages.verifyTokenMissing', 400);
  const result = await confirmEmail(await getEm(), token);
  if (result.ok) return messageResponse('auth:messages.verifySuccess', 200);
  // A used link is still refused (400), with the message that helps: the address is confirmed, sign in.
  return messageResponse(result.reason === 'alreadyConfirmed' ? 'auth:messages.verifyAlreadyConfirmed' : 'auth:messages.verifyFailed', 400);
}
