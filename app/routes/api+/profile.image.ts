import type { ActionFunctionArgs } from '@remix-run/node';
import { profileImageSchema } from '~/models/auth-schemas';
import { completeProfileImageUpload, PROFILE_IMAGE_MAX_BYTES, toPublicUser, type ProfileImageError } from '~/models/users.server';
import { jsonResponse, methodNotAllowed, parseBody } from '~/utils/api.server';
import { requireApiUserContext } from '~/services/auth.server';
import { getServerT } from '~/i18n.server';
import { profileImageErrorKeys } from '~/utils/profile-image-upload';

const ERROR_KEYS: Record<ProfileImageError, string> = profileImageErrorKeys;

/**
 * PUT /api/profile/image { imageUrl } → { message, imageUrl, user }: the
 * completion step after the upload. The address (query string ignored) must
 * be one this user was issued; the upload is checked by its bytes, re-encoded
 * to JPEG and stored; the raw upload is deleted.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'PUT') return methodNotAllowed(['PUT']);
  const { em, user } = await requireApiUserContext(args);
  const parsed = await parseBody(args.request, profileImageSchema);
  if (!parsed.ok) return parsed.response;

  const result = await completeProfileImageUpload(em, user, parsed.data.imageUrl);
  const t = await getServerT('auth');
  if (!result.ok) {
    return jsonResponse(
      { message: t(ERROR_KEYS[result.error], { n: PROFILE_IMAGE_MAX_BYTES / 1024 / 1024 }), error: result.error },
      400,
    );
  }
  return jsonResponse({ message: t('auth:messages.profileImageUpdated'), imageUrl: result.imageUrl, user: toPublicUser(user) });
}
