import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../entities';
import { enqueueMail } from '../services/mail.server';
import { getPaymentSettings, isPaymentConfigured, readPaymentSettings, type PaymentSettings } from '../services/payment-config.server';
import type { RequestContext, UserContext } from '../services/request-context.server';
import {
  constructWebhookEvent,
  ensureMonthlyPrice,
  getStripeClient,
  idOf,
  isStripeUnreachable,
  periodEndOf,
  type Stripe,
} from '../services/stripe.server';
import { forbidden, invalid, ok, type Result } from '../domain/result';
import { isPremium } from '../domain/permissions';

/**
 * Premium by card (issue 21). The truth comes from Stripe: `syncSubscription`
 * is the one place that sets isPremium, the status, the ids and the paid
 * period, called by the signed webhook (`applyStripeEvent`) and by the
 * server-side read when a seller comes back from Checkout or 3-D Secure
 * (`refreshSubscription`). Nothing the browser says grants Premium.
 */

/** Statuses that pay for Premium; `past_due` keeps it until Stripe gives up. */
const PREMIUM_STATUSES = new Set(['active', 'trialing', 'past_due']);
/** Final statuses: a subscription never comes back from these. */
const FINAL_STATUSES = new Set(['canceled', 'incomplete_expired']);

/** One subscription as far as an event or a read tells it; undefined fields stay as they are. */
export type SubscriptionState = {
  id: string;
  customerId: string | null;
  userId: string | null;
  status?: string | ((current: string | null) => string | undefined);
  periodEnd?: number | null;
  cancelAtPeriodEnd?: boolean;
};

export function stateFromSubscription(subscription: Stripe.Subscription): SubscriptionState {
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer),
    userId: subscription.metadata?.userId || null,
    status: subscription.status,
    periodEnd: periodEndOf(subscription),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end || subscription.cancel_at),
  };
}

export type SyncOutcome = 'applied' | 'stale' | 'noUser';

/**
 * Brings the user in line with `state`, known as of `at` (Unix seconds: the
 * event's `created`, or the time of a read). Runs inside the caller's
 * transaction and locks the user's row, so deliveries on several instances
 * apply one after the other. An older state never overrides a newer one, an
 * ended subscription never comes back, and an old subscription never
 * overrides the current one. Queues the Premium started/ended mails.
 */
export async function syncSubscription(tx: EntityManager, state: SubscriptionState, at: number, now = new Date()): Promise<SyncOutcome> {
  const user = await findSubscriber(tx, state);
  if (!user) return 'noUser';
  const sameSubscription = user.stripeSubscriptionId === state.id;
  const currentStatus = sameSubscription ? (user.subscriptionStatus ?? null) : null;
  const nextStatus = typeof state.status === 'function' ? state.status(currentStatus) : state.status;
  if (sameSubscription) {
    if (user.subscriptionStateAt != null && at < Number(user.subscriptionStateAt)) return 'stale';
    if (FINAL_STATUSES.has(user.subscriptionStatus ?? '') && nextStatus !== undefined && !FINAL_STATUSES.has(nextStatus)) return 'stale';
  } else if (user.stripeSubscriptionId) {
    // Another subscription than the current one: it takes over only if it is the live one.
    const currentLive = PREMIUM_STATUSES.has(user.subscriptionStatus ?? '') || user.subscriptionStatus === 'incomplete';
    if (nextStatus === undefined || FINAL_STATUSES.has(nextStatus)) return 'stale';
    if (currentLive && !PREMIUM_STATUSES.has(nextStatus)) return 'stale';
    if (user.subscriptionStateAt != null && at < Number(user.subscriptionStateAt) && !PREMIUM_STATUSES.has(nextStatus)) return 'stale';
  } else if (nextStatus === undefined) {
    // Nothing known yet and nothing to set but ids: take them.
  }
  const wasPremium = isPremium(user, now);
  if (state.customerId && !user.stripeCustomerId) user.stripeCustomerId = state.customerId;
  if (!sameSubscription) {
    user.stripeSubscriptionId = state.id;
    user.subscriptionPeriodEnd = null;
    user.subscriptionCancelAtPeriodEnd = false;
  }
  if (nextStatus !== undefined) user.subscriptionStatus = nextStatus;
  if (state.periodEnd) user.subscriptionPeriodEnd = new Date(state.periodEnd * 1000);
  if (state.cancelAtPeriodEnd !== undefined) user.subscriptionCancelAtPeriodEnd = state.cancelAtPeriodEnd;
  user.isPremium = PREMIUM_STATUSES.has(user.subscriptionStatus ?? '') ? 1 : 0;
  user.subscriptionStateAt = Math.max(at, Number(user.subscriptionStateAt ?? 0));
  const nowPremium = isPremium(user, now);
  if (!wasPremium && nowPremium) await enqueueMail(tx, { to: user.email, template: 'premiumStarted', data: mailData(user) });
  if (wasPremium && !nowPremium) await enqueueMail(tx, { to: user.email, template: 'premiumEnded', data: mailData(user) });
  await tx.flush();
  return 'applied';
}

function mailData(user: User): Record<string, string> {
  const data: Record<string, string> = { name: user.firstName ?? '' };
  if (user.subscriptionPeriodEnd) data.periodEnd = String(Math.floor(user.subscriptionPeriodEnd.getTime() / 1000));
  return data;
}

/** The user a subscription belongs to: by Stripe customer id, else by the id we put into its metadata. Row locked. */
async function findSubscriber(tx: EntityManager, state: Pick<SubscriptionState, 'customerId' | 'userId' | 'id'>): Promise<User | null> {
  const lock = { lockMode: LockMode.PESSIMISTIC_WRITE } as const;
  if (state.customerId) {
    const byCustomer = await tx.findOne(User, { stripeCustomerId: state.customerId }, lock);
    if (byCustomer) return byCustomer;
  }
  const bySubscription = await tx.findOne(User, { stripeSubscriptionId: state.id }, lock);
  if (bySubscription) return bySubscription;
  if (state.userId && /^[0-9a-f-]{36}$/i.test(state.userId)) {
    const byId = await tx.findOne(User, { id: state.userId }, lock);
    // A user already linked to another customer is not taken over by metadata alone.
    if (byId && (!byId.stripeCustomerId || !state.customerId || byId.stripeCustomerId === state.customerId)) return byId;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Webhook

export const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
] as const;

export type EventOutcome = 'ignored' | 'duplicate' | SyncOutcome;

/** The subscription an invoice is for (Clover: under parent.subscription_details). */
function invoiceSubscriptionId(invoice: Stripe.Invoice): string | null {
  const parent = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(parent ?? legacy ?? null);
}

function invoiceUserId(invoice: Stripe.Invoice): string | null {
  return invoice.parent?.subscription_details?.metadata?.userId || null;
}

/**
 * POST /api/stripe/webhook: the signature is checked over the raw body with the webhook secret read
 * fresh, not from the settings cache (a rotated secret works at once); a bad or missing one changes
 * nothing. Handled types are applied (applyStripeEvent), others are answered and ignored.
 */
export async function receiveStripeWebhook(
  ctx: Pick<RequestContext, 'em'>,
  input: { raw: string; signature: string | null },
): Promise<Result<{ outcome: EventOutcome }>> {
  const settings = await readPaymentSettings(ctx.em);
  if (!settings.webhookSecret) return invalid('premium:webhook.notConfigured');
  if (!input.signature) return invalid('premium:webhook.badSignature');
  let event: Stripe.Event;
  try {
    event = constructWebhookEvent(input.raw, input.signature, settings.webhookSecret);
  } catch {
    return invalid('premium:webhook.badSignature');
  }
  return ok({ outcome: await applyStripeEvent(ctx.em.fork(), event) });
}

/**
 * Applies one verified webhook event from its payload alone. The event id is
 * recorded in the same transaction as its effect: a second delivery (also a
 * concurrent one on another instance, which waits on the id's row) changes nothing.
 */
export async function applyStripeEvent(em: EntityManager, event: Stripe.Event, now = new Date()): Promise<EventOutcome> {
  if (!(HANDLED_EVENT_TYPES as readonly string[]).includes(event.type)) return 'ignored';
  return em.transactional(async (tx) => {
    const inserted = await tx.execute<{ id: string }[]>('insert into stripe_events (id, type, created) values (?, ?, ?) on conflict (id) do nothing returning id', [event.id, event.type, event.created], 'all');
    if (inserted.length === 0) return 'duplicate';
    return applyEventEffect(tx, event, now);
  });
}

async function applyEventEffect(tx: EntityManager, event: Stripe.Event, now: Date): Promise<SyncOutcome> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      const subscriptionId = idOf(session.subscription);
      if (session.mode !== 'subscription' || !subscriptionId) return 'noUser';
      return syncSubscription(
        tx,
        {
          id: subscriptionId,
          customerId: idOf(session.customer),
          userId: session.client_reference_id || session.metadata?.userId || null,
          // A paid Checkout is an active subscription; its own events tell the rest.
          status: session.payment_status === 'paid' ? 'active' : undefined,
        },
        event.created,
        now,
      );
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return syncSubscription(tx, stateFromSubscription(event.data.object), event.created, now);
    case 'invoice.paid': {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return 'noUser';
      const periodEnd = invoice.lines?.data?.[0]?.period?.end ?? null;
      return syncSubscription(
        tx,
        {
          id: subscriptionId,
          customerId: idOf(invoice.customer),
          userId: invoiceUserId(invoice),
          // Paid: a subscription that was waiting for (or behind with) its payment runs again.
          status: (current) => (current === null || ['incomplete', 'past_due', 'unpaid'].includes(current) ? 'active' : undefined),
          periodEnd,
        },
        event.created,
        now,
      );
    }
    case 'invoice.payment_failed':
    case 'invoice.payment_action_required': {
      const invoice = event.data.object;
      const subscriptionId = invoiceSubscriptionId(invoice);
      if (!subscriptionId) return 'noUser';
      const outcome = await syncSubscription(
        tx,
        {
          id: subscriptionId,
          customerId: idOf(invoice.customer),
          userId: invoiceUserId(invoice),
          status: (current) => (current === 'active' || current === 'trialing' ? 'past_due' : undefined),
        },
        event.created,
        now,
      );
      if (outcome === 'applied') {
        const user = await tx.findOne(User, { stripeSubscriptionId: subscriptionId });
        if (user) {
          await enqueueMail(tx, {
            to: user.email,
            template: 'paymentFailed',
            data: { name: user.firstName ?? '', actionRequired: event.type === 'invoice.payment_action_required' ? '1' : '' },
          });
          await tx.flush();
        }
      }
      return outcome;
    }
    default:
      return 'noUser';
  }
}

// ---------------------------------------------------------------------------
// Operations for /premium and /api/subscription/*

export type SubscriptionStatus = { isPremium: boolean; status: string | null; currentPeriodEnd: number | null };

export function subscriptionStatusOf(user: User, now: Date): SubscriptionStatus {
  return {
    isPremium: isPremium(user, now),
    status: user.subscriptionStatus ?? null,
    currentPeriodEnd: user.subscriptionPeriodEnd ? Math.floor(user.subscriptionPeriodEnd.getTime() / 1000) : null,
  };
}

/** What /premium shows besides the user's status. */
export type PremiumOffer = { configured: boolean; monthlyPrice: number; currency: string; publicKey: string };

export async function getPremiumOffer(ctx: RequestContext): Promise<PremiumOffer> {
  const settings = await getPaymentSettings(ctx.em);
  return {
    configured: isPaymentConfigured(settings),
    monthlyPrice: settings.monthlyPrice,
    currency: settings.currency,
    publicKey: settings.publicKey,
  };
}

const ERR = {
  notConfigured: 'premium:errors.notConfigured',
  unreachable: 'premium:errors.unreachable',
  createFailed: 'premium:errors.createFailed',
  cancelFailed: 'premium:errors.cancelFailed',
  resumeFailed: 'premium:errors.resumeFailed',
  portalFailed: 'premium:errors.portalFailed',
  alreadyPremium: 'premium:errors.alreadyPremium',
  consentRequired: 'premium:errors.consentRequired',
  noSubscription: 'premium:errors.noSubscription',
} as const;

/** A Stripe failure as a German refusal (never a 500): unreachable, or the operation's own message. */
function stripeFailure(error: unknown, fallback: string) {
  console.error(`[stripe] ${error instanceof Error ? error.message : String(error)}`);
  return invalid(isStripeUnreachable(error) ? ERR.unreachable : fallback);
}

async function configuredSettings(ctx: RequestContext): Promise<PaymentSettings | null> {
  const settings = await getPaymentSettings(ctx.em);
  return isPaymentConfigured(settings) ? settings : null;
}

// pg_advisory_xact_lock(namespace, key): one subscription start per user at a time, across instances.
const USER_LOCK_NAMESPACE = 2126;

/**
 * Runs `fn` with the user's row locked and re-read (a second click in another
 * tab or on another instance waits here and then sees the first one's result).
 */
async function withUserLock<T>(ctx: UserContext, fn: (tx: EntityManager, user: User) => Promise<T>): Promise<T> {
  return ctx.em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [USER_LOCK_NAMESPACE, ctx.user.id]);
    const user = await tx.findOneOrFail(User, { id: ctx.user.id }, { refresh: true });
    return fn(tx, user);
  });
}

/** The user's Stripe customer, created once (stored at once, reused on every later attempt). */
async function ensureCustomer(tx: EntityManager, stripe: Stripe, user: User): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  const customer = await stripe.customers.create(
    { email: user.email, ...(name ? { name } : {}), metadata: { userId: user.id } },
    { idempotencyKey: `druckpreis-customer-${user.id}` },
  );
  user.stripeCustomerId = customer.id;
  await tx.flush();
  return customer.id;
}

/** A stable key for "this user's next subscription": the same for every click until the state changes. */
function subscriptionKey(kind: string, user: User): string {
  return `druckpreis-${kind}-${user.id}-${user.stripeSubscriptionId ?? 'none'}-${user.subscriptionStatus ?? 'none'}`;
}

function refuseIfSubscribed(user: User, now: Date) {
  if (isPremium(user, now)) return forbidden(ERR.alreadyPremium);
  return null;
}

/** POST /premium intent=checkout (no-JS): a Checkout session in subscription mode; answers its address. */
export async function startCheckout(ctx: UserContext, input: { paymentConsent: boolean; baseUrl: string }): Promise<Result<{ url: string }>> {
  if (!input.paymentConsent) return forbidden(ERR.consentRequired);
  const settings = await configuredSettings(ctx);
  if (!settings) return invalid(ERR.notConfigured);
  const stripe = getStripeClient(settings);
  try {
    const priceId = await ensureMonthlyPrice(ctx.em, settings);
    return await withUserLock(ctx, async (tx, user) => {
      const refusal = refuseIfSubscribed(user, ctx.now);
      if (refusal) return refusal;
      const customer = await ensureCustomer(tx, stripe, user);
      // A subscription started through the Payment Element may have been paid meanwhile (it is
      // never charged otherwise and expires on its own, so Checkout may go ahead).
      if (user.subscriptionStatus === 'incomplete' && user.stripeSubscriptionId) {
        const existing = await stripe.subscriptions.retrieve(user.stripeSubscriptionId);
        await syncSubscription(tx, stateFromSubscription(existing), nowSeconds(ctx.now), ctx.now);
        if (PREMIUM_STATUSES.has(existing.status)) return forbidden(ERR.alreadyPremium);
      }
      // Within one half hour every click gets the same session (Checkout sessions live 24 h).
      const bucket = Math.floor(ctx.now.getTime() / (30 * 60_000));
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          client_reference_id: user.id,
          line_items: [{ price: priceId, quantity: 1 }],
          success_url: `${input.baseUrl}/premium?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${input.baseUrl}/premium?checkout=cancel`,
          subscription_data: { metadata: { userId: user.id } },
          metadata: { userId: user.id },
        },
        { idempotencyKey: `${subscriptionKey('checkout', user)}-${bucket}` },
      );
      if (!session.url) return invalid(ERR.createFailed);
      return ok({ url: session.url });
    });
  } catch (error) {
    return stripeFailure(error, ERR.createFailed);
  }
}

/**
 * POST /api/subscription/create: the customer (once) and an incomplete
 * subscription whose first invoice the Payment Element confirms. A user with
 * an incomplete subscription gets its client secret again; a Premium user is refused.
 */
export async function createSubscription(ctx: UserContext, input: { paymentConsent: boolean }): Promise<Result<{ clientSecret: string }>> {
  if (!input.paymentConsent) return forbidden(ERR.consentRequired);
  const settings = await configuredSettings(ctx);
  if (!settings) return invalid(ERR.notConfigured);
  const stripe = getStripeClient(settings);
  try {
    const priceId = await ensureMonthlyPrice(ctx.em, settings);
    return await withUserLock(ctx, async (tx, user) => {
      const refusal = refuseIfSubscribed(user, ctx.now);
      if (refusal) return refusal;
      const customer = await ensureCustomer(tx, stripe, user);
      if (user.subscriptionStatus === 'incomplete' && user.stripeSubscriptionId) {
        const existing = await stripe.subscriptions.retrieve(user.stripeSubscriptionId, { expand: ['latest_invoice.confirmation_secret'] });
        await syncSubscription(tx, stateFromSubscription(existing), nowSeconds(ctx.now), ctx.now);
        if (existing.status === 'incomplete') {
          const secret = clientSecretOf(existing);
          if (secret) return ok({ clientSecret: secret });
        } else if (PREMIUM_STATUSES.has(existing.status)) {
          return forbidden(ERR.alreadyPremium);
        }
      }
      const subscription = await stripe.subscriptions.create(
        {
          customer,
          items: [{ price: priceId }],
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          expand: ['latest_invoice.confirmation_secret'],
          metadata: { userId: user.id },
        },
        { idempotencyKey: subscriptionKey('subscription', user) },
      );
      await syncSubscription(tx, stateFromSubscription(subscription), nowSeconds(ctx.now), ctx.now);
      const secret = clientSecretOf(subscription);
      return secret ? ok({ clientSecret: secret }) : invalid(ERR.createFailed);
    });
  } catch (error) {
    return stripeFailure(error, ERR.createFailed);
  }
}

function clientSecretOf(subscription: Stripe.Subscription): string | null {
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === 'string') return null;
  return invoice.confirmation_secret?.client_secret ?? null;
}

function nowSeconds(now: Date): number {
  return Math.floor(now.getTime() / 1000);
}

/** Cancel at the end of the paid period (`cancel: true`) or take the cancellation back (`cancel: false`). */
export async function setCancelAtPeriodEnd(ctx: UserContext, cancel: boolean): Promise<Result<SubscriptionStatus>> {
  const failed = cancel ? ERR.cancelFailed : ERR.resumeFailed;
  const settings = await configuredSettings(ctx);
  if (!settings) return invalid(ERR.notConfigured);
  const subscriptionId = ctx.user.stripeSubscriptionId;
  if (!subscriptionId || !PREMIUM_STATUSES.has(ctx.user.subscriptionStatus ?? '')) return invalid(ERR.noSubscription);
  try {
    const subscription = await getStripeClient(settings).subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
    return await ctx.em.transactional(async (tx) => {
      await syncSubscription(tx, stateFromSubscription(subscription), nowSeconds(ctx.now), ctx.now);
      const user = await tx.findOneOrFail(User, { id: ctx.user.id }, { refresh: true });
      return ok(subscriptionStatusOf(user, ctx.now));
    });
  } catch (error) {
    return stripeFailure(error, failed);
  }
}

/** 'Zahlungsdaten und Rechnungen': a Customer Portal session; answers its address. */
export async function openBillingPortal(ctx: UserContext, input: { baseUrl: string }): Promise<Result<{ url: string }>> {
  const settings = await configuredSettings(ctx);
  if (!settings) return invalid(ERR.notConfigured);
  if (!ctx.user.stripeCustomerId) return invalid(ERR.noSubscription);
  try {
    const session = await getStripeClient(settings).billingPortal.sessions.create({
      customer: ctx.user.stripeCustomerId,
      return_url: `${input.baseUrl}/premium`,
    });
    return ok({ url: session.url });
  } catch (error) {
    return stripeFailure(error, ERR.portalFailed);
  }
}

/**
 * The return from Checkout or 3-D Secure: reads the subscription from Stripe
 * on the server and applies it with `syncSubscription`, so /premium shows the
 * right state at once even when the webhook has not arrived yet. Returns false
 * when Stripe could not be asked (the page says so and shows the stored state).
 */
export async function refreshSubscription(ctx: UserContext, input: { checkoutSessionId?: string | null }): Promise<boolean> {
  const settings = await configuredSettings(ctx);
  if (!settings) return true;
  const stripe = getStripeClient(settings);
  try {
    let subscription: Stripe.Subscription | null = null;
    const sessionId = input.checkoutSessionId;
    if (sessionId && /^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) {
      const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ['subscription'] });
      // Only the signed-in user's own session counts.
      const owner = session.client_reference_id === ctx.user.id || (ctx.user.stripeCustomerId && idOf(session.customer) === ctx.user.stripeCustomerId);
      if (owner && session.subscription && typeof session.subscription !== 'string') subscription = session.subscription;
    }
    if (!subscription && ctx.user.stripeSubscriptionId) subscription = await stripe.subscriptions.retrieve(ctx.user.stripeSubscriptionId);
    if (!subscription) return true;
    const found = subscription;
    if (idOf(found.customer) !== ctx.user.stripeCustomerId && found.metadata?.userId !== ctx.user.id) return true;
    await ctx.em.transactional((tx) => syncSubscription(tx, stateFromSubscription(found), nowSeconds(ctx.now), ctx.now));
    const fresh = await ctx.em.findOneOrFail(User, { id: ctx.user.id }, { refresh: true });
    ctx.user = fresh;
    return true;
  } catch (error) {
    console.error(`[stripe] reading the subscription failed: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}
