import { User } from '~/entities';
import { ownsProductImageKey } from '../models/product-images';
import { getOptionalUser, isAdmin } from './auth.server';
import { getEm } from './db.server';

/**
 * Who may see a stored image. Keys are random, but being unguessable is not
 * the permission: every GET /images/<key> asks here first.
 *
 * Profile pictures (`profile/<userId>/...`): only the picture the account
 * currently shows — never a raw, unchecked upload under the same prefix — and
 * only to its owner and to admins. Product images (`product/<owner id>/...`,
 * issue 12; stored only after re-encoding): to their owner only. Everything
 * else: nobody.
 */
export async function canViewImage(request: Request, key: string): Promise<boolean> {
  if (key.startsWith('product/')) {
    const viewer = await getOptionalUser(request);
    return ownsProductImageKey(viewer?.id, key);
  }
  const match = /^profile\/([0-9a-f-]{36})\/[a-z0-9-]+$/.exec(key);
  if (!match) return false;
  const em = await getEm();
  const viewer = await getOptionalUser(request);
  if (!viewer || (viewer.id !== match[1] && !isAdmin(viewer))) return false;
  return (await em.count(User, { id: match[1], profileImageUrl: `/images/${key}` })) > 0;
}
