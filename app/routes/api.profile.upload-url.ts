import type { ActionFunctionArgs } from '@remix-run/node';
import { issueProfileUploadUrl } from '~/models/users.server';
import { clientIp } from '~/services/rate-limit.server';
import { jsonResponse, methodNotAllowed, rateLimitedResponse } from '~/utils/api.server';
import { requireApiUser } from '~/utils/auth.server';
import { getEm } from '~/services/db.server';

/**
 * POST /api/profile/upload-url → { uploadURL }: a short-lived address to PUT
 * one JPEG to. The key names the user (`profile/<userId>/<random>`), so the
 * completion step accepts only this user's uploads; 429 over the user's
 * rate limit or quota of open uploads.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['POST']);
  const em = await getEm();
  const user = await requireApiUser(request, em);
  const result = await issueProfileUploadUrl(em, user, { ip: clientIp(request) });
  if (!result.ok) return rateLimitedResponse(result.retryAfterSeconds);
  return jsonResponse({ uploadURL: result.uploadURL });
}
