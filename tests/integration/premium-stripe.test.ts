/* eslint-disable @typescript-eslint/no-explicit-any -- Stripe objects are loose JSON in the fake and its tests */
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { MailOutbox, StripeEvent, User } from '../../app/entities';
import { applyStripeEvent, refreshSubscription, setCancelAtPeriodEnd, startCheckout } from '../../app/models/premium.server';
import { loader as publicKeyLoader } from '../../app/routes/api+/stripe.public-key';
import { action as webhookAction } from '../../app/routes/api+/stripe.webhook';
import { action as createAction } from '../../app/routes/api+/subscription.create';
import { action as cancelAction } from '../../app/routes/api+/subscription.cancel';
import { loader as statusLoader } from '../../app/routes/api+/subscription.status';
import { issueUserSession } from '../../app/services/auth.server';
import { clearPaymentConfigCache, getPaymentSettings } from '../../app/services/payment-config.server';
import { ensureMonthlyPrice } from '../../app/services/stripe.server';
import { getRequestContext, type UserContext } from '../../app/services/request-context.server';
import { serializeConsentCookie } from '../../app/web/consent.server';
import { ALL_ACCEPTED, ONLY_NECESSARY } from '../../app/lib/consent';
import { APP_URL, apiRequest, call, createUser, useAuthTestApp } from '../setup/auth-app';
import { startFakeStripe, type FakeStripe } from '../setup/fake-stripe';

const app = useAuthTestApp('premium');
let fake: FakeStripe;

function configure(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  clearPaymentConfigCache();
}

function useFake() {
  configure({
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_BASE: fake.url,
    STRIPE_PRICE_ID: undefined,
  });
}

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  configure({ STRIPE_SECRET_KEY: undefined, STRIPE_PUBLISHABLE_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined, STRIPE_API_BASE: undefined });
  await fake?.close();
});
beforeEach(() => {
  fake.stall = false;
  fake.holdWebhooks = true;
  useFake();
});

const paymentConsent = async () => (await serializeConsentCookie({ preferences: ALL_ACCEPTED, date: new Date().toISOString() })).split(';')[0];
const necessaryOnly = async () => (await serializeConsentCookie({ preferences: ONLY_NECESSARY, date: new Date().toISOString() })).split(';')[0];

async function signedIn() {
  const { user } = await createUser(app.orm);
  const setCookie = await issueUserSession(new Request(`${APP_URL}/`), user.id);
  const session = /__session=[^;]*/.exec(setCookie)![0];
  return { user, session, cookie: `${session}; ${await paymentConsent()}` };
}

async function userContext(cookie: string): Promise<UserContext> {
  const ctx = await getRequestContext({ request: apiRequest('/premium', 'GET', undefined, { cookie }) });
  if (!ctx.user) throw new Error('no user');
  return ctx as UserContext;
}

async function reload(id: string) {
  return app.em().findOneOrFail(User, { id });
}

async function deliver(event: Record<string, any>, { secret, em }: { secret?: string; em?: MikroORM } = {}) {
  const { body, signature } = fake.sign(event, secret);
  if (em) return applyStripeEvent(em.em.fork(), JSON.parse(body));
  const response = await call(webhookAction as never, new Request(`${APP_URL}/api/stripe/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body }));
  return response;
}

async function mails(to: string, template: string) {
  return app.em().count(MailOutbox, { to, template });
}

/** A user who paid through Checkout, with the events Stripe would send. */
async function paidThroughCheckout() {
  const account = await signedIn();
  const ctx = await userContext(account.cookie);
  const started = await startCheckout(ctx, { paymentConsent: true, baseUrl: APP_URL });
  if (started.kind !== 'ok') throw new Error(JSON.stringify(started));
  const sessionId = started.value.url.split('/').pop()!;
  const events = await fake.completeCheckout(sessionId);
  const subscriptionId = fake.checkoutSessions.get(sessionId)!.subscription as string;
  return { ...account, sessionId, events, subscriptionId };
}

describe('configuration', () => {
  it('with nothing configured: no public key, a German refusal, nothing fails', async () => {
    configure({ STRIPE_SECRET_KEY: undefined, STRIPE_PUBLISHABLE_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined });
    const { cookie } = await signedIn();
    const key = await call(publicKeyLoader as never, apiRequest('/api/stripe/public-key', 'GET', undefined, { cookie }));
    expect(await key.json()).toEqual({ publicKey: '' });
    const created = await call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie }));
    expect(created.status).toBe(400);
    expect((await created.json()).message).toBe('Zahlungen sind noch nicht eingerichtet.');
  });

  it('reads stripe_config from the admin settings before the environment', async () => {
    const em = app.em();
    em.create((await import('../../app/entities')).AdminSetting, { key: 'stripe_config', value: JSON.stringify({ secretKey: 'sk_from_settings', publicKey: 'pk_from_settings', webhookSecret: 'whsec_x', monthlyPrice: 499 }) });
    await em.flush();
    clearPaymentConfigCache();
    const settings = await getPaymentSettings(app.em());
    expect(settings).toMatchObject({ secretKey: 'sk_from_settings', publicKey: 'pk_from_settings', monthlyPrice: 499, currency: 'eur', source: 'settings' });
    await app.em().nativeDelete((await import('../../app/entities')).AdminSetting, { key: 'stripe_config' });
    clearPaymentConfigCache();
    expect((await getPaymentSettings(app.em())).source).toBe('env');
  });

  it('creates the product and the VAT-inclusive monthly price once, also when two instances start at once', async () => {
    const second = await MikroORM.init(createOrmConfig(process.env.DATABASE_URL!));
    try {
      const settings = await getPaymentSettings(app.em());
      const before = fake.prices.size;
      const [a, b] = await Promise.all([ensureMonthlyPrice(app.em(), settings), ensureMonthlyPrice(second.em.fork(), settings)]);
      expect(a).toBe(b);
      expect(fake.prices.size).toBe(before + 1);
      expect(fake.products.size).toBe(1);
      expect(fake.prices.get(a)).toMatchObject({ unit_amount: 399, currency: 'eur', tax_behavior: 'inclusive', recurring: { interval: 'month' } });
      // Later calls use the stored id.
      const calls = fake.calls.length;
      expect(await ensureMonthlyPrice(app.em(), settings)).toBe(a);
      expect(fake.calls.length).toBe(calls);
    } finally {
      await second.close(true);
    }
  });
});

describe('subscription with the Payment Element (POST /api/subscription/create)', () => {
  it('needs payment-cookie consent', async () => {
    const { session } = await signedIn();
    const response = await call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie: `${session}; ${await necessaryOnly()}` }));
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe('Bitte erlauben Sie zuerst Zahlungs-Cookies in den Cookie-Einstellungen.');
  });

  it('answers a client secret; the customer is created once and a second click gets the same subscription', async () => {
    const { user, cookie } = await signedIn();
    const subscriptionsBefore = fake.subscriptions.size;
    const customersBefore = fake.customers.size;
    const [first, second] = await Promise.all([
      call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie })),
      call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie })),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    const a = await first.json();
    const b = await second.json();
    expect(a.clientSecret).toMatch(/^pi_sub_\w+_secret_/);
    expect(b.clientSecret).toBe(a.clientSecret);
    const third = await (await call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie }))).json();
    expect(third.clientSecret).toBe(a.clientSecret);
    expect(fake.subscriptions.size).toBe(subscriptionsBefore + 1);
    expect(fake.customers.size).toBe(customersBefore + 1);
    const stored = await reload(user.id);
    expect(stored.subscriptionStatus).toBe('incomplete');
    expect(stored.isPremium).toBe(0);
    expect(fake.customers.get(stored.stripeCustomerId!)?.metadata).toEqual({ userId: user.id });
    // Nothing the browser says grants Premium: the status is still free.
    const status = await (await call(statusLoader as never, apiRequest('/api/subscription/status', 'GET', undefined, { cookie }))).json();
    expect(status).toEqual({ isPremium: false, status: 'incomplete', currentPeriodEnd: expect.any(Number) });

    // Stripe confirms the payment: the webhook makes the user Premium.
    const subscription = fake.updateSubscription(stored.stripeSubscriptionId!, { status: 'active' });
    const response = await deliver(fake.event('customer.subscription.updated', subscription));
    expect(response instanceof Response && response.status).toBe(200);
    const premium = await (await call(statusLoader as never, apiRequest('/api/subscription/status', 'GET', undefined, { cookie }))).json();
    expect(premium).toEqual({ isPremium: true, status: 'active', currentPeriodEnd: subscription.items.data[0].current_period_end });
    expect(await mails(user.email, 'premiumStarted')).toBe(1);

    // A second upgrade attempt is refused, whichever path.
    const again = await call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie }));
    expect(again.status).toBe(403);
    expect((await again.json()).message).toBe('Sie haben bereits ein aktives Premium-Abo.');
    const checkout = await startCheckout(await userContext(cookie), { paymentConsent: true, baseUrl: APP_URL });
    expect(checkout).toMatchObject({ kind: 'forbidden', reason: 'premium:errors.alreadyPremium' });
    expect(fake.subscriptions.size).toBe(subscriptionsBefore + 1);
  });

  it('status is 401 for visitors', async () => {
    const response = await call(statusLoader as never, apiRequest('/api/subscription/status'));
    expect(response.status).toBe(401);
  });

  it('Stripe unreachable: a German message within a few seconds, never a 500', async () => {
    const { cookie } = await signedIn();
    await ensureMonthlyPrice(app.em(), await getPaymentSettings(app.em()));
    fake.stall = true;
    const started = Date.now();
    const response = await call(createAction as never, apiRequest('/api/subscription/create', 'POST', {}, { cookie }));
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Der Zahlungsdienstleister ist gerade nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.');
  });
});

describe('Checkout (no-JS path) and its return', () => {
  it('the return before the webhook shows Premium at once; the late webhooks change nothing more', async () => {
    const { user, cookie, sessionId, events } = await paidThroughCheckout();
    expect(fake.checkoutSessions.get(sessionId)).toMatchObject({ mode: 'subscription', client_reference_id: user.id, success_url: `${APP_URL}/premium?checkout=success&session_id={CHECKOUT_SESSION_ID}` });
    expect((await reload(user.id)).isPremium).toBe(0);
    // The seller is back on /premium before any webhook: the server reads the subscription.
    const ctx = await userContext(cookie);
    expect(await refreshSubscription(ctx, { checkoutSessionId: sessionId })).toBe(true);
    const stored = await reload(user.id);
    expect(stored).toMatchObject({ isPremium: 1, subscriptionStatus: 'active' });
    expect(stored.subscriptionPeriodEnd).toBeInstanceOf(Date);
    expect(await mails(user.email, 'premiumStarted')).toBe(1);
    for (const event of events) await deliver(event);
    expect(await reload(user.id)).toMatchObject({ isPremium: 1, subscriptionStatus: 'active' });
    expect(await mails(user.email, 'premiumStarted')).toBe(1);
  });

  it('another user cannot claim a checkout session', async () => {
    const { sessionId, user } = await paidThroughCheckout();
    const other = await signedIn();
    await refreshSubscription(await userContext(other.cookie), { checkoutSessionId: sessionId });
    expect((await reload(other.user.id)).isPremium).toBe(0);
    expect((await reload(user.id)).isPremium).toBe(0);
  });

  it('the webhooks alone make the user Premium', async () => {
    const { user, events } = await paidThroughCheckout();
    for (const event of events) await deliver(event);
    expect(await reload(user.id)).toMatchObject({ isPremium: 1, subscriptionStatus: 'active' });
  });
});

describe('webhook', () => {
  it('a forged signature is 400 and changes nothing', async () => {
    const { user, events, subscriptionId } = await paidThroughCheckout();
    const forged = await deliver(events[0], { secret: 'whsec_not_the_secret' });
    expect((forged as Response).status).toBe(400);
    expect(((await (forged as Response).json()) as { message: string }).message).toBe('Die Stripe-Signatur ist ungültig.');
    const unsigned = await call(webhookAction as never, new Request(`${APP_URL}/api/stripe/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(events[0]) }));
    expect(unsigned.status).toBe(400);
    expect((await reload(user.id)).isPremium).toBe(0);
    expect(await app.em().count(StripeEvent, { id: events[0].id })).toBe(0);
    void subscriptionId;
  });

  it('unknown event types get 200 and are ignored', async () => {
    const response = (await deliver(fake.event('charge.refunded', { id: 'ch_1', object: 'charge' }))) as Response;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, outcome: 'ignored' });
  });

  it('the same event delivered twice, and to two instances at once, applies once', async () => {
    const { user, events } = await paidThroughCheckout();
    const second = await MikroORM.init(createOrmConfig(process.env.DATABASE_URL!));
    try {
      const created = events[0];
      const outcomes = await Promise.all([deliver(created, { em: app.orm }), deliver(created, { em: second })]);
      expect(outcomes.sort()).toEqual(['applied', 'duplicate']);
      expect(await deliver(created, { em: app.orm })).toBe('duplicate');
      expect(await app.em().count(StripeEvent, { id: created.id })).toBe(1);
      expect(await mails(user.email, 'premiumStarted')).toBe(1);
    } finally {
      await second.close(true);
    }
  });

  it('events apply in the order of their created time: an old "active" after "deleted" does not bring Premium back', async () => {
    const { user, events, subscriptionId } = await paidThroughCheckout();
    for (const event of events) await deliver(event);
    const t = Math.floor(Date.now() / 1000);
    const active = fake.event('customer.subscription.updated', fake.updateSubscription(subscriptionId, { status: 'active' }), t + 10);
    const deleted = fake.event('customer.subscription.deleted', fake.updateSubscription(subscriptionId, { status: 'canceled' }), t + 20);
    await deliver(deleted);
    expect(await reload(user.id)).toMatchObject({ isPremium: 0, subscriptionStatus: 'canceled' });
    expect(await mails(user.email, 'premiumEnded')).toBe(1);
    await deliver(active);
    expect(await reload(user.id)).toMatchObject({ isPremium: 0, subscriptionStatus: 'canceled' });
  });

  it('past_due keeps Premium and mails the seller; a paid invoice brings it back to active; canceled ends it', async () => {
    const { user, events, subscriptionId } = await paidThroughCheckout();
    for (const event of events) await deliver(event);
    const t = Math.floor(Date.now() / 1000);
    await deliver(fake.event('invoice.payment_failed', fake.invoiceFor(subscriptionId), t + 5));
    expect(await reload(user.id)).toMatchObject({ isPremium: 1, subscriptionStatus: 'past_due' });
    expect(await mails(user.email, 'paymentFailed')).toBe(1);
    const mail = await app.em().findOneOrFail(MailOutbox, { to: user.email, template: 'paymentFailed' });
    expect(mail.subject).toBe('Ihre Premium-Zahlung ist fehlgeschlagen');
    expect(mail.text).toContain(`${APP_URL}/premium`);
    await deliver(fake.event('invoice.paid', { ...fake.invoiceFor(subscriptionId), status: 'paid' }, t + 6));
    expect(await reload(user.id)).toMatchObject({ isPremium: 1, subscriptionStatus: 'active' });
    await deliver(fake.event('customer.subscription.updated', fake.updateSubscription(subscriptionId, { status: 'unpaid' }), t + 7));
    expect(await reload(user.id)).toMatchObject({ isPremium: 0, subscriptionStatus: 'unpaid' });
    const ended = await app.em().findOneOrFail(MailOutbox, { to: user.email, template: 'premiumEnded' });
    expect(ended.subject).toBe('Ihr Premium-Abo ist beendet');
  });
});

describe('cancel and undo', () => {
  it('cancels at the period end, keeps Premium, and takes it back', async () => {
    const { user, cookie, events, subscriptionId } = await paidThroughCheckout();
    for (const event of events) await deliver(event);
    const response = await call(cancelAction as never, apiRequest('/api/subscription/cancel', 'POST', {}, { cookie }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ isPremium: true, status: 'active', cancelAtPeriodEnd: true });
    expect(fake.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(true);
    expect(await reload(user.id)).toMatchObject({ isPremium: 1, subscriptionCancelAtPeriodEnd: true });
    const resumed = await setCancelAtPeriodEnd(await userContext(cookie), false);
    expect(resumed.kind).toBe('ok');
    expect(fake.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);
    expect(await reload(user.id)).toMatchObject({ isPremium: 1, subscriptionCancelAtPeriodEnd: false });
  });

  it('a free user has nothing to cancel (German 400)', async () => {
    const { cookie } = await signedIn();
    const response = await call(cancelAction as never, apiRequest('/api/subscription/cancel', 'POST', {}, { cookie }));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Es gibt kein laufendes Abo.');
  });

  it('Stripe refusing the cancellation says so in German', async () => {
    const { cookie, events, subscriptionId } = await paidThroughCheckout();
    for (const event of events) await deliver(event);
    fake.subscriptions.delete(subscriptionId);
    const response = await call(cancelAction as never, apiRequest('/api/subscription/cancel', 'POST', {}, { cookie }));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Abonnement konnte nicht gekündigt werden.');
  });
});
