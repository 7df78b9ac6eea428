import { ownsProductImageKey } from '../models/product-images';
import { getOptionalUser } from './auth.server';

/**
 * Who may see a stored image. Keys are random, but being unguessable is not
 * the permission: every GET /images/<key> asks here first.
 *
 * Profile pictures (`profile/...`) to signed-in users; product images
 * (`product/<owner id>/...`, issue 12) to their owner only; everything else to nobody.
 */
export async function canViewImage(request: Request, key: string): Promise<boolean> {
  if (key.startsWith('profile/')) {
    const user = await getOptionalUser(request);
    return Boolean(user);
  }
  if (key.startsWith('product/')) {
    const user = await getOptionalUser(request);
    return ownsProductImageKey(user?.id, key);
  }
  return false;
}
