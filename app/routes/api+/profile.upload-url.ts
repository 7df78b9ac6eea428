import type { ActionFunctionArgs } from '@remix-run/node';
import { newProfileObjectKey } from '~/models/users.server';
import { getFileStore } from '~/services/storage.server';
import { jsonResponse, methodNotAllowed } from '~/utils/api.server';
import { requireApiUserContext } from '~/services/auth.server';

/** Upload addresses live 5 minutes. */
const UPLOAD_URL_TTL_SECONDS = 300;

/**
 * POST /api/profile/upload-url → { uploadURL }: a short-lived address to PUT
 * one JPEG to. The key names the user (`profile/<userId>/<random>`), so the
 * completion step accepts only this user's uploads.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(['POST']);
  const { user } = await requireApiUserContext(args);
  const uploadURL = await getFileStore().presignPut(newProfileObjectKey(user.id), 'image/jpeg', UPLOAD_URL_TTL_SECONDS);
  return jsonResponse({ uploadURL });
}
