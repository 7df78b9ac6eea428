/**
 * Plan and admin rules in one place: operations ask these, routes never read the flags
 * themselves. The admin guard `requireAdmin` (services/auth.server.ts) asks
 * `isAdmin`; the project quota is models/project-quota.server.ts.
 */

/** The stored flags these rules read (entities/user.entity.ts): 1 = yes, 0 = no. */
type User = { isPremium: number; isAdmin: number; subscriptionStatus?: string | null };

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

/** isAdmin is stored as 1/0; the spec's admin page also accepts `true`. */
export function isAdmin(user: Pick<User, 'isAdmin'> | null | undefined): boolean {
  const value = user?.isAdmin as unknown;
  return value === 1 || value === true;
}
