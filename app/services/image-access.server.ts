import { getOptionalUser } from './auth.server';

/**
 * Who may see a stored image. Keys are random, but being unguessable is not
 * the permission: every GET /images/<key> asks here first.
 *
 * For now: profile pictures (`profile/...`) to signed-in users; everything else
 * to nobody. Later issues add product images (owner of the project) here.
 */
export async function canViewImage(request: Request, key: string): Promise<boolean> {
  if (key.startsWith('profile/')) {
    const user = await getOptionalUser(request);
    return Boolean(user);
  }
  return false;
}
