import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSetting } from '~/entities';
import { getServerT } from '~/i18n.server';
import { decryptSecret, encryptSecret, SECRET_FIELDS_BY_GROUP } from './settings-crypto.server';

/**
 * The admin settings (spec §3 `admin_settings`): one row per group, its value
 * the group's JSON. Secret fields are stored encrypted (settings-crypto.server.ts)
 * and are only ever decrypted here, for server use; what an admin sees is
 * `maskSettings`.
 *
 * Every read goes to the database (no per-process cache), so a change saved
 * on one instance is in effect on every other at its next read.
 */

/** admin_settings.stripe_config (spec §3). */
export type StripeConfig = {
  publicKey: string;
  secretKey: string;
  productId: string;
  /** Optional; created by the Premium code when empty. */
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

/** admin_settings.operator_config: the operator details the legal pages show (Impressum, § 5 DDG). */
export type OperatorConfig = {
  name: string;
  /** Postal address, several lines. */
  address: string;
  phone: string;
  email: string;
  responsiblePerson: string;
  register: string;
  vatId: string;
};

export type SettingsConfigs = {
  stripe_config: StripeConfig;
  google_ads_config: GoogleAdsConfig;
  email_config: EmailConfig;
  contact_config: ContactConfig;
  operator_config: OperatorConfig;
};
export type SettingsKey = keyof SettingsConfigs;
export const SETTINGS_KEYS = ['stripe_config', 'google_ads_config', 'email_config', 'contact_config', 'operator_config'] as const satisfies readonly SettingsKey[];

type SecretFieldOf = {
  stripe_config: 'secretKey' | 'webhookSecret';
  google_ads_config: never;
  email_config: 'password';
  contact_config: never;
  operator_config: never;
};

/** The fields that are encrypted at rest and never leave the server. */
export const SECRET_FIELDS = SECRET_FIELDS_BY_GROUP as { [K in SettingsKey]: readonly SecretFieldOf[K][] };

export const DEFAULT_FROM_EMAIL = 'noreply@druckpreis.local';

export function getStripeConfigDefaults(): StripeConfig {
  return { publicKey: '', secretKey: '', productId: '', priceId: '', webhookSecret: '', currency: 'eur', monthlyPrice: 399 };
}

export function getGoogleAdsConfigDefaults(): GoogleAdsConfig {
  return { clientId: '', adSlotId: '', enableAds: true, testMode: false };
}

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

export function getOperatorConfigDefaults(): OperatorConfig {
  return { name: '', address: '', phone: '', email: '', responsiblePerson: '', register: '', vatId: '' };
}

export async function getSettingsDefaults<K extends SettingsKey>(key: K): Promise<SettingsConfigs[K]> {
  const defaults: { [G in SettingsKey]: () => SettingsConfigs[G] | Promise<SettingsConfigs[G]> } = {
    stripe_config: getStripeConfigDefaults,
    google_ads_config: getGoogleAdsConfigDefaults,
    email_config: getEmailConfigDefaults,
    contact_config: getContactConfigDefaults,
    operator_config: getOperatorConfigDefaults,
  };
  return (await defaults[key]()) as SettingsConfigs[K];
}

export type SettingsRead<K extends SettingsKey> = {
  /** Stored values (secrets decrypted) merged over the defaults. */
  config: SettingsConfigs[K];
  /** The group has a stored row. */
  stored: boolean;
  /** Secret fields no key opens (their value reads as ''). */
  undecryptable: string[];
  /** Secret fields with a stored value (decryptable or not). */
  secretsSet: string[];
};

/** One group: stored values with secrets decrypted, merged over the defaults; never throws for a bad value. */
export async function readSettings<K extends SettingsKey>(em: EntityManager, key: K): Promise<SettingsRead<K>> {
  const defaults = await getSettingsDefaults(key);
  const { values, stored } = await readSettingJson(em, key);
  const undecryptable: string[] = [];
  const secretsSet: string[] = [];
  const plain: Record<string, unknown> = { ...values };
  for (const field of SECRET_FIELDS[key] as readonly string[]) {
    const value = values[field];
    if (typeof value !== 'string' || value === '') continue;
    secretsSet.push(field);
    let decrypted: string | null;
    try {
      decrypted = decryptSecret(value);
    } catch (error) {
      // No usable key at all (e.g. a broken SETTINGS_ENCRYPTION_KEY): the value is unreadable, the app goes on.
      console.error(`[settings] cannot load the settings keys: ${error instanceof Error ? error.message : error}`);
      decrypted = null;
    }
    if (decrypted === null) {
      undecryptable.push(field);
      plain[field] = '';
    } else {
      plain[field] = decrypted;
    }
  }
  return { config: mergeSettings(defaults, plain), stored, undecryptable, secretsSet };
}

/** Stored Stripe settings merged over the defaults (secrets decrypted: server use only). */
export async function getStripeConfig(em: EntityManager): Promise<StripeConfig> {
  return (await readSettings(em, 'stripe_config')).config;
}

/** Stored Google Ads settings merged over the defaults. */
export async function getGoogleAdsConfig(em: EntityManager): Promise<GoogleAdsConfig> {
  return (await readSettings(em, 'google_ads_config')).config;
}

/** Stored e-mail settings merged over the defaults (the password included: server use only). */
export async function getEmailConfig(em: EntityManager): Promise<EmailConfig> {
  return (await readSettings(em, 'email_config')).config;
}

export async function getContactConfig(em: EntityManager): Promise<ContactConfig> {
  return (await readSettings(em, 'contact_config')).config;
}

export async function getOperatorConfig(em: EntityManager): Promise<OperatorConfig> {
  return (await readSettings(em, 'operator_config')).config;
}

/**
 * What a secret field gets on save: a new value, `undefined` to keep the
 * stored one (a blank field in the form), `null` to clear it (the checkbox).
 */
export type SecretUpdate = string | null | undefined;

/**
 * Replaces one group. Secrets follow `SecretUpdate`; every other field is
 * taken as given. Other groups are never touched.
 */
export async function writeSettings<K extends SettingsKey>(
  em: EntityManager,
  key: K,
  values: { [F in keyof SettingsConfigs[K]]: F extends SecretFieldOf[K] ? SecretUpdate : SettingsConfigs[K][F] },
): Promise<void> {
  await em.transactional(async (tx) => {
    // The row is locked while the kept secrets are copied over, so two saves never interleave.
    const rows = await tx.execute<{ value: string }[]>(`select value from admin_settings where key = ? for update`, [key]);
    const previous = rows[0] ? parseJsonObject(rows[0].value, key) : {};
    const next: Record<string, unknown> = {};
    const secrets = SECRET_FIELDS[key] as readonly string[];
    for (const [field, value] of Object.entries(values as Record<string, unknown>)) {
      if (!secrets.includes(field)) {
        next[field] = value;
        continue;
      }
      if (value === undefined) {
        if (typeof previous[field] === 'string' && previous[field] !== '') next[field] = previous[field];
      } else if (value === null || value === '') {
        // cleared: not stored
      } else {
        next[field] = encryptSecret(String(value));
      }
    }
    await tx.execute(
      `insert into admin_settings (id, key, value, created_at, updated_at) values (gen_random_uuid(), ?, ?, now(), now())
       on conflict (key) do update set value = excluded.value, updated_at = now()`,
      [key, JSON.stringify(next)],
    );
  });
}

/** A group as an admin may see it: secrets replaced by '' plus `<field>Set` and `<field>Unreadable` (no key opens it). */
export async function maskedSettings<K extends SettingsKey>(em: EntityManager, key: K): Promise<Record<string, unknown>> {
  const read = await readSettings(em, key);
  const masked: Record<string, unknown> = { ...read.config };
  for (const field of SECRET_FIELDS[key] as readonly string[]) {
    masked[field] = '';
    masked[`${field}Set`] = read.secretsSet.includes(field);
    masked[`${field}Unreadable`] = read.undecryptable.includes(field);
  }
  return masked;
}

export type SettingsProblem = { group: SettingsKey; fields: string[] };

/** Groups holding secrets that no key opens (shown at start and on the status tab). */
export async function findUndecryptableSettings(em: EntityManager): Promise<SettingsProblem[]> {
  const problems: SettingsProblem[] = [];
  for (const key of SETTINGS_KEYS) {
    if ((SECRET_FIELDS[key] as readonly string[]).length === 0) continue;
    const read = await readSettings(em, key);
    if (read.undecryptable.length > 0) problems.push({ group: key, fields: read.undecryptable });
  }
  return problems;
}

/** Says in the log which secrets cannot be read (entry.server calls it once per start). Never throws. */
export async function logSettingsProblems(em: EntityManager): Promise<void> {
  try {
    for (const problem of await findUndecryptableSettings(em)) {
      console.error(
        `[settings] ${problem.group}: ${problem.fields.join(', ')} cannot be decrypted with any key in SETTINGS_ENCRYPTION_KEY ` +
          `or DATA_DIR/secrets/settings-encryption.key. Add the key it was saved with (comma-separated after the current one), ` +
          `or enter the value again on /admin. The rest of the app keeps working; this setting reads as empty.`,
      );
    }
  } catch (error) {
    console.warn(`[settings] could not check the stored secrets: ${error instanceof Error ? error.message : error}`);
  }
}

export { reencryptSettings, type ReencryptReport } from './settings-crypto.server';

async function readSettingJson(em: EntityManager, key: string): Promise<{ values: Record<string, unknown>; stored: boolean }> {
  const row = await em.findOne(AdminSetting, { key }, { disableIdentityMap: true });
  if (!row) return { values: {}, stored: false };
  return { values: parseJsonObject(row.value, key), stored: true };
}

function parseJsonObject(text: string, key: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
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
function mergeSettings<T>(defaults: T, stored: Record<string, unknown>): T {
  const result: Record<string, string | number | boolean> = { ...(defaults as Record<string, string | number | boolean>) };
  for (const [key, fallback] of Object.entries(defaults as Record<string, string | number | boolean>)) {
    const value = stored[key];
    if (value === undefined || value === null) continue;
    if (typeof fallback === 'string') {
      if (typeof value === 'string' || typeof value === 'number') {
        // Secrets are taken as typed; everything else is trimmed.
        const text = key === 'password' || key === 'secretKey' || key === 'webhookSecret' ? String(value) : String(value).trim();
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
