import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { getEnv } from '~/lib/env.server';
import { getOrCreateSecret } from './secrets.server';

/**
 * AES-256-GCM for the secret fields of the admin settings (Stripe secret key
 * and webhook secret, SMTP password).
 *
 * Keys: SETTINGS_ENCRYPTION_KEY (comma-separated, newest first: the first
 * encrypts, all decrypt), else a secret generated in DATA_DIR/secrets like the
 * session secret. A generated key that exists while SETTINGS_ENCRYPTION_KEY is
 * set stays a decryption key, so setting the variable later loses nothing;
 * `npm run settings:reencrypt` then moves every value to the newest key.
 *
 * A stored value is `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url); the
 * key id is derived from the key (8 hex digits of a SHA-256), so it names the
 * key without revealing it.
 */
export const ENCRYPTED_PREFIX = 'enc:v1:';
const GENERATED_KEY_NAME = 'settings-encryption';

export type SettingsKey = { id: string; key: Buffer; source: 'env' | 'generated' };

function deriveKey(secret: string, source: SettingsKey['source']): SettingsKey {
  return {
    id: crypto.createHash('sha256').update(`druckpreis-settings-key-id:${secret}`).digest('hex').slice(0, 8),
    key: crypto.createHash('sha256').update(`druckpreis-settings-key:${secret}`).digest(),
    source,
  };
}

let cachedRing: { env: string; dataDir: string; keys: SettingsKey[] } | undefined;

/**
 * Every key that decrypts, newest (the one that encrypts) first. Re-read when
 * SETTINGS_ENCRYPTION_KEY changes (tests rotate keys in one process).
 */
export function settingsKeyring(): SettingsKey[] {
  const env = process.env.SETTINGS_ENCRYPTION_KEY?.trim() ?? '';
  const dataDir = path.resolve(getEnv().DATA_DIR);
  if (cachedRing && cachedRing.env === env && cachedRing.dataDir === dataDir) return cachedRing.keys;
  const keys: SettingsKey[] = [];
  for (const part of env.split(',').map((value) => value.trim()).filter(Boolean)) {
    if (part.length < 32) throw new Error('SETTINGS_ENCRYPTION_KEY: each key must be at least 32 characters');
    keys.push(deriveKey(part, 'env'));
  }
  if (keys.length === 0) {
    keys.push(deriveKey(getOrCreateSecret(GENERATED_KEY_NAME), 'generated'));
  } else {
    const generated = readGeneratedKey(dataDir);
    if (generated) keys.push(deriveKey(generated, 'generated'));
  }
  const unique = keys.filter((key, index) => keys.findIndex((other) => other.id === key.id) === index);
  cachedRing = { env, dataDir, keys: unique };
  return unique;
}

function readGeneratedKey(dataDir: string): string | null {
  try {
    return fs.readFileSync(path.join(dataDir, 'secrets', `${GENERATED_KEY_NAME}.key`), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

export function isEncryptedValue(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(ENCRYPTED_PREFIX);
}

/** The key id a stored value was encrypted with (null for plain text). */
export function keyIdOf(value: string): string | null {
  return isEncryptedValue(value) ? (value.slice(ENCRYPTED_PREFIX.length).split(':')[0] ?? null) : null;
}

export function encryptSecret(plain: string, keys: SettingsKey[] = settingsKeyring()): string {
  const current = keys[0];
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', current.key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${ENCRYPTED_PREFIX}${current.id}:${iv.toString('base64url')}:${tag.toString('base64url')}:${ciphertext.toString('base64url')}`;
}

/** The plain text, or null when no key opens the value (unknown key id, tampered, broken). */
export function decryptSecret(stored: string, keys: SettingsKey[] = settingsKeyring()): string | null {
  if (!isEncryptedValue(stored)) return stored;
  const [keyId, iv, tag, ciphertext] = stored.slice(ENCRYPTED_PREFIX.length).split(':');
  const key = keys.find((candidate) => candidate.id === keyId);
  if (!key || iv === undefined || tag === undefined || ciphertext === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The secret fields of each settings group (the rest of each group is stored as it is). */
export const SECRET_FIELDS_BY_GROUP = {
  stripe_config: ['secretKey', 'webhookSecret'],
  google_ads_config: [],
  email_config: ['password'],
  contact_config: [],
  operator_config: [],
} as const satisfies Record<string, readonly string[]>;

function parseStoredJson(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export type ReencryptReport = { reencrypted: number; unchanged: number; failed: { group: string; fields: string[] }[] };

/**
 * Moves every stored secret to the newest key (and encrypts any stored in
 * plain text). Values no key opens are left as they are and reported.
 */
export async function reencryptSettings(em: EntityManager): Promise<ReencryptReport> {
  const keys = settingsKeyring();
  const report: ReencryptReport = { reencrypted: 0, unchanged: 0, failed: [] };
  for (const [key, secrets] of Object.entries(SECRET_FIELDS_BY_GROUP)) {
    if (secrets.length === 0) continue;
    await em.transactional(async (tx) => {
      const rows = await tx.execute<{ value: string }[]>(`select value from admin_settings where key = ? for update`, [key]);
      if (!rows[0]) return;
      const values = parseStoredJson(rows[0].value);
      let changed = false;
      const failed: string[] = [];
      for (const field of secrets) {
        const value = values[field];
        if (typeof value !== 'string' || value === '') continue;
        if (isEncryptedValue(value) && keyIdOf(value) === keys[0].id && decryptSecret(value, keys) !== null) {
          report.unchanged += 1;
          continue;
        }
        const plain = decryptSecret(value, keys);
        if (plain === null) {
          failed.push(field);
          continue;
        }
        values[field] = encryptSecret(plain, keys);
        changed = true;
        report.reencrypted += 1;
      }
      if (failed.length) report.failed.push({ group: key, fields: failed });
      if (changed) await tx.execute(`update admin_settings set value = ?, updated_at = now() where key = ?`, [JSON.stringify(values), key]);
    });
  }
  return report;
}

