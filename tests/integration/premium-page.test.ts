/* eslint-disable @typescript-eslint/no-explicit-any -- Stripe objects are loose JSON in the fake and its tests */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminSetting, ContactMessage, User } from '../../app/entities';
import { adsViewOf, getAdsView } from '../../app/models/ads.server';
import { submitContactMessage } from '../../app/models/contact.server';
import { action as premiumAction, loader as premiumLoader } from '../../app/routes/_account+/premium';
import { loader as adsConfigLoader } from '../../app/routes/api+/google-ads-config';
import { loader as rootLoader } from '../../app/root';
import { issueUserSession } from '../../app/services/auth.server';
import { clearPaymentConfigCache, CONFIG_TTL_MS, getAdsSettings } from '../../app/services/payment-config.server';
import { getRequestContext } from '../../app/services/request-context.server';
import { serializeConsentCookie } from '../../app/web/consent.server';
import { ALL_ACCEPTED, ONLY_NECESSARY } from '../../app/lib/consent';
import { APP_URL, apiRequest, call, createUser, useAuthTestApp } from '../setup/auth-app';
import { startFakeStripe, type FakeStripe } from '../setup/fake-stripe';

const app = useAuthTestApp('premium_page');
let fake: FakeStripe;

function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  clearPaymentConfigCache();
}

const STRIPE_ENV = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE'];

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  setEnv(Object.fromEntries(STRIPE_ENV.map((name) => [name, undefined])));
  await fake?.close();
});
beforeEach(() => {
  fake.holdWebhooks = true;
  fake.stall = false;
  setEnv({ STRIPE_SECRET_KEY: fake.secretKey, STRIPE_PUBLISHABLE_KEY: fake.publishableKey, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_BASE: fake.url });
});

const consentCookie = async (all = true) =>
  (await serializeConsentCookie({ preferences: all ? ALL_ACCEPTED : ONLY_NECESSARY, date: new Date().toISOString() })).split(';')[0];

async function signedIn({ consent = true } = {}) {
  const { user } = await createUser(app.orm);
  const setCookie = await issueUserSession(new Request(`${APP_URL}/`), user.id);
  const session = /__session=[^;]*/.exec(setCookie)![0];
  return { user, cookie: `${session}; ${await consentCookie(consent)}` };
}

type Answer = { status: number; headers: Headers; data: any };

/** Runs the page action: a Response (redirect) or Remix's `data()` (status + action data). */
async function act(request: Request): Promise<Answer> {
  let result: any;
  try {
    result = await (premiumAction as any)({ request, params: {}, context: {} });
  } catch (error) {
    result = error;
  }
  if (result instanceof Response) return { status: result.status, headers: result.headers, data: null };
  if (result?.type === 'DataWithResponseInit') return { status: result.init?.status ?? 200, headers: new Headers(result.init?.headers), data: result.data };
  throw result instanceof Error ? result : new Error('unexpected answer');
}

function form(fields: Record<string, string>, cookie: string) {
  return new Request(`${APP_URL}/premium`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, 'x-druckpreis-client-ip': '127.0.0.1' },
    body: new URLSearchParams(fields),
  });
}

async function page(path: string, cookie?: string) {
  const response = await call(premiumLoader as never, apiRequest(path, 'GET', undefined, { cookie }));
  return response;
}

/** Loaders return plain objects; `call` wants a Response, so the loader is called directly here. */
async function pageData(path: string, cookie?: string): Promise<any> {
  try {
    return await (premiumLoader as any)({ request: apiRequest(path, 'GET', undefined, { cookie }), params: {}, context: {} });
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

describe('/premium without JavaScript', () => {
  it('shows visitors the sign-in card data and the price from the configured cents', async () => {
    const data = await pageData('/premium');
    expect(data).toMatchObject({ signedIn: false, offer: { configured: true, monthlyPrice: 399, currency: 'eur' } });
  });

  it('the upgrade form answers 303 to Stripe Checkout; the customer is created once and reused', async () => {
    const { user, cookie } = await signedIn();
    const first = await act(form({ intent: 'checkout' }, cookie));
    expect(first.status).toBe(303);
    const location = first.headers.get('Location')!;
    expect(location).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`));
    const stored = await app.em().findOneOrFail(User, { id: user.id });
    expect(stored.stripeCustomerId).toMatch(/^cus_/);
    const second = await act(form({ intent: 'checkout' }, cookie));
    expect(second.headers.get('Location')).toBe(location);
    expect((await app.em().findOneOrFail(User, { id: user.id })).stripeCustomerId).toBe(stored.stripeCustomerId);
    expect([...fake.customers.values()].filter((customer) => customer.metadata.userId === user.id)).toHaveLength(1);

    // Paid on Checkout; the seller is back before the webhook: one server-side read, then the clean page.
    const sessionId = location.split('/').pop()!;
    await fake.completeCheckout(sessionId);
    const back = await pageData(`/premium?checkout=success&session_id=${sessionId}`, cookie);
    expect(back).toBeInstanceOf(Response);
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe('/premium');
    expect(back.headers.get('Set-Cookie')).toMatch(/toast/);
    const data = await pageData('/premium', cookie);
    expect(data.status).toMatchObject({ isPremium: true, status: 'active' });

    // The portal is reached the same way.
    const portal = await act(form({ intent: 'portal' }, cookie));
    expect(portal.status).toBe(303);
    expect(portal.headers.get('Location')).toMatch(new RegExp(`^${fake.url}/portal/bps_`));

    // Cancel (confirmed by its own form) and undo, with toasts.
    const cancelled = await act(form({ intent: 'cancel' }, cookie));
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('Set-Cookie')).toMatch(/toast/);
    expect((await pageData('/premium', cookie)).cancelAtPeriodEnd).toBe(true);
    const resumed = await act(form({ intent: 'resume' }, cookie));
    expect(resumed.status).toBe(303);
    expect((await pageData('/premium', cookie)).cancelAtPeriodEnd).toBe(false);

    // A second upgrade is refused.
    const again = await act(form({ intent: 'checkout' }, cookie));
    expect(again.status).toBe(403);
    expect(again.data.formError).toBe('Sie haben bereits ein aktives Premium-Abo.');
  });

  it('without payment-cookie consent there is no Checkout', async () => {
    const { cookie } = await signedIn({ consent: false });
    const response = await act(form({ intent: 'checkout' }, cookie));
    const sessions = fake.checkoutSessions.size;
    expect(response.status).toBe(403);
    expect(response.data.formError).toBe('Bitte erlauben Sie zuerst Zahlungs-Cookies in den Cookie-Einstellungen.');
    expect(fake.checkoutSessions.size).toBe(sessions);
  });

  it('with nothing configured the page renders and says so; the action refuses in German', async () => {
    setEnv(Object.fromEntries(STRIPE_ENV.map((name) => [name, undefined])));
    const { cookie } = await signedIn();
    const data = await pageData('/premium', cookie);
    expect(data.offer).toMatchObject({ configured: false, publicKey: '' });
    const response = await act(form({ intent: 'checkout' }, cookie));
    expect(response.status).toBe(400);
    expect(response.data.formError).toBe('Zahlungen sind noch nicht eingerichtet.');
  });

  it('Stripe unreachable on the return: the page still renders within a few seconds, with the message', async () => {
    const { cookie } = await signedIn();
    const started = await act(form({ intent: 'checkout' }, cookie));
    const sessionId = started.headers.get('Location')!.split('/').pop()!;
    fake.stall = true;
    const before = Date.now();
    const data = await pageData(`/premium?checkout=success&session_id=${sessionId}`, cookie);
    expect(Date.now() - before).toBeLessThan(6_000);
    expect(data.reachable).toBe(false);
    expect(data.signedIn).toBe(true);
  });

  it('an unknown intent is a 400, visitors are sent to sign in', async () => {
    const { cookie } = await signedIn();
    expect((await act(form({ intent: 'nope' }, cookie))).status).toBe(400);
    const visitor = await act(form({ intent: 'checkout' }, ''));
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('Location')).toMatch(/^\/auth\?/);
    void page;
  });
});

describe('past_due banner and priority support', () => {
  it('the root loader asks past_due Premium users for a new card; Premium contact messages are flagged', async () => {
    const { user, cookie } = await signedIn();
    await app.em().nativeUpdate(User, { id: user.id }, { isPremium: 1, subscriptionStatus: 'past_due' });
    const root = await (rootLoader as any)({ request: apiRequest('/calculator', 'GET', undefined, { cookie }), params: {}, context: {} });
    const data = root.data ?? root;
    expect(data.pastDue).toBe(true);
    expect(data.roles.isPremium).toBe(true);
    expect(data.ads.show).toBe(false);

    const admin = await createUser(app.orm);
    await app.em().nativeUpdate(User, { id: admin.user.id }, { isAdmin: 1 });
    const { sendContactMessage } = await import('../../app/models/contact.server');
    const ctx = await getRequestContext({ request: apiRequest('/kontakt', 'POST', undefined, { cookie }) });
    const sent = await sendContactMessage(ctx, { name: 'Anna', email: user.email, subject: 'Frage', message: 'Hallo' });
    expect(sent.kind).toBe('ok');
    const message = await app.em().findOneOrFail(ContactMessage, { email: user.email });
    expect(message).toMatchObject({ isPremium: true, subject: 'Frage' });
    await submitContactMessage(app.em(), { name: 'Bert', email: 'bert@example.de', subject: 'Frage', message: 'Hallo' }, '127.0.0.1');
    const { MailOutbox } = await import('../../app/entities');
    const notifications = await app.em().find(MailOutbox, { template: 'contactNotification' }, { orderBy: { createdAt: 'asc' } });
    expect(notifications.map((mail) => mail.subject)).toEqual([expect.stringContaining('[Premium] Frage'), expect.not.stringContaining('[Premium]')]);
    expect(await app.em().findOneOrFail(ContactMessage, { email: 'bert@example.de' })).toMatchObject({ isPremium: false });
  });
});

describe('ads', () => {
  it('decides slots: none for Premium, a placeholder in test mode, AdSense with a client id, nothing loads before consent', () => {
    const settings = { enableAds: true, testMode: true, clientId: 'ca-pub-1', adSlotId: '42' };
    const consent = { preferences: ONLY_NECESSARY, date: new Date().toISOString() };
    expect(adsViewOf(settings, { premium: true, consent })).toMatchObject({ show: false });
    expect(adsViewOf(settings, { premium: false, consent })).toMatchObject({ show: true, mode: 'placeholder', consentAnswered: true });
    expect(adsViewOf({ ...settings, testMode: false }, { premium: false, consent })).toMatchObject({ mode: 'adsense', clientId: 'ca-pub-1', nonPersonalized: true });
    expect(adsViewOf({ ...settings, testMode: false }, { premium: false, consent: { ...consent, preferences: ALL_ACCEPTED } })).toMatchObject({ nonPersonalized: false });
    expect(adsViewOf({ ...settings, testMode: false }, { premium: false, consent: null })).toMatchObject({ consentAnswered: false });
    expect(adsViewOf({ ...settings, enableAds: false }, { premium: false, consent })).toMatchObject({ show: false });
  });

  it('GET /api/google-ads-config answers the settings with a 5-minute cache header; a change shows within a minute', async () => {
    const em = app.em();
    em.create(AdminSetting, { key: 'google_ads_config', value: JSON.stringify({ clientId: 'ca-pub-7', adSlotId: '99', enableAds: true, testMode: false }) });
    await em.flush();
    clearPaymentConfigCache();
    const response = await call(adsConfigLoader as never, apiRequest('/api/google-ads-config'));
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    expect(await response.json()).toEqual({ enableAds: true, testMode: false, clientId: 'ca-pub-7', adSlotId: '99' });

    // Changed through another instance: this one follows within CONFIG_TTL_MS (30 s).
    await app.em().nativeUpdate(AdminSetting, { key: 'google_ads_config' }, { value: JSON.stringify({ enableAds: false }) });
    const now = Date.now();
    expect((await getAdsSettings(app.em(), now)).enableAds).toBe(true);
    expect((await getAdsSettings(app.em(), now + CONFIG_TTL_MS + 1)).enableAds).toBe(false);
    expect(CONFIG_TTL_MS).toBeLessThanOrEqual(30_000);
    const ctx = await getRequestContext({ request: apiRequest('/') });
    expect((await getAdsView(ctx, null)).show).toBe(false);
    await app.em().nativeDelete(AdminSetting, { key: 'google_ads_config' });
    clearPaymentConfigCache();
  });
});
