import fs from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { MailOutbox, type MailAttachment } from '~/entities';
import { DEFAULT_FROM_EMAIL, getContactConfig, getEmailConfig, type EmailConfig } from './admin-settings.server';
import { getAppUrl, parseEnv } from '~/lib/env.server';
import { getOrm } from './db.server';
import { headerText, renderMailTemplate, type MailTemplate } from './mail-templates.server';

export type { MailTemplate } from './mail-templates.server';
export { MailDataError } from './mail-templates.server';

/*
 * Transactional outbox. enqueueMail() only adds a row to the caller's unit of
 * work, so the mail exists exactly when the change that caused it commits.
 * deliverPendingMails() claims due rows (status 'sending' plus a lease in
 * next_attempt_at, taken with FOR UPDATE SKIP LOCKED in one statement),
 * sends them and marks them sent, or schedules a retry with exponential
 * back-off. A claimed row is invisible to every other worker until its lease
 * runs out, and a worker never starts a send after its lease is (nearly)
 * over (a heartbeat renews the claims of a slow batch), so two workers never
 * send the same row. Only a crash between the
 * SMTP server's "250 OK" and the status update can repeat a mail; the stable
 * Message-ID (row id) lets receivers recognise that copy.
 */

/** After this many failed attempts a mail is given up ('failed'). */
export const MAX_MAIL_ATTEMPTS = 10;
const FIRST_RETRY_SECONDS = 30;
const MAX_RETRY_SECONDS = 6 * 60 * 60;
/**
 * How long a claim holds without a heartbeat. Short, so mails claimed by a
 * worker that died (database outage, crash) are picked up within a minute;
 * a worker still sending renews its claims every `HEARTBEAT_SECONDS`.
 */
export const CLAIM_LEASE_SECONDS = 60;
const HEARTBEAT_SECONDS = 15;
/** A send is not started unless the claim (last renewed) holds this much longer. */
const CLAIM_SAFETY_SECONDS = 40;
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };
const DEFAULT_BATCH = 20;
const WORKER_INTERVAL_MS = 2_000;
/** Sent mails are kept (without bodies) this long, failed ones longer for the admin. */
const KEEP_SENT_DAYS = 30;
const KEEP_FAILED_DAYS = 90;

export class MailAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MailAddressError';
  }
}

// One address, no display name, no list, nothing that could end a header.
const ADDRESS_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;

/** True for a single plain address (what the outbox accepts as to / reply-to). */
export function isValidMailAddress(value: string): boolean {
  return value.length <= 254 && !/[\u0000-\u001f\u007f]/.test(value) && ADDRESS_PATTERN.test(value);
}

function requireAddress(value: string, field: string): string {
  // Refuse rather than repair: a CR/LF here is an injection attempt, not a typo.
  if (typeof value !== 'string' || !isValidMailAddress(value.trim())) {
    throw new MailAddressError(`Invalid mail address in "${field}"`);
  }
  return value.trim();
}

/**
 * Renders the mail now (German templates, data escaped) and adds an outbox
 * row to `em`'s unit of work; the caller's flush or transaction commits it
 * with the change that caused it. Throws MailAddressError / MailDataError for
 * bad input before anything is persisted. Returns the new row's id.
 */
export async function enqueueMail(
  em: EntityManager,
  mail: { to: string; template: MailTemplate; data: Record<string, string>; replyTo?: string; attachments?: MailAttachment[] },
): Promise<string> {
  const to = requireAddress(mail.to, 'to');
  const replyTo = mail.replyTo === undefined ? null : requireAddress(mail.replyTo, 'replyTo');
  const [email, contact] = await Promise.all([getEmailConfig(em), getContactConfig(em)]);
  const rendered = await renderMailTemplate(mail.template, mail.data, {
    email,
    contact,
    // verificationUrl may name the confirmation page itself; links want the site's base.
    appUrl: (email.verificationUrl || getAppUrl()).replace(/\/+$/, '').replace(/\/verify-email$/, ''),
  });
  const row = em.create(MailOutbox, {
      to,
      replyTo,
      subject: headerText(rendered.subject),
      html: rendered.html,
      text: rendered.text,
      template: mail.template,
      attachments: mail.attachments?.length ? mail.attachments.map(({ filename, contentType, contentBase64 }) => ({ filename: headerText(filename, 120), contentType, contentBase64 })) : null,
    });
  em.persist(row);
  kickMailWorker();
  return row.id;
}

type ClaimedRow = {
  id: string;
  to: string;
  reply_to: string | null;
  subject: string;
  html: string;
  text: string;
  template: string;
  attempts: number;
  attachments: MailAttachment[] | null;
};

type Sender = {
  kind: 'smtp' | 'file';
  send(message: Mail.Options, row: ClaimedRow): Promise<void>;
  verify(): Promise<void>;
  close(): void;
};

/**
 * Sends what is due. Returns how many were sent and how many attempts failed
 * (rescheduled or given up). `em` defaults to a fork of the app's ORM; tests
 * pass their own (several ORMs act as several app instances).
 */
export async function deliverPendingMails(
  options: { limit?: number; em?: EntityManager; leaseSeconds?: number; heartbeatSeconds?: number; ids?: string[] } = {},
): Promise<{ sent: number; failed: number }> {
  // Tests shorten the lease and the heartbeat to watch them work.
  const leaseSeconds = options.leaseSeconds ?? CLAIM_LEASE_SECONDS;
  const heartbeatSeconds = options.heartbeatSeconds ?? HEARTBEAT_SECONDS;
  const safetySeconds = Math.min(CLAIM_SAFETY_SECONDS, leaseSeconds * (2 / 3));
  const em = options.em ?? (await getOrm()).em.fork();
  const limit = Math.max(1, options.limit ?? DEFAULT_BATCH);

  // Claims that outlived their lease (worker crashed mid-send) and have no attempts left.
  await em.execute(
    `update mail_outbox set status = 'failed', last_error = coalesce(last_error, 'claim expired'), updated_at = now()
     where status = 'sending' and next_attempt_at <= now() and attempts >= ?`,
    [MAX_MAIL_ATTEMPTS],
  );

  // Transport first: if the settings cannot be read, nothing is claimed.
  const config = await getEmailConfig(em);
  const sender = createSender(config);
  try {
    let leaseRenewedAt = Date.now();
    const rows: ClaimedRow[] = await em.execute(
      `with due as materialized (
         select id from mail_outbox
         where status in ('pending', 'sending') and next_attempt_at <= now() and attempts < ?
           and (?::uuid[] is null or id = any(?::uuid[]))
         order by next_attempt_at
         limit ?
         for update skip locked
       )
       update mail_outbox m
       set status = 'sending', attempts = m.attempts + 1,
           next_attempt_at = now() + make_interval(secs => ?), updated_at = now()
       from due where m.id = due.id
       returning m.id, m."to", m.reply_to, m.subject, m.html, m.text, m.template, m.attempts, m.attachments`,
      [MAX_MAIL_ATTEMPTS, options.ids ? `{${options.ids.join(',')}}` : null, options.ids ? `{${options.ids.join(',')}}` : null, limit, leaseSeconds],
    );

    // Heartbeat: renew the claims of rows not yet finished, so a slow SMTP server never lets them expire.
    const unfinished = new Set(rows.map((row) => row.id));
    let heartbeatFailed = false;
    const heartbeat = setInterval(() => {
      if (unfinished.size === 0) return;
      const renewedAt = Date.now();
      em.execute(
        `update mail_outbox set next_attempt_at = now() + make_interval(secs => ?), updated_at = now()
         where status = 'sending' and id in (${[...unfinished].map(() => '?').join(', ')})`,
        [leaseSeconds, ...unfinished],
      ).then(
        () => (leaseRenewedAt = renewedAt),
        () => (heartbeatFailed = true),
      );
    }, heartbeatSeconds * 1000);
    heartbeat.unref();
    let sent = 0;
    let failed = 0;
    const from = { name: headerText(config.fromName, 120), address: fromAddress(config) };
    const domain = from.address.split('@')[1];
    try {
      for (const row of rows) {
        if (heartbeatFailed || Date.now() - leaseRenewedAt > (leaseSeconds - safetySeconds) * 1000) {
          unfinished.delete(row.id);
          await releaseClaim(em, row.id).catch(() => undefined);
          continue;
        }
        try {
          await sender.send(
            {
              from,
              to: row.to,
              replyTo: row.reply_to ?? undefined,
              subject: row.subject,
              text: row.text,
              html: row.html,
              messageId: `<${row.id}@${domain}>`,
              attachments: (row.attachments ?? []).map((file) => ({
                filename: file.filename,
                contentType: file.contentType,
                content: Buffer.from(file.contentBase64, 'base64'),
              })),
              headers: { 'Auto-Submitted': 'auto-generated' },
              // Refuse rather than let nodemailer read files or URLs named in the content.
              disableFileAccess: true,
              disableUrlAccess: true,
            },
            row,
          );
          await em.execute(
            `update mail_outbox set status = 'sent', sent_at = now(), last_error = null, html = '', text = '', attachments = null, updated_at = now()
             where id = ? and status = 'sending'`,
            [row.id],
          );
          sent += 1;
        } catch (error) {
          failed += 1;
          await scheduleRetry(em, row, error);
        } finally {
          unfinished.delete(row.id);
        }
      }
    } finally {
      clearInterval(heartbeat);
    }
    return { sent, failed };
  } finally {
    sender.close();
  }
}

async function scheduleRetry(em: EntityManager, row: ClaimedRow, error: unknown) {
  const giveUp = row.attempts >= MAX_MAIL_ATTEMPTS || isPermanentFailure(error);
  const base = Math.min(FIRST_RETRY_SECONDS * 2 ** (row.attempts - 1), MAX_RETRY_SECONDS);
  const delay = Math.round(base * (0.9 + Math.random() * 0.2));
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  await em.execute(
    `update mail_outbox set status = ?, next_attempt_at = now() + make_interval(secs => ?), last_error = ?, updated_at = now()
     where id = ? and status = 'sending'`,
    [giveUp ? 'failed' : 'pending', delay, message, row.id],
  );
  console.error(`[mail] ${row.template} mail ${row.id}: attempt ${row.attempts} failed (${message})${giveUp ? ', giving up' : ''}`);
}

/** Hands a claimed row back untouched (its attempt did not happen). */
async function releaseClaim(em: EntityManager, id: string) {
  await em.execute(
    `update mail_outbox set status = 'pending', attempts = attempts - 1, next_attempt_at = now(), updated_at = now()
     where id = ? and status = 'sending'`,
    [id],
  );
}

/** The SMTP server refused the mail itself (unknown mailbox, bad address): retrying will not help. */
function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: number } | null)?.responseCode;
  return code === 501 || code === 550 || code === 551 || code === 553 || code === 554;
}

function fromAddress(config: EmailConfig): string {
  return isValidMailAddress(config.fromEmail) ? config.fromEmail : DEFAULT_FROM_EMAIL;
}

/** admin_settings.email_config with a host → SMTP_URL → .eml files under DATA_DIR/mail. Read on every call. */
function createSender(config: EmailConfig): Sender {
  if (config.host) {
    const transport = nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure,
      auth: config.user ? { user: config.user, pass: config.password } : undefined,
      ...SMTP_TIMEOUTS,
    });
    return smtpSender(transport);
  }
  const env = parseEnv();
  if (env.SMTP_URL) {
    return smtpSender(nodemailer.createTransport({ url: env.SMTP_URL, ...SMTP_TIMEOUTS }));
  }
  return fileSender(path.resolve(env.DATA_DIR, 'mail'));
}

function smtpSender(transport: nodemailer.Transporter): Sender {
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail(message);
    },
    async verify() {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}

/** The embedded default: each mail becomes an .eml file, and its text (links included) goes to the log. */
function fileSender(dir: string): Sender {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    kind: 'file',
    async send(message, row) {
      const info = await transport.sendMail(message);
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${row.id}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      console.log(`[mail] no SMTP configured, wrote ${file}\nTo: ${row.to}\nSubject: ${row.subject}\n\n${row.text}`);
    },
    async verify() {
      await fs.mkdir(dir, { recursive: true });
    },
    close: () => transport.close(),
  };
}

/**
 * For the admin's connection test: checks that the configured transport
 * answers (SMTP: connect, greet, authenticate; no mail is sent).
 */
export async function testMailConnection(em: EntityManager): Promise<{ ok: true; kind: 'smtp' | 'file' } | { ok: false; error: string }> {
  const sender = createSender(await getEmailConfig(em));
  try {
    await sender.verify();
    return { ok: true, kind: sender.kind };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    sender.close();
  }
}

export type SmtpFailureReason = 'refused' | 'timeout' | 'tls' | 'auth' | 'notFound' | 'other';

/**
 * Why a connection test failed, for a German message (admin:smtp.errors.*): the admin sees
 * the kind of failure, never the raw network text (addresses, library internals).
 */
export function smtpFailureReason(error: unknown): SmtpFailureReason {
  const { code, responseCode, message } = (error ?? {}) as { code?: unknown; responseCode?: unknown; message?: unknown };
  const text = `${typeof code === 'string' ? code : ''} ${typeof message === 'string' ? message : String(error)}`;
  if (code === 'EAUTH' || responseCode === 535 || responseCode === 534 || /\b535\b|authenticat/i.test(text)) return 'auth';
  if (/ECONNREFUSED/.test(text)) return 'refused';
  if (/ENOTFOUND|EAI_AGAIN|EDNS/.test(text)) return 'notFound';
  if (code === 'ETLS' || /TLS|SSL|certificate|wrong version number/i.test(text)) return 'tls';
  if (/ETIMEDOUT|timeout|timed out|Zeitüberschreitung/i.test(text)) return 'timeout';
  return 'other';
}

/**
 * The admin's 'Verbindung testen': connect, greet and (with a user) sign in to
 * the SMTP server of `config` (nodemailer `verify`, no mail is sent). Answers
 * within `timeoutMs` even when the host never answers. `error` is the
 * server's (or the network's) message.
 */
export async function verifySmtpSettings(
  config: Pick<EmailConfig, 'host' | 'port' | 'secure' | 'user' | 'password'>,
  timeoutMs = 10_000,
): Promise<{ ok: true } | { ok: false; error: string; reason: SmtpFailureReason }> {
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.password } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      transport.verify(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Zeitüberschreitung nach ${Math.round(timeoutMs / 1000)} Sekunden`)), timeoutMs);
      }),
    ]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), reason: smtpFailureReason(error) };
  } finally {
    if (timer) clearTimeout(timer);
    transport.close();
  }
}

// ---------------------------------------------------------------------------
// Worker in the server process

type Worker = { run: () => Promise<void>; stop: () => void; kickTimer?: NodeJS.Timeout };
let worker: Worker | undefined;

/**
 * Sends due mails every 2 s (and shortly after each enqueue) until stopped.
 * One worker per process; every instance may run one (the claims keep them apart).
 */
export function startMailWorker(options: { intervalMs?: number } = {}): () => void {
  if (worker) return worker.stop;
  let running = false;
  let stopped = false;
  let lastErrorLog = 0;
  let lastCleanup = 0;

  const run = async () => {
    if (running || stopped) return;
    running = true;
    try {
      // Keep going while full batches come back (a backlog), then wait for the next tick.
      for (;;) {
        const { sent, failed } = await deliverPendingMails({ limit: DEFAULT_BATCH });
        if (stopped || sent + failed < DEFAULT_BATCH) break;
      }
      if (Date.now() - lastCleanup > 60 * 60 * 1000) {
        lastCleanup = Date.now();
        await purgeOldMails();
      }
    } catch (error) {
      // Database down or similar: say so once a minute, keep trying.
      if (Date.now() - lastErrorLog > 60_000) {
        lastErrorLog = Date.now();
        console.error('[mail] worker:', error instanceof Error ? error.message : error);
      }
    } finally {
      running = false;
    }
  };

  const timer = setInterval(() => void run(), options.intervalMs ?? WORKER_INTERVAL_MS);
  timer.unref();
  const current: Worker = {
    run,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      if (current.kickTimer) clearTimeout(current.kickTimer);
      if (worker === current) worker = undefined;
    },
  };
  worker = current;
  void run();
  return current.stop;
}

/**
 * Asks the running worker (if any) to look soon. enqueueMail() calls it; the
 * delay lets the caller's transaction commit first (the tick catches it otherwise).
 */
export function kickMailWorker() {
  const current = worker;
  if (!current || current.kickTimer) return;
  current.kickTimer = setTimeout(() => {
    current.kickTimer = undefined;
    void current.run();
  }, 250);
  current.kickTimer.unref();
}

async function purgeOldMails() {
  const em = (await getOrm()).em.fork();
  await em.execute(
    `delete from mail_outbox
     where (status = 'sent' and sent_at < now() - make_interval(days => ?))
        or (status = 'failed' and updated_at < now() - make_interval(days => ?))`,
    [KEEP_SENT_DAYS, KEEP_FAILED_DAYS],
  );
}
