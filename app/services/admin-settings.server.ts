import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSetting } from '~/entities';
import { getServerT } from '~/i18n.server';

/** admin_settings.email_config (spec §3). */
export type EmailConfig = {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string;
  fromEmail: string;
  fromName: string;
  verificationSubject: string;
  /** Base URL for links in mails; empty: APP_URL. */
  verificationUrl: string;
};

/** admin_settings.contact_config (spec §3). */
export type ContactConfig = {
  contactEmail: string;
  autoReplySubject: string;
  autoReplyMessage: string;
  enabled: boolean;
};

/** admin_settings.stripe_config (spec §3). */
export type StripeConfig = {
  publicKey: string;
  secretKey: string;
  productId: string;
  /** Optional: empty means the app creates the product and monthly price itself. */
  priceId: string;
  webhookSecret: string;
  currency: string;
  /** Cents. */
  monthlyPrice: number;
};

/** admin_settings.google_ads_config (spec §3). */
export type GoogleAdsConfig = {
  clientId: string;
  adSlotId: string;
  enableAds: boolean;
  testMode: boolean;
};

export const STRIPE_CONFIG_DEFAULTS: StripeConfig = {
  publicKey: '',
  secretKey: '',
  productId: '',
  priceId: '',
  webhookSecret: '',
  currency: 'eur',
  monthlyPrice: 399,
};

export const GOOGLE_ADS_CONFIG_DEFAULTS: GoogleAdsConfig = { clientId: '', adSlotId: '', enableAds: true, testMode: false };

export const DEFAULT_FROM_EMAIL = 'noreply@druckpreis.local';

/** The spec's defaults; the German ones come from public/locales/de/mail.json. */
export async function getEmailConfigDefaults(): Promise<EmailConfig> {
  const t = await getServerT('mail');
  return {
    host: '',
    port: 587,
    secure: false,
    user: '',
    password: '',
    fromEmail: DEFAULT_FROM_EMAIL,
    fromName: t('defaults.fromName'),
    verificationSubject: t('defaults.verificationSubject'),
    verificationUrl: '',
  };
}

export async function getContactConfigDefaults(): Promise<ContactConfig> {
  const t = await getServerT('mail');
  return {
    contactEmail: '',
    autoReplySubject: t('defaults.autoReplySubject'),
    autoReplyMessage: t('defaults.autoReplyMessage'),
    enabled: true,
  };
}

/** Stored e-mail settings merged over the defaults (the password included: server use only). */
export async function getEmailConfig(em: EntityManager): Promise<EmailConfig> {
  return mergeSettings(await getEmailConfigDefaults(), await readSettingJson(em, 'email_config'));
}

export async function getContactConfig(em: EntityManager): Promise<ContactConfig> {
  return mergeSettings(await getContactConfigDefaults(), await readSettingJson(em, 'contact_config'));
}

/** Stored payment settings merged over the spec's defaults (secrets included: server use only). */
export async function getStripeConfig(em: EntityManager): Promise<StripeConfig> {
  return mergeSettings({ ...STRIPE_CONFIG_DEFAULTS }, await readSettingJson(em, 'stripe_config'));
}

export async function getGoogleAdsConfig(em: EntityManager): Promise<GoogleAdsConfig> {
  return mergeSettings({ ...GOOGLE_ADS_CONFIG_DEFAULTS }, await readSettingJson(em, 'google_ads_config'));
}

async function readSettingJson(em: EntityManager, key: string): Promise<Record<string, unknown>> {
  const row = await em.findOne(AdminSetting, { key }, { disableIdentityMap: true });
  if (!row) return {};
  try {
    const parsed: unknown = JSON.parse(row.value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    console.error(`[settings] admin_settings.${key} is not valid JSON; using the defaults`);
    return {};
  }
}

/**
 * Takes each known field from `stored` when it has the default's type (numbers
 * and booleans also from their string forms). A blank text falls back to a
 * non-blank default, so a cleared field in the admin form means "default".
 */
function mergeSettings<T extends Record<string, string | number | boolean>>(defaults: T, stored: Record<string, unknown>): T {
  const result: Record<string, string | number | boolean> = { ...defaults };
  for (const [key, fallback] of Object.entries(defaults)) {
    const value = stored[key];
    if (value === undefined || value === null) continue;
    if (typeof fallback === 'string') {
      if (typeof value === 'string' || typeof value === 'number') {
        // Secrets are taken as typed; everything else is trimmed.
        const text = key === 'password' ? String(value) : String(value).trim();
        result[key] = text === '' && fallback !== '' ? fallback : text;
      }
    } else if (typeof fallback === 'number') {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : NaN;
      if (Number.isFinite(number)) result[key] = number;
    } else if (typeof value === 'boolean') {
      result[key] = value;
    } else if (value === 'true' || value === 1 || value === '1') {
      result[key] = true;
    } else if (value === 'false' || value === 0 || value === '0') {
      result[key] = false;
    }
  }
  return result as T;
}
