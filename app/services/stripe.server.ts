import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import Stripe from 'stripe';
import { AdminSetting } from '../entities';
import type { PaymentSettings } from './payment-config.server';

/**
 * The Stripe adapter. The API version is pinned here, and only here: the
 * webhook payloads and the SDK's types are those of this version (Clover:
 * the paid period lives on the subscription item, the first invoice's client
 * secret under `confirmation_secret`).
 */
export const STRIPE_API_VERSION = '2025-10-29.clover' as const;

/** A page that needs Stripe renders within a few seconds even when Stripe does not answer. */
export const STRIPE_TIMEOUT_MS = 4_000;

export type { Stripe };

const clients = new Map<string, Stripe>();

/** One client per key and address (the SDK keeps its connections). */
export function getStripeClient(settings: Pick<PaymentSettings, 'secretKey' | 'apiBase'>): Stripe {
  const key = `${settings.apiBase ?? ''}\0${settings.secretKey}`;
  let client = clients.get(key);
  if (!client) {
    const base = settings.apiBase ? new URL(settings.apiBase) : null;
    client = new Stripe(settings.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      timeout: STRIPE_TIMEOUT_MS,
      maxNetworkRetries: 0,
      telemetry: false,
      appInfo: { name: 'Druckpreis' },
      ...(base
        ? {
            host: base.hostname,
            port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
            protocol: base.protocol === 'https:' ? ('https' as const) : ('http' as const),
          }
        : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** Verifies `Stripe-Signature` over the raw body; throws when it does not match. */
export function constructWebhookEvent(rawBody: string, signature: string, webhookSecret: string): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
}

/** The signature header Stripe would send (tests and the fake Stripe API). */
export function testSignatureHeader(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}

/** The item's current_period_end (where Clover keeps it), or the subscription's own in older payloads. */
export function periodEndOf(subscription: Pick<Stripe.Subscription, 'items'> & { current_period_end?: number }): number | null {
  const fromItem = subscription.items?.data?.[0]?.current_period_end;
  if (typeof fromItem === 'number') return fromItem;
  return typeof subscription.current_period_end === 'number' ? subscription.current_period_end : null;
}

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** Stripe could not be reached or did not answer in time (as opposed to a refusal). */
export function isStripeUnreachable(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeConnectionError || (error instanceof Error && /timed? ?out|ECONNREFUSED/i.test(error.message));
}

const PRICE_SETTING_KEY = 'stripe_auto_price';
// pg_advisory_xact_lock key for "create the product and price" (any fixed number unique in this app).
const PRICE_LOCK_KEY = 2026112621;

type AutoPrice = { account: string; currency: string; monthlyPrice: number; productId: string; priceId: string };

/**
 * The monthly price to subscribe to: the configured price id, else the one
 * this app created earlier for this account, amount and currency, else a new
 * product (when none is configured) and price, created once: under a database
 * lock (a second instance starting at the same moment waits and then finds
 * the stored ids) and with idempotency keys (a retry after a crash between
 * Stripe's answer and the commit gets the same objects back).
 */
export async function ensureMonthlyPrice(em: EntityManager, settings: PaymentSettings): Promise<string> {
  if (settings.priceId) return settings.priceId;
  const account = createHash('sha256').update(settings.secretKey).digest('hex').slice(0, 16);
  const wanted = { account, currency: settings.currency.toLowerCase(), monthlyPrice: settings.monthlyPrice };
  const matches = (stored: AutoPrice | null) =>
    stored && stored.account === wanted.account && stored.currency === wanted.currency && stored.monthlyPrice === wanted.monthlyPrice;
  const known = await readAutoPrice(em);
  if (matches(known)) return known!.priceId;
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(?)', [PRICE_LOCK_KEY]);
    const stored = await readAutoPrice(tx);
    if (matches(stored)) return stored!.priceId;
    const stripe = getStripeClient(settings);
    const keyBase = `druckpreis-price-${account}-${wanted.currency}-${wanted.monthlyPrice}`;
    let productId = settings.productId || (stored?.account === account ? stored.productId : '');
    if (!productId) {
      const product = await stripe.products.create({ name: 'Druckpreis Premium' }, { idempotencyKey: `druckpreis-product-${account}` });
      productId = product.id;
    }
    const price = await stripe.prices.create(
      {
        product: productId,
        currency: wanted.currency,
        unit_amount: wanted.monthlyPrice,
        recurring: { interval: 'month' },
        // 3,99 € is what a consumer pays: VAT included.
        tax_behavior: 'inclusive',
      },
      { idempotencyKey: `${keyBase}-${productId}` },
    );
    const value: AutoPrice = { ...wanted, productId, priceId: price.id };
    const row = await tx.findOne(AdminSetting, { key: PRICE_SETTING_KEY });
    if (row) row.value = JSON.stringify(value);
    else tx.persist(tx.create(AdminSetting, { key: PRICE_SETTING_KEY, value: JSON.stringify(value) }));
    await tx.flush();
    return price.id;
  });
}

async function readAutoPrice(em: EntityManager): Promise<AutoPrice | null> {
  const row = await em.findOne(AdminSetting, { key: PRICE_SETTING_KEY }, { disableIdentityMap: true });
  if (!row) return null;
  try {
    return JSON.parse(row.value) as AutoPrice;
  } catch {
    return null;
  }
}
