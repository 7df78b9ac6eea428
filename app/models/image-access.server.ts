import { User } from '../entities';
import { isAdmin } from '../domain/permissions';
import type { RequestContext } from '../services/request-context.server';
import { ownsProductImageKey } from '../domain/product-images';
import { ownsLogoKey } from '../domain/quotes';

/**
 * Who may see a stored image. Keys are random, but being unguessable is not
 * the permission: every GET /images/<key> asks here first, with the request's
 * context (its one session and user read).
 *
 * Profile pictures (`profile/<userId>/...`): only the picture the account
 * currently shows — never a raw, unchecked upload under the same prefix — and
 * only to its owner and to admins. Product images (`product/<owner id>/...`,
 * issue 12; stored only after re-encoding): to their owner only. Everything
 * else: nobody.
 */
export async function canViewImage(ctx: Pick<RequestContext, 'em' | 'user'>, key: string): Promise<boolean> {
  const viewer = ctx.user;
  if (key.startsWith('product/')) return ownsProductImageKey(viewer?.id, key);
  // A seller's quote logo (issue 26): its owner only, like product images.
  if (key.startsWith('logo/')) return ownsLogoKey(viewer?.id, key);
  const match = /^profile\/([0-9a-f-]{36})\/[a-z0-9-]+$/.exec(key);
  if (!match) return false;
  if (!viewer || (viewer.id !== match[1] && !isAdmin(viewer))) return false;
  return (await ctx.em.count(User, { id: match[1], profileImageUrl: `/images/${key}` })) > 0;
}
