import type { User } from '../entities';

/**
 * Plan rules in one place: operations ask these, routes never read the flags
 * themselves. (Admin rights: `requireAdmin`/`isAdmin` in services/auth.server.ts.)
 */

// Stripe statuses after which a subscription no longer pays for Premium, even while the flag is still set.
const ENDED_SUBSCRIPTION = new Set(['canceled', 'unpaid', 'incomplete_expired']);

/**
 * Premium at `now`. Today the stored flag (kept by the payment webhooks) is the
 * truth unless the subscription has ended; `now` is part of the signature so the
 * Premium issue can add the paid-until date without touching every caller.
 */
export function isPremium(user: Pick<User, 'isPremium' | 'subscriptionStatus'> | null | undefined, now: Date): boolean {
  void now;
  if (!user) return false;
  const flag = user.isPremium as unknown;
  if (flag !== 1 && flag !== true) return false;
  return !ENDED_SUBSCRIPTION.has(user.subscriptionStatus ?? '');
}
