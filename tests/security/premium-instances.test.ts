import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminSetting, MailOutbox, StripeEvent, User } from '../../app/entities';
import { startFakeStripe, type FakeStripe } from '../setup/fake-stripe';
import { startTestServer, type TestServer } from './server';

/**
 * Two app instances (real servers, one worker each) on one database (issue 21 §5):
 * the same webhook delivered to both at once applies once, and an ads setting
 * changed through one shows on the other within a minute, caches included.
 */
let fake: FakeStripe;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  fake = await startFakeStripe();
  const env = {
    STRIPE_SECRET_KEY: fake.secretKey,
    STRIPE_PUBLISHABLE_KEY: fake.publishableKey,
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_API_BASE: fake.url,
    GOOGLE_ADS_TEST_MODE: 'true',
  };
  a = await startTestServer('sec_premium', env);
  const databaseUrl = String(a.orm.config.get('clientUrl'));
  b = await startTestServer('sec_premium_b', env, { databaseUrl });
}, 240_000);
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await fake?.close();
});

// The consent cookie as the server writes it (base64 JSON): the dialog was answered, so slots show their placeholder.
const consent = `cookie_consent=${encodeURIComponent(Buffer.from(JSON.stringify({ preferences: { essential: true, analytics: false, marketing: false, payment: false }, date: new Date().toISOString() })).toString('base64'))}`;

describe('two instances on one database', () => {
  it('the same webhook delivered to both at once applies once', async () => {
    const em = a.orm.em.fork();
    const user = em.create(User, { email: 'zwei.instanzen@example.de', password: 'x', emailVerified: true, stripeCustomerId: 'cus_two_instances' });
    await em.flush();
    const subscription = {
      id: 'sub_two_instances',
      object: 'subscription',
      customer: 'cus_two_instances',
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      metadata: { userId: user.id },
      items: { object: 'list', data: [{ id: 'si_1', current_period_start: 1, current_period_end: 2_000_000_000 }] },
    };
    const { body, signature } = fake.sign(fake.event('customer.subscription.created', subscription));
    const post = (server: TestServer) =>
      fetch(`${server.url}/api/stripe/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body });
    const answers = await Promise.all([post(a), post(b), post(a), post(b)]);
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const outcomes = (await Promise.all(answers.map((response) => response.json() as Promise<{ outcome: string }>))).map((answer) => answer.outcome).sort();
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate', 'duplicate']);
    const check = a.orm.em.fork();
    expect(await check.count(StripeEvent, {})).toBe(1);
    expect(await check.findOneOrFail(User, { id: user.id })).toMatchObject({ isPremium: 1, subscriptionStatus: 'active', stripeSubscriptionId: 'sub_two_instances' });
    expect(await check.count(MailOutbox, { to: user.email, template: 'premiumStarted' })).toBe(1);

    // A forged delivery changes nothing on either instance.
    const forged = await fetch(`${b.url}/api/stripe/webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: body.replace('"active"', '"canceled"') });
    expect(forged.status).toBe(400);
  });

  it('an ads setting changed through one instance shows on the other within a minute', async () => {
    const slots = async (server: TestServer) => {
      const html = await (await fetch(`${server.url}/`, { headers: { Cookie: consent } })).text();
      return (html.match(/data-ad-placeholder/g) ?? []).length;
    };
    // Both instances have rendered (and cached) the landing page with its ad slot.
    expect(await slots(a)).toBe(1);
    expect(await slots(b)).toBe(1);
    expect(await slots(b)).toBe(1);
    const changedAt = Date.now();
    const em = a.orm.em.fork();
    em.create(AdminSetting, { key: 'google_ads_config', value: JSON.stringify({ enableAds: false, testMode: true }) });
    await em.flush();
    let seen = -1;
    while (Date.now() - changedAt < 65_000) {
      if ((await slots(b)) === 0) {
        seen = Date.now() - changedAt;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
    expect(seen, 'the change never showed on the other instance').toBeGreaterThanOrEqual(0);
    expect(seen).toBeLessThanOrEqual(60_000);
    expect(await slots(a)).toBe(0);
    const config = await (await fetch(`${b.url}/api/google-ads-config`)).json();
    expect(config).toEqual({ enableAds: false, testMode: true, clientId: '', adSlotId: '' });
  }, 90_000);
});
