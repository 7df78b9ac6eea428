import { afterEach, describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { loader as adminLoader } from '../../app/routes/_admin+/admin';
import { clearPaymentConfigCache } from '../../app/services/payment-config.server';
import type { AdminStatus } from '../../app/domain/admin-views';
import { apiRequest, signedInUser, useAuthTestApp } from '../setup/auth-app';

/**
 * The status tab says where payment, ads, mail and the contact recipient come
 * from: the admin settings, or environment variables that apply only while
 * the group is not saved (issue 20: the overview did not say so).
 */
const app = useAuthTestApp('adminsources');

const ENV = ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET', 'GOOGLE_ADS_CLIENT_ID', 'GOOGLE_ADS_SLOT_ID', 'GOOGLE_ADS_TEST_MODE'];

afterEach(() => {
  for (const name of ENV) delete process.env[name];
  clearPaymentConfigCache();
});

async function statusOf(cookie: string): Promise<AdminStatus> {
  const data = (await adminLoader({ request: apiRequest('/admin?tab=status', 'GET', undefined, { cookie }), params: {}, context: {} })) as {
    status: { status: AdminStatus };
  };
  return data.status.status;
}

async function tabSource(cookie: string, tab: string): Promise<string> {
  const data = (await adminLoader({ request: apiRequest(`/admin?tab=${tab}`, 'GET', undefined, { cookie }), params: {}, context: {} })) as { source: string };
  return data.source;
}

async function save(cookie: string, tab: string, fields: Record<string, string>) {
  const { action } = await import('../../app/routes/_admin+/admin');
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': '127.0.0.1', Cookie: cookie });
  const request = new Request(`http://localhost:3000/admin?tab=${tab}`, { method: 'POST', headers, body: new URLSearchParams({ intent: 'save', tab, ...fields }).toString() });
  const response = (await action({ request, params: {}, context: {} })) as Response;
  expect(response.status).toBe(302);
}

describe('status tab: where the settings come from', () => {
  it('names the environment while a group is not saved, the settings once it is, and nothing when neither has values', async () => {
    for (const name of ENV) delete process.env[name];
    const admin = await signedInUser(app.orm);
    await app.em().nativeUpdate(User, { id: admin.user.id }, { isAdmin: 1 });

    let status = await statusOf(admin.cookie);
    expect(status.configured).toMatchObject({ payment: false, paymentSource: 'none', ads: 'missing', adsSource: 'none' });

    // One variable is enough to make the environment the source (test mode shows placeholders).
    process.env.GOOGLE_ADS_TEST_MODE = 'true';
    clearPaymentConfigCache();
    status = await statusOf(admin.cookie);
    expect(status.configured).toMatchObject({ ads: 'test', adsSource: 'env' });

    // Payment and ads from the environment: in effect, and said to come from there.
    Object.assign(process.env, {
      STRIPE_SECRET_KEY: 'sk_test_env',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_env',
      STRIPE_WEBHOOK_SECRET: 'whsec_env',
      GOOGLE_ADS_CLIENT_ID: 'ca-pub-1234567890',
      GOOGLE_ADS_SLOT_ID: '42',
      GOOGLE_ADS_TEST_MODE: 'true',
    });
    status = await statusOf(admin.cookie);
    expect(status.configured).toMatchObject({ payment: true, paymentSource: 'env', ads: 'test', adsSource: 'env' });
    // The tabs say it too (their note: saving replaces the environment).
    expect(await tabSource(admin.cookie, 'stripe')).toBe('env');
    expect(await tabSource(admin.cookie, 'google-ads')).toBe('env');

    // Saved in the tabs: the settings win, and the overview says so.
    await save(admin.cookie, 'google-ads', { clientId: 'ca-pub-9999999999', adSlotId: '7', enableAds: 'on' });
    await save(admin.cookie, 'stripe', {
      publicKey: 'pk_test_saved',
      secretKey: 'sk_test_saved',
      productId: 'prod_1',
      priceId: '',
      webhookSecret: 'whsec_saved',
      currency: 'eur',
      monthlyPrice: '399',
    });
    status = await statusOf(admin.cookie);
    expect(status.configured).toMatchObject({ payment: true, paymentSource: 'settings', ads: 'on', adsSource: 'settings' });
    expect(await tabSource(admin.cookie, 'stripe')).toBe('settings');
    expect(await tabSource(admin.cookie, 'google-ads')).toBe('settings');
    // The page data carries no secret, from either source.
    expect(JSON.stringify(status)).not.toMatch(/sk_test|whsec_/);
  });
});
