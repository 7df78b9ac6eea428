import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { MailOutbox, User } from '../../app/entities';
import { closeOrm } from '../../app/services/db.server';
import {
  deliverPendingMails,
  enqueueMail,
  MailAddressError,
  MAX_MAIL_ATTEMPTS,
  startMailWorker,
  testMailConnection,
} from '../../app/services/mail.server';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';
import { startTestSmtpServer, type TestSmtpServer } from '../setup/smtp-server';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let otherOrm: MikroORM;
let smtp: TestSmtpServer;
let dataDir: string;

const LINK = 'https://druckpreis.example/verify-email?token=Abc_123-xyz';

beforeAll(async () => {
  database = await createTestDatabase('mail');
  await runMigrations(database.url);
  // Two ORMs = two app instances with their own connection pools.
  orm = await MikroORM.init(createOrmConfig(database.url));
  otherOrm = await MikroORM.init(createOrmConfig(database.url));
  smtp = await startTestSmtpServer({ delayMs: 5 });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'druckpreis-mail-'));
  process.env.DATABASE_URL = database.url;
  process.env.DATA_DIR = dataDir;
  process.env.APP_URL = 'https://druckpreis.example';
});

beforeEach(async () => {
  process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
  await orm.em.getConnection().execute('delete from mail_outbox');
  await orm.em.getConnection().execute('delete from admin_settings');
  smtp.messages.length = 0;
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await closeOrm();
  await orm?.close(true);
  await otherOrm?.close(true);
  await smtp?.stop();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const deliver = (limit?: number) => deliverPendingMails({ em: orm.em.fork(), limit });

async function rows() {
  return orm.em.fork().find(MailOutbox, {}, { orderBy: { createdAt: 'asc' } });
}

async function enqueueAndCommit(mail: Parameters<typeof enqueueMail>[1]) {
  const em = orm.em.fork();
  await enqueueMail(em, mail);
  await em.flush();
}

describe('enqueueMail', () => {
  it('stores nothing and sends nothing when the transaction rolls back', async () => {
    await expect(
      orm.em.fork().transactional(async (tx) => {
        tx.persist(tx.create(User, { email: 'rollback@example.de', password: 'x' }));
        await enqueueMail(tx, { to: 'rollback@example.de', template: 'verifyEmail', data: { link: LINK } });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');

    expect(await rows()).toHaveLength(0);
    expect(await deliver()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(0);
  });

  it('commits the mail with the change and delivers it once over SMTP, German, link in text and HTML', async () => {
    await orm.em.fork().transactional(async (tx) => {
      tx.persist(tx.create(User, { email: 'anna@example.de', password: 'x', firstName: 'Anna' }));
      await enqueueMail(tx, { to: 'anna@example.de', template: 'verifyEmail', data: { name: 'Anna', link: LINK } });
    });
    const [queued] = await rows();
    expect(queued.status).toBe('pending');
    expect(queued.subject).toBe('E-Mail-Adresse bestätigen');

    expect(await deliver()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual(['anna@example.de']);
    expect(mail.subject).toBe('E-Mail-Adresse bestätigen');
    expect(mail.header('from')).toBe('Druckpreis – 3D-Druck Kostenrechner <noreply@druckpreis.local>');
    expect(mail.header('message-id')).toBe(`<${queued.id}@druckpreis.local>`);
    expect(mail.text).toContain('Hallo Anna,');
    expect(mail.text).toContain(LINK);
    expect(mail.text).toContain('24 Stunden');
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.html).toContain('E-Mail-Adresse bestätigen');
    expect(mail.html).toContain('<html lang="de">');

    const [sent] = await rows();
    expect(sent.status).toBe('sent');
    expect(sent.attempts).toBe(1);
    expect(sent.sentAt).toBeInstanceOf(Date);
    // The one-time link does not stay in the database once delivered.
    expect(sent.text).toBe('');
    expect(sent.html).toBe('');

    expect(await deliver()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
  });

  it('renders every template in German with the data escaped', async () => {
    await orm.em.getConnection().execute(
      `insert into admin_settings (key, value) values ('contact_config', ?)`,
      [JSON.stringify({ contactEmail: 'support@druckpreis.example' })],
    );
    await enqueueAndCommit({ to: 'bert@example.de', template: 'resetPassword', data: { name: 'Bert', link: `${LINK}&x=1` } });
    await enqueueAndCommit({ to: 'carla@example.de', template: 'accountExists', data: { name: 'Carla' } });
    await enqueueAndCommit({
      to: 'support@druckpreis.example',
      template: 'contactNotification',
      replyTo: 'dora@example.de',
      data: { name: 'Dora <script>alert(1)</script>', email: 'dora@example.de', subject: 'Frage zum Rechner', message: 'Zeile 1\nZeile 2 & mehr' },
    });
    await enqueueAndCommit({ to: 'dora@example.de', template: 'contactAutoReply', data: { name: 'Dora' } });
    await enqueueAndCommit({ to: 'admin@example.de', template: 'test', data: {} });
    expect(await deliver()).toEqual({ sent: 5, failed: 0 });

    const byRecipient = (to: string) => smtp.messages.find((mail) => mail.envelope.to[0] === to)!;
    const reset = byRecipient('bert@example.de');
    expect(reset.subject).toBe('Passwort zurücksetzen');
    expect(reset.text).toContain(`${LINK}&x=1`);
    expect(reset.text).toContain('1 Stunde gültig');
    expect(reset.html).toContain(`href="${LINK}&amp;x=1"`);

    const exists = byRecipient('carla@example.de');
    expect(exists.subject).toBe('Registrierungsversuch mit Ihrer E-Mail-Adresse');
    expect(exists.text).toContain('https://druckpreis.example/auth');
    expect(exists.text).toContain('https://druckpreis.example/forgot-password');

    const notification = byRecipient('support@druckpreis.example');
    expect(notification.subject).toBe('Kontaktanfrage: Frage zum Rechner');
    expect(notification.header('reply-to')).toBe('dora@example.de');
    expect(notification.text).toContain('Dora <script>alert(1)</script>');
    expect(notification.text).toContain('> Zeile 2 & mehr');
    expect(notification.html).not.toContain('<script>');
    expect(notification.html).toContain('Dora &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(notification.html).toContain('Zeile 1<br>Zeile 2 &amp; mehr');

    const autoReply = byRecipient('dora@example.de');
    expect(autoReply.subject).toBe('Bestätigung Ihrer Anfrage');
    expect(autoReply.text).toContain('innerhalb von 24 Stunden');
    expect(autoReply.header('auto-submitted')).toBe('auto-generated');

    expect(byRecipient('admin@example.de').subject).toBe('Test-E-Mail von Druckpreis');
  });

  it('refuses CR/LF in addresses and neutralises it in subjects (no header injection)', async () => {
    const em = orm.em.fork();
    await expect(
      enqueueMail(em, { to: 'anna@example.de\r\nBcc: evil@example.com', template: 'test', data: {} }),
    ).rejects.toBeInstanceOf(MailAddressError);
    await expect(
      enqueueMail(em, { to: 'anna@example.de', replyTo: 'x@example.de\nBcc: evil@example.com', template: 'test', data: {} }),
    ).rejects.toBeInstanceOf(MailAddressError);
    await expect(enqueueMail(em, { to: 'a@example.de, evil@example.com', template: 'test', data: {} })).rejects.toBeInstanceOf(
      MailAddressError,
    );
    await expect(enqueueMail(em, { to: 'Evil <evil@example.com>', template: 'test', data: {} })).rejects.toBeInstanceOf(
      MailAddressError,
    );
    await em.flush();
    expect(await rows()).toHaveLength(0);

    await enqueueAndCommit({
      to: 'support@druckpreis.example',
      template: 'contactNotification',
      replyTo: 'dora@example.de',
      data: { name: 'Dora\r\nBcc: evil@example.com', email: 'dora@example.de', subject: 'Hallo\r\nBcc: evil@example.com', message: 'Text' },
    });
    expect(await deliver()).toEqual({ sent: 1, failed: 0 });
    const [mail] = smtp.messages;
    expect(mail.envelope.to).toEqual(['support@druckpreis.example']);
    expect(mail.headerLines.some((line) => /^bcc:/i.test(line))).toBe(false);
    expect(mail.subject).toBe('Kontaktanfrage: Hallo Bcc: evil@example.com');
  });
});

describe('deliverPendingMails', () => {
  it('keeps the mail when the SMTP server is down and delivers it exactly once when it is back', async () => {
    await smtp.stop();
    // As registration would: the user and the mail commit together.
    await orm.em.fork().transactional(async (tx) => {
      tx.persist(tx.create(User, { email: 'erik@example.de', password: 'x' }));
      await enqueueMail(tx, { to: 'erik@example.de', template: 'verifyEmail', data: { link: LINK } });
    });

    const before = Date.now();
    expect(await deliver()).toEqual({ sent: 0, failed: 1 });
    let [row] = await rows();
    expect(row.status).toBe('pending');
    expect(row.attempts).toBe(1);
    expect(row.nextAttemptAt.getTime()).toBeGreaterThan(before);
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);

    // Not due yet: nothing is retried early.
    expect(await deliver()).toEqual({ sent: 0, failed: 0 });

    await smtp.start();
    expect(await deliver()).toEqual({ sent: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(0);

    // The back-off elapses.
    await orm.em.getConnection().execute(`update mail_outbox set next_attempt_at = now() - interval '1 second'`);
    expect(await deliver()).toEqual({ sent: 1, failed: 0 });
    expect(await deliver()).toEqual({ sent: 0, failed: 0 });
    await smtp.waitFor(1);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0].text).toContain(LINK);
    [row] = await rows();
    expect(row.status).toBe('sent');
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBeNull();
  });

  it('backs off exponentially and gives up after the last attempt', async () => {
    await smtp.stop();
    try {
      await enqueueAndCommit({ to: 'fritz@example.de', template: 'test', data: {} });
      await deliver();
      const first = (await rows())[0];
      const firstDelay = first.nextAttemptAt.getTime() - first.updatedAt.getTime();
      await orm.em.getConnection().execute(`update mail_outbox set next_attempt_at = now()`);
      await deliver();
      const second = (await rows())[0];
      const secondDelay = second.nextAttemptAt.getTime() - second.updatedAt.getTime();
      expect(second.attempts).toBe(2);
      expect(secondDelay).toBeGreaterThan(firstDelay * 1.5);

      await orm.em.getConnection().execute(`update mail_outbox set next_attempt_at = now(), attempts = ?`, [MAX_MAIL_ATTEMPTS - 1]);
      expect(await deliver()).toEqual({ sent: 0, failed: 1 });
      const last = (await rows())[0];
      expect(last.status).toBe('failed');
      expect(last.attempts).toBe(MAX_MAIL_ATTEMPTS);
    } finally {
      await smtp.start();
    }
  });

  it('gives up at once when the server refuses the recipient permanently', async () => {
    await enqueueAndCommit({ to: 'reject@example.de', template: 'test', data: {} });
    expect(await deliver()).toEqual({ sent: 0, failed: 1 });
    const [row] = await rows();
    expect(row.status).toBe('failed');
    expect(row.lastError).toMatch(/550/);
  });

  it('picks up a claim whose worker died (lease expired)', async () => {
    await enqueueAndCommit({ to: 'gina@example.de', template: 'test', data: {} });
    await orm.em
      .getConnection()
      .execute(`update mail_outbox set status = 'sending', attempts = 1, next_attempt_at = now() - interval '1 second'`);
    expect(await deliver()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
  });

  it('never sends a row twice when several instances deliver at once', async () => {
    const count = 40;
    const em = orm.em.fork();
    for (let i = 0; i < count; i++) {
      await enqueueMail(em, { to: `kunde${i}@example.de`, template: 'test', data: {} });
    }
    await em.flush();

    // Four workers on two ORMs (separate pools and connections), small batches, racing.
    const worker = async (source: MikroORM) => {
      let total = 0;
      for (;;) {
        const { sent } = await deliverPendingMails({ em: source.em.fork(), limit: 3 });
        if (sent === 0) return total;
        total += sent;
      }
    };
    const totals = await Promise.all([worker(orm), worker(otherOrm), worker(orm), worker(otherOrm)]);

    expect(totals.reduce((sum, value) => sum + value, 0)).toBe(count);
    expect(totals.filter((value) => value > 0).length).toBeGreaterThan(1);
    expect(smtp.messages).toHaveLength(count);
    const recipients = new Set(smtp.messages.map((mail) => mail.envelope.to[0]));
    expect(recipients.size).toBe(count);
    const stored = await rows();
    expect(stored.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('uses the SMTP settings from admin_settings before SMTP_URL', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:1';
    await orm.em.getConnection().execute(`insert into admin_settings (key, value) values ('email_config', ?)`, [
      JSON.stringify({
        host: '127.0.0.1',
        port: smtp.port,
        secure: false,
        fromEmail: 'info@meine-druckerei.de',
        fromName: 'Meine Druckerei',
        verificationSubject: 'Bitte bestätigen',
      }),
    ]);
    await enqueueAndCommit({ to: 'hanna@example.de', template: 'verifyEmail', data: { link: LINK } });
    expect(await deliver()).toEqual({ sent: 1, failed: 0 });
    const [mail] = smtp.messages;
    expect(mail.header('from')).toBe('Meine Druckerei <info@meine-druckerei.de>');
    expect(mail.envelope.from).toBe('info@meine-druckerei.de');
    expect(mail.subject).toBe('Bitte bestätigen');
    expect(await testMailConnection(orm.em.fork())).toEqual({ ok: true, kind: 'smtp' });
  });

  it('writes an .eml file and logs the text when no SMTP is configured', async () => {
    delete process.env.SMTP_URL;
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    await enqueueAndCommit({ to: 'ida@example.de', template: 'verifyEmail', data: { link: LINK } });
    expect(await deliver()).toEqual({ sent: 1, failed: 0 });
    expect(smtp.messages).toHaveLength(0);

    const [row] = await rows();
    const files = fs.readdirSync(path.join(dataDir, 'mail')).filter((file) => file.endsWith(`-${row.id}.eml`));
    expect(files).toHaveLength(1);
    const eml = fs.readFileSync(path.join(dataDir, 'mail', files[0]), 'utf8');
    expect(eml).toMatch(/^To: ida@example\.de$/m);
    expect(eml).toContain(`Message-ID: <${row.id}@druckpreis.local>`);
    expect(log.mock.calls.map((call) => String(call[0])).join('\n')).toContain(LINK);
    expect(await testMailConnection(orm.em.fork())).toEqual({ ok: true, kind: 'file' });
  });

  it('the worker in the server process sends what was enqueued', async () => {
    const stop = startMailWorker({ intervalMs: 100 });
    try {
      await enqueueAndCommit({ to: 'jonas@example.de', template: 'test', data: {} });
      await smtp.waitFor(1);
      // Once the row is marked sent, no later run of the worker picks it up again.
      await expect.poll(async () => (await rows()).map((row) => row.status), { interval: 50 }).toEqual(['sent']);
      stop();
      expect(smtp.messages).toHaveLength(1);
    } finally {
      stop();
    }
  });
});
