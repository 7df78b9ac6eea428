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
  return result.ok
    ? messageResponse('auth:messages.verifySuccess', 200)
    : messageResponse('auth:messages.verifyFailed', 400);
}
