import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSetting } from '../entities';
import { getGoogleAdsConfig, getStripeConfig, type GoogleAdsConfig, type StripeConfig } from './admin-settings.server';
import { isDatabaseUnavailable } from './database-outage.server';

/**
 * Payment and ads settings as the app uses them: the admin settings groups
 * (`stripe_config`, `google_ads_config`) when an admin filled them, else the
 * environment. Read at most every CONFIG_TTL_MS per process, so a change made
 * on one instance shows on every instance within a minute (together with the
 * visitor page cache's 30 s on ad pages, see ADS_PAGE_MAX_AGE).
 */
export const CONFIG_TTL_MS = 30_000;

export type PaymentSettings = StripeConfig & {
  /** Where the SDK sends its requests: STRIPE_API_BASE (tests and local fakes only), else Stripe. */
  apiBase: string | null;
  /** Where the settings came from, for the log and the docs. */
  source: 'settings' | 'env' | 'none';
};

/** What the browser may know about ads (spec §3 "Ads config as read by the client"). */
export type AdsSettings = GoogleAdsConfig;

type Cached<T> = { value: T; expires: number };
let stripeCache: Cached<PaymentSettings> | null = null;
let adsCache: Cached<AdsSettings> | null = null;

function env(name: string): string {
  return (process.env[name] ?? '').trim();
}

function envFlag(name: string, fallback: boolean): boolean {
  const value = env(name).toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  return fallback;
}

async function hasSetting(em: EntityManager, key: string): Promise<boolean> {
  return (await em.count(AdminSetting, { key })) > 0;
}

/** Reads the payment settings now (no cache). */
export async function readPaymentSettings(em: EntityManager): Promise<PaymentSettings> {
  const stored = await getStripeConfig(em);
  const apiBase = env('STRIPE_API_BASE') || null;
  if (stored.secretKey) return { ...stored, apiBase, source: 'settings' };
  const fromEnv: PaymentSettings = {
    ...stored,
    secretKey: env('STRIPE_SECRET_KEY'),
    publicKey: env('STRIPE_PUBLISHABLE_KEY'),
    webhookSecret: env('STRIPE_WEBHOOK_SECRET'),
    priceId: stored.priceId || env('STRIPE_PRICE_ID'),
    apiBase,
    source: 'env',
  };
  if (!fromEnv.secretKey) fromEnv.source = 'none';
  return fromEnv;
}

/** Reads the ads settings now (no cache): the stored group when there is one, else GOOGLE_ADS_*. */
export async function readAdsSettings(em: EntityManager): Promise<AdsSettings> {
  return (await readAdsSettingsWithSource(em)).settings;
}

/**
 * The ads settings and where they come from (the admin's status tab): a saved
 * group wins even when empty; else GOOGLE_ADS_* when any of them is set
 * ('env'); else nothing ('none': the defaults, ads on without a client id,
 * which shows placeholders).
 */
export async function readAdsSettingsWithSource(em: EntityManager): Promise<{ settings: AdsSettings; source: 'settings' | 'env' | 'none' }> {
  const stored = await getGoogleAdsConfig(em);
  if (await hasSetting(em, 'google_ads_config')) return { settings: stored, source: 'settings' };
  const fromEnv = ['GOOGLE_ADS_CLIENT_ID', 'GOOGLE_ADS_SLOT_ID', 'GOOGLE_ADS_ENABLED', 'GOOGLE_ADS_TEST_MODE'].some((name) => env(name) !== '');
  return { settings: envAdsSettings(stored), source: fromEnv ? 'env' : 'none' };
}

function envAdsSettings(defaults: Pick<AdsSettings, 'enableAds' | 'testMode'>): AdsSettings {
  return {
    clientId: env('GOOGLE_ADS_CLIENT_ID'),
    adSlotId: env('GOOGLE_ADS_SLOT_ID'),
    enableAds: envFlag('GOOGLE_ADS_ENABLED', defaults.enableAds),
    testMode: envFlag('GOOGLE_ADS_TEST_MODE', defaults.testMode),
  };
}

export async function getPaymentSettings(em: EntityManager, now = Date.now()): Promise<PaymentSettings> {
  if (stripeCache && stripeCache.expires > now) return stripeCache.value;
  const value = await readPaymentSettings(em);
  stripeCache = { value, expires: now + CONFIG_TTL_MS };
  return value;
}

export async function getAdsSettings(em: EntityManager, now = Date.now()): Promise<AdsSettings> {
  if (adsCache && adsCache.expires > now) return adsCache.value;
  let value: AdsSettings;
  try {
    value = await readAdsSettings(em);
  } catch (error) {
    // Every page's root loader asks for the ads: during a database outage a visitor's calculator
    // (which needs no database) keeps being served with the last known settings, else the
    // environment's, and asks again in a few seconds.
    if (!isDatabaseUnavailable(error)) throw error;
    value = adsCache?.value ?? envAdsSettings({ enableAds: true, testMode: false });
    adsCache = { value, expires: now + OUTAGE_RETRY_MS };
    return value;
  }
  adsCache = { value, expires: now + CONFIG_TTL_MS };
  return value;
}

const OUTAGE_RETRY_MS = 5_000;

/** Forgets the cached settings (the admin form after a save on this instance; tests). */
export function clearPaymentConfigCache(): void {
  stripeCache = null;
  adsCache = null;
}

/** Payments can be offered: a secret key to call Stripe and a webhook secret to hear back. */
export function isPaymentConfigured(settings: PaymentSettings): boolean {
  return Boolean(settings.secretKey && settings.webhookSecret);
}
