import { User } from '../entities';
import { deleteUserSessions } from '../services/session.server';
import type { RequestContext } from '../services/request-context.server';
import { getFileStore, isValidObjectKey } from '../services/storage.server';
import { logoKeysOfUser } from './business-logo.server';
import { cancelSubscriptionBeforeDeletion, type CancelSubscription } from '../services/subscription-cancel.server';
import { recordAudit } from './admin.server';
import { isAdmin } from '../domain/permissions';
import { parseProductImagePath } from '../domain/product-images';
import { forbidden, invalid, notFound, ok, type Result } from '../domain/result';

/**
 * The one account deletion, used by the admin (users tab, DELETE
 * /api/admin/users/<id>) and by the owner (/profile, DELETE /api/profile).
 *
 * 1. A Premium account's Stripe subscription is cancelled first; when Stripe
 *    cannot be reached nothing is deleted.
 * 2. One transaction: every stored file of the account is listed in
 *    `pending_uploads` (due now), the sessions (signed out everywhere), the
 *    mails waiting for its addresses and the user row go; projects and library
 *    items follow by their foreign keys (on delete cascade), tokens live on the
 *    user row.
 * 3. After the commit the files are deleted from the store (disk or S3) and
 *    their rows removed. A file whose removal fails keeps its row, so the
 *    upload cleanup job (services/upload-cleanup.server.ts) retries it every
 *    5 minutes: nothing is left behind silently.
 */
export type AccountDeletionDeps = { cancelSubscription?: CancelSubscription };
export type DeletedAccount = { email: string; files: number; filesPending: number; subscriptionCancelled: boolean };

/** The object key behind one of our image URLs (`/images/<key>`), or null. */
function keyFromImageUrl(url: string | null | undefined): string | null {
  const match = url ? /^\/images\/(.+)$/.exec(url) : null;
  return match && isValidObjectKey(match[1]) ? match[1] : null;
}

export async function deleteAccount(
  ctx: RequestContext,
  input: { userId: string; by: 'admin' | 'self' },
  deps: AccountDeletionDeps = {},
): Promise<Result<DeletedAccount>> {
  try {
    return await deleteAccountOnce(ctx, input, deps);
  } catch (error) {
    if (error instanceof LastAdminError) return forbidden(input.by === 'self' ? 'admin:users.lastAdminSelf' : 'admin:users.lastAdmin');
    throw error;
  }
}

/** Thrown inside the deletion's transaction: the account is the last admin's (nothing is deleted). */
class LastAdminError extends Error {}

async function deleteAccountOnce(ctx: RequestContext, input: { userId: string; by: 'admin' | 'self' }, deps: AccountDeletionDeps): Promise<Result<DeletedAccount>> {
  const em = ctx.em.fork();
  const user = await em.findOne(User, { id: input.userId }, { disableIdentityMap: true });
  if (!user) return notFound();

  const cancel = deps.cancelSubscription ?? cancelSubscriptionBeforeDeletion;
  const cancelled = await cancel({ em }, user);
  if (!cancelled.ok) {
    console.error(`[account] deletion of ${user.id} stopped: the Stripe subscription could not be cancelled (${cancelled.error})`);
    return invalid('admin:deletion.stripeUnreachable', { details: { code: 'STRIPE_UNREACHABLE' } });
  }

  const files = new Map<string, 'profile' | 'product'>();
  const profileKey = keyFromImageUrl(user.profileImageUrl);
  if (profileKey) files.set(profileKey, 'profile');

  await em.transactional(async (tx) => {
    // The last admin is counted inside the deletion, one deletion at a time: two admins deleting
    // each other (or themselves) at the same moment cannot leave the service without one.
    await tx.execute(`select pg_advisory_xact_lock(hashtext('druckpreis:admin-deletion'))`);
    if (isAdmin(user)) {
      const [{ admins }] = await tx.execute<{ admins: string }[]>(`select count(*) as admins from users where is_admin = 1`);
      if (Number(admins) <= 1) throw new LastAdminError();
    }
    const projectImages = await tx.execute<{ path: string }[]>(
      `select distinct product_image_path as path from projects where user_id = ? and product_image_path is not null`,
      [user.id],
    );
    for (const { path } of projectImages) {
      const parsed = parseProductImagePath(path);
      if (parsed) files.set(parsed.key, 'product');
    }
    // Quote logos (issue 26): the business details' and every one a quote kept; the rows go with the user.
    for (const key of await logoKeysOfUser(tx, user.id)) files.set(key, 'profile');
    for (const [key, kind] of files) {
      await tx.execute(
        `insert into pending_uploads (key, user_id, kind, created_at, expires_at) values (?, ?, ?, now(), now())
         on conflict (key) do update set expires_at = now()`,
        [key, user.id, kind],
      );
    }
    // Uploads not yet completed or saved: due now too (the cleanup job or the loop below removes them).
    const pending = await tx.execute<{ key: string }[]>(`update pending_uploads set expires_at = now() where user_id = ? returning key`, [user.id]);
    for (const { key } of pending) if (!files.has(key)) files.set(key, 'profile');

    await deleteUserSessions(tx, user.id);
    const addresses = [user.email, user.pendingEmail].filter((value): value is string => Boolean(value));
    await tx.execute(`delete from mail_outbox where "to" in (${addresses.map(() => '?').join(', ')})`, addresses);
    await tx.execute(`delete from users where id = ?`, [user.id]);
    recordAudit(
      tx,
      ctx.user ? { id: ctx.user.id, email: ctx.user.email } : null,
      input.by === 'admin' ? 'user.delete' : 'account.selfDelete',
      user.email,
      { userId: user.id, files: files.size, subscriptionCancelled: cancelled.cancelled },
    );
    await tx.flush();
  });

  // After the commit: the files. A failure leaves the pending_uploads row for the cleanup job's retry.
  const store = getFileStore();
  let filesPending = 0;
  for (const key of files.keys()) {
    try {
      await store.delete(key);
      await ctx.em.execute(`delete from pending_uploads where key = ?`, [key]);
    } catch (error) {
      filesPending += 1;
      console.error(`[account] file ${key} of deleted account ${user.id} not removed yet (${error instanceof Error ? error.message : error}); the upload cleanup retries it`);
    }
  }
  return ok({ email: user.email, files: files.size, filesPending, subscriptionCancelled: cancelled.cancelled });
}
