import type { ActionFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { profileImageSchema } from '~/domain/auth-schemas';
import { completeProfilePictureUpload } from '~/models/profile.server';
import { toPublicUser } from '~/models/users.server';
import { requireApiUserContext } from '~/services/auth.server';
import { methodNotAllowed, parseBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['PUT'] as const;

/**
 * PUT /api/profile/image { imageUrl } → { message, imageUrl, user }: the
 * completion step after the upload. The address (query string ignored) must
 * be one this user was issued; a refused picture is 400 `{ message, error }`.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'PUT') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const parsed = await parseBody(args.request, profileImageSchema);
  if (!parsed.ok) return parsed.response;
  const t = await getServerT('auth');
  return apiResult(await completeProfilePictureUpload(ctx, parsed.data), ({ imageUrl, user }) => ({
    message: t('auth:messages.profileImageUpdated'),
    imageUrl,
    user: toPublicUser(user),
  }));
}
