import fs from 'node:fs';
import type { AdminStatus, AuditPage } from '../domain/admin-views';
import { clearPaymentConfigCache, isPaymentConfigured, readAdsSettingsWithSource, readPaymentSettings } from '../services/payment-config.server';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminAuditEntry, MailOutbox } from '../entities';
import {
  findUndecryptableSettings,
  getEmailConfig,
  maskedSettings,
  readSettings,
  SETTINGS_KEYS,
  writeSettings,
  type SettingsKey,
} from '../services/admin-settings.server';
import { isAdmin } from '../domain/permissions';
import { isDatabaseHealthy } from '../services/db.server';
import { deliverPendingMails, enqueueMail, verifySmtpSettings } from '../services/mail.server';
import type { RequestContext, UserContext } from '../services/request-context.server';
import { getFileStore } from '../services/storage.server';
import { getEnv } from '../lib/env.server';
import {
  SETTINGS_TAB_GROUPS,
  type ContactSettingsInput,
  type EmailSettingsInput,
  type GoogleAdsSettingsInput,
  type OperatorSettingsInput,
  type SettingsTab,
  type StripeSettingsInput,
} from '../domain/admin-schemas';
import { findContactRecipient } from './contact.server';
import { fieldErrors, forbidden, ok, rateLimited, unauthorized, type Failure, type Result } from '../domain/result';
import { consumeRateLimit } from '../services/rate-limit.server';

/**
 * The admin operations (spec §6 "Admin", issue 20): every one starts with
 * `adminRefusal`, so the admin check lives here and not only in the routes.
 * Visitors get `unauthorized`, signed-in non-admins `forbidden`.
 */

export function adminRefusal(ctx: RequestContext): Failure | null {
  if (!ctx.user) return unauthorized('auth:messages.unauthorized');
  if (!isAdmin(ctx.user)) return forbidden('auth:messages.forbidden');
  return null;
}

// ---------------------------------------------------------------------------
// Audit log

export type AuditAction = 'settings.save' | 'settings.smtpTest' | 'settings.testMail' | 'user.delete' | 'account.selfDelete';

/** Adds an audit line to `em`'s unit of work (flushed with the change it records). Never a secret value. */
export function recordAudit(
  em: EntityManager,
  actor: { id: string; email: string } | null,
  action: AuditAction,
  target: string | null,
  details: Record<string, unknown> = {},
): void {
  em.persist(em.create(AdminAuditEntry, { actorId: actor?.id ?? null, actorEmail: actor?.email ?? '', action, target, details }));
}

export const AUDIT_PAGE_SIZE = 20;


export async function listAuditLog(ctx: RequestContext, input: { page: number }): Promise<Result<AuditPage>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const page = Math.max(1, Math.min(10_000, Math.floor(input.page) || 1));
  const [rows, total] = await ctx.em.findAndCount(
    AdminAuditEntry,
    {},
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: AUDIT_PAGE_SIZE, offset: (page - 1) * AUDIT_PAGE_SIZE, disableIdentityMap: true },
  );
  return ok({
    entries: rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      actorEmail: row.actorEmail,
      action: row.action,
      target: row.target ?? null,
      details: row.details ?? {},
    })),
    page,
    total,
    pageSize: AUDIT_PAGE_SIZE,
  });
}

// ---------------------------------------------------------------------------
// Settings

/** The i18n key part of a tab's messages ('google-ads' → 'googleAds'). */
export function settingsMessageKey(tab: SettingsTab): string {
  return tab.replace(/-([a-z])/g, (_, char: string) => char.toUpperCase());
}

/** The groups as the admin page and `GET /api/admin/settings` show them: secrets masked (`<field>Set`). */
export async function getAdminSettings(ctx: RequestContext): Promise<Result<Record<SettingsKey, Record<string, unknown>>>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const entries = await Promise.all(SETTINGS_KEYS.map(async (key) => [key, await maskedSettings(ctx.em, key)] as const));
  return ok(Object.fromEntries(entries) as Record<SettingsKey, Record<string, unknown>>);
}

/**
 * Whether a settings tab's group is in effect or the environment stands in for
 * it (payment: STRIPE_*, ads: GOOGLE_ADS_*, mail: SMTP_URL, contact:
 * CONTACT_EMAIL), so the tab can say that saving it replaces the environment.
 */
export async function getSettingsSource(ctx: RequestContext, tab: SettingsTab): Promise<Result<'settings' | 'env' | 'none'>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const env = getEnv();
  switch (tab) {
    case 'stripe':
      return ok((await readPaymentSettings(ctx.em)).source);
    case 'google-ads':
      return ok((await readAdsSettingsWithSource(ctx.em)).source);
    case 'email':
      return ok((await getEmailConfig(ctx.em)).host ? 'settings' : env.SMTP_URL ? 'env' : 'none');
    case 'contact':
      return ok((await readSettings(ctx.em, 'contact_config')).config.contactEmail ? 'settings' : env.CONTACT_EMAIL ? 'env' : 'none');
    case 'operator':
      return ok('settings');
  }
}

type SettingsInputs = {
  stripe: StripeSettingsInput;
  'google-ads': GoogleAdsSettingsInput;
  email: EmailSettingsInput;
  contact: ContactSettingsInput;
  operator: OperatorSettingsInput;
};

/** What a secret field does on save: the checkbox clears, a blank field keeps, anything else replaces. */
function secretUpdate(value: string | undefined, clear: boolean): string | null | undefined {
  if (clear) return null;
  return value ? value : undefined;
}

/**
 * Saves one settings group (only that one). Secrets: blank keeps the stored
 * value, the clear checkbox removes it; a required secret that is neither
 * entered nor stored (or stored but no key opens it) is "ist erforderlich".
 */
export async function saveSettings<T extends SettingsTab>(ctx: RequestContext, tab: T, input: SettingsInputs[T]): Promise<Result<undefined>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const group = SETTINGS_TAB_GROUPS[tab];
  const current = await readSettings(ctx.em, group);
  const usable = (field: string) => current.secretsSet.includes(field) && !current.undecryptable.includes(field);
  const errors: Record<string, string[]> = {};
  const requireSecret = (field: string, update: string | null | undefined) => {
    if (update === null || (update === undefined && !usable(field))) errors[field] = [`admin:errors.${field}Required`];
  };
  const changedSecrets: string[] = [];
  const clearedSecrets: string[] = [];
  const noteSecret = (field: string, update: string | null | undefined) => {
    if (update === null) clearedSecrets.push(field);
    else if (update !== undefined) changedSecrets.push(field);
  };

  switch (tab) {
    case 'stripe': {
      const value = input as StripeSettingsInput;
      const secretKey = secretUpdate(value.secretKey, value.clearSecretKey);
      const webhookSecret = secretUpdate(value.webhookSecret, value.clearWebhookSecret);
      requireSecret('secretKey', secretKey);
      requireSecret('webhookSecret', webhookSecret);
      if (Object.keys(errors).length) break;
      noteSecret('secretKey', secretKey);
      noteSecret('webhookSecret', webhookSecret);
      await writeSettings(ctx.em, 'stripe_config', {
        publicKey: value.publicKey,
        secretKey,
        productId: value.productId,
        priceId: value.priceId,
        webhookSecret,
        currency: value.currency,
        monthlyPrice: value.monthlyPrice,
      });
      // This instance at once; the others within CONFIG_TTL_MS (payment-config.server.ts).
      clearPaymentConfigCache();
      break;
    }
    case 'google-ads': {
      const value = input as GoogleAdsSettingsInput;
      await writeSettings(ctx.em, 'google_ads_config', value);
      clearPaymentConfigCache();
      break;
    }
    case 'email': {
      const value = input as EmailSettingsInput;
      const password = secretUpdate(value.password, value.clearPassword);
      // The stored password belongs to the server it was saved for: a new host, port or user
      // without a newly typed password is refused, else 'Verbindung testen' (or the mail
      // worker) would hand the stored password to whichever server now listens there.
      const saved = await getEmailConfig(ctx.em);
      const sameServer =
        value.host.trim().toLowerCase() === saved.host.trim().toLowerCase() && value.port === saved.port && value.user === saved.user;
      if (password === undefined && saved.password && !sameServer) {
        errors.password = ['admin:errors.passwordReenter'];
        break;
      }
      requireSecret('password', password);
      if (Object.keys(errors).length) break;
      noteSecret('password', password);
      await writeSettings(ctx.em, 'email_config', {
        host: value.host,
        port: value.port,
        secure: value.secure,
        user: value.user,
        password,
        fromEmail: value.fromEmail,
        fromName: value.fromName,
        verificationSubject: value.verificationSubject,
        verificationUrl: value.verificationUrl,
      });
      break;
    }
    case 'contact':
      await writeSettings(ctx.em, 'contact_config', input as ContactSettingsInput);
      break;
    case 'operator':
      await writeSettings(ctx.em, 'operator_config', input as OperatorSettingsInput);
      break;
  }
  if (Object.keys(errors).length) {
    const message = `admin:saveFailed.${settingsMessageKey(tab)}`;
    return fieldErrors({ ...errors, '': [message] }, { message });
  }
  recordAudit(ctx.em, ctx.user, 'settings.save', group, { changedSecrets, clearedSecrets });
  await ctx.em.flush();
  return ok();
}

// ---------------------------------------------------------------------------
// Mail: connection test and test mail

export const SMTP_TEST_TIMEOUT_MS = 10_000;

export type SmtpTestAnswer = { reachable: boolean; message: string; error?: string };

/**
 * 'Verbindung testen': the entered settings when the form sends a host (a
 * blank password then means the stored one, but only for the saved host, port
 * and user), else the saved ones. Answers
 * within 10 s; a failure is `reachable: false` with the server's message.
 */
export async function testSmtpConnection(ctx: RequestContext, input: Partial<EmailSettingsInput> | null): Promise<Result<SmtpTestAnswer>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const limit = await consumeRateLimit(ctx.em, 'adminSmtpTest', { ip: ctx.ip, email: `admin:${ctx.user!.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const saved = await getEmailConfig(ctx.em);
  const entered = input?.host?.trim();
  const port = input?.port ?? saved.port;
  const user = input?.user ?? '';
  // The stored password goes only to the server it was saved for (same host, port and user):
  // otherwise a test against another host would hand it to whoever listens there.
  const sameServer = entered?.toLowerCase() === saved.host.trim().toLowerCase() && port === saved.port && user === saved.user;
  const config = entered
    ? {
        host: entered,
        port,
        secure: input?.secure ?? false,
        user,
        password: input?.clearPassword ? '' : input?.password || (sameServer ? saved.password : ''),
      }
    : saved;
  let answer: SmtpTestAnswer;
  if (!config.host) {
    answer = { reachable: false, message: 'admin:smtp.noHost' };
  } else {
    const result = await verifySmtpSettings(config, SMTP_TEST_TIMEOUT_MS);
    // A German message by the kind of failure; the raw text (addresses, library internals) stays out of the answer.
    answer = result.ok ? { reachable: true, message: 'admin:smtp.reachable' } : { reachable: false, message: `admin:smtp.errors.${result.reason}` };
  }
  recordAudit(ctx.em, ctx.user, 'settings.smtpTest', 'email_config', { host: config.host, port: config.port, reachable: answer.reachable });
  await ctx.em.flush();
  return ok(answer);
}

export type TestMailAnswer = { sent: boolean; error?: string };

/**
 * 'Test-E-Mail senden': queued in the outbox like every mail, then sent at
 * once; the answer says whether it left. A test mail that could not be sent
 * is marked failed (not retried), with its error kept for the status tab.
 * Capped per admin and IP (`adminTestMail` in domain/limits.ts).
 */
export async function sendTestMail(ctx: UserContext | RequestContext, input: { testEmail: string }): Promise<Result<TestMailAnswer>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const limit = await consumeRateLimit(ctx.em, 'adminTestMail', { ip: ctx.ip, email: `admin:${ctx.user!.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  const em = ctx.em;
  // This request's own row, by id: looking it up by address picked another parallel request's row.
  const id = await enqueueMail(em, { to: input.testEmail, template: 'test', data: {} });
  recordAudit(em, ctx.user, 'settings.testMail', input.testEmail);
  await em.flush();
  await deliverPendingMails({ em: em.fork(), ids: [id], limit: 1 });
  // The mail worker (kicked by enqueueMail) may have claimed the row first: wait while it is
  // being sent elsewhere instead of marking a mail failed that is leaving right now.
  const waitUntil = Date.now() + SMTP_TEST_TIMEOUT_MS * 3;
  let after = await em.fork().findOne(MailOutbox, { id });
  while (after?.status === 'sending' && Date.now() < waitUntil) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await em.fork().findOne(MailOutbox, { id });
  }
  if (!after) return ok({ sent: false, error: 'not queued' });
  if (after.status === 'sent') return ok({ sent: true });
  // Our attempt failed (rescheduled as pending): a test mail is not retried. A row still being
  // sent elsewhere is left to its sender.
  await em.execute(`update mail_outbox set status = 'failed', updated_at = now() where id = ? and status = 'pending'`, [id]);
  return ok({ sent: false, error: after?.lastError ?? undefined });
}

// ---------------------------------------------------------------------------
// Status

export type { AdminStatus, AuditPage } from '../domain/admin-views';

let cachedVersion: string | undefined;
function appVersion(): string {
  if (cachedVersion) return cachedVersion;
  try {
    const pkg = JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version?: string };
    cachedVersion = pkg.version ?? 'unbekannt';
  } catch {
    cachedVersion = 'unbekannt';
  }
  return cachedVersion;
}

async function checkStorage(): Promise<{ ok: boolean; error?: string }> {
  const store = getFileStore();
  const key = 'health/admin-status';
  try {
    await store.put(key, Buffer.from('ok'), 'text/plain');
    const read = await store.get(key);
    await store.delete(key);
    return { ok: read?.body.toString() === 'ok' };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function getAdminStatus(ctx: RequestContext): Promise<Result<AdminStatus>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const em = ctx.em;
  const started = Date.now();
  const databaseOk = await isDatabaseHealthy(2000);
  const latencyMs = Date.now() - started;
  const [[users], [projects], [outbox], [lastFailed], [contact], payment, { settings: ads, source: adsSource }, email, contactConfig, operator, problems, storage] = await Promise.all([
    em.execute<{ total: string; confirmed: string; premium: string; admins: string }[]>(
      `select count(*) as total, count(*) filter (where email_verified) as confirmed,
              count(*) filter (where is_premium = 1) as premium, count(*) filter (where is_admin = 1) as admins from users`,
    ),
    em.execute<{ total: string }[]>(`select count(*) as total from projects`),
    em.execute<{ pending: string; failed: string; last_sent: Date | null }[]>(
      `select count(*) filter (where status in ('pending', 'sending')) as pending, count(*) filter (where status = 'failed') as failed,
              max(sent_at) as last_sent from mail_outbox`,
    ),
    em.execute<{ last_error: string | null }[]>(`select last_error from mail_outbox where last_error is not null order by updated_at desc limit 1`),
    em.execute<{ total: string; last_week: string; priority: string }[]>(
      `select count(*) as total, count(*) filter (where c.created_at > now() - interval '7 days') as last_week,
              count(*) filter (where u.is_premium = 1) as priority
       from contact_messages c left join users u on u.email = c.email`,
    ),
    // What the app uses now (the settings, else the environment), not only what the tabs hold.
    readPaymentSettings(em),
    readAdsSettingsWithSource(em),
    readSettings(em, 'email_config'),
    readSettings(em, 'contact_config'),
    readSettings(em, 'operator_config'),
    findUndecryptableSettings(em),
    checkStorage(),
  ]);
  const recipient = await findContactRecipient(em, contactConfig.config);
  const env = getEnv();
  const mail = email.config.host ? 'settings' : env.SMTP_URL ? 'env' : 'file';
  const failedCount = Number(outbox?.failed ?? 0);
  const lastSent = outbox?.last_sent ? new Date(outbox.last_sent) : null;
  return ok({
    users: {
      total: Number(users?.total ?? 0),
      confirmed: Number(users?.confirmed ?? 0),
      premium: Number(users?.premium ?? 0),
      admins: Number(users?.admins ?? 0),
    },
    projects: Number(projects?.total ?? 0),
    outbox: { pending: Number(outbox?.pending ?? 0), failed: failedCount, lastError: lastFailed?.last_error ?? null, lastSentAt: lastSent?.toISOString() ?? null },
    contact: { total: Number(contact?.total ?? 0), lastWeek: Number(contact?.last_week ?? 0), priority: Number(contact?.priority ?? 0) },
    configured: {
      payment: isPaymentConfigured(payment),
      paymentSource: payment.source,
      // As the slots behave (domain/ads.ts): off, test placeholders, placeholders for want of a client or slot id, or AdSense.
      ads: !ads.enableAds ? 'off' : ads.testMode ? 'test' : !ads.clientId || !ads.adSlotId ? 'missing' : 'on',
      adsSource,
      mail,
      // Working: something was sent and the newest problem is not a failure (null: nothing to tell yet).
      mailWorking: mail === 'file' ? null : lastSent ? failedCount === 0 || !lastFailed?.last_error : failedCount > 0 ? false : null,
      contact: recipient,
      contactEnabled: contactConfig.config.enabled,
    },
    settingsProblems: problems,
    operatorMissing: !operator.config.name || !operator.config.address || !operator.config.email,
    database: { ok: databaseOk, latencyMs },
    storage: { kind: env.S3_BUCKET ? 's3' : 'local', ...storage },
    version: appVersion(),
  });
}
