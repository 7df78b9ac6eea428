import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import type { User } from '../entities';
import { getStripeConfig } from './admin-settings.server';

/**
 * Before an account is deleted, its Stripe subscription is cancelled at once
 * (not at the period's end: nobody is left to use what is paid for). Only a
 * user with a `stripeSubscriptionId` touches Stripe at all.
 *
 * STRIPE_API_BASE (e.g. http://127.0.0.1:12111) points the SDK at another
 * host: the tests' fake Stripe API.
 */
export type SubscriptionCancelResult = { ok: true; cancelled: boolean } | { ok: false; error: string };

export type CancelSubscription = (
  ctx: { em: EntityManager },
  user: Pick<User, 'id' | 'stripeSubscriptionId'>,
) => Promise<SubscriptionCancelResult>;

const STRIPE_TIMEOUT_MS = 10_000;

function stripeClient(secretKey: string): Stripe {
  const base = process.env.STRIPE_API_BASE?.trim();
  let network: Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> = {};
  if (base) {
    const url = new URL(base);
    network = { host: url.hostname, port: url.port ? Number(url.port) : undefined, protocol: url.protocol === 'http:' ? 'http' : 'https' };
  }
  return new Stripe(secretKey, { ...network, timeout: STRIPE_TIMEOUT_MS, maxNetworkRetries: 1, telemetry: false });
}

export const cancelSubscriptionBeforeDeletion: CancelSubscription = async (ctx, user) => {
  const subscriptionId = user.stripeSubscriptionId?.trim();
  if (!subscriptionId) return { ok: true, cancelled: false };
  const secretKey = (await getStripeConfig(ctx.em)).secretKey || process.env.STRIPE_SECRET_KEY?.trim() || '';
  if (!secretKey) return { ok: false, error: 'no Stripe secret key configured' };
  try {
    await stripeClient(secretKey).subscriptions.cancel(subscriptionId);
    return { ok: true, cancelled: true };
  } catch (error) {
    // Already gone at Stripe: nothing left to cancel.
    if (error instanceof Stripe.errors.StripeInvalidRequestError && (error.code === 'resource_missing' || error.statusCode === 404)) {
      return { ok: true, cancelled: false };
    }
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
};
