import crypto from 'node:crypto';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { MailOutbox, User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { deliverPendingMails } from '../../app/services/mail.server';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';
import { startTestSmtpServer } from '../setup/smtp-server';
import { form, sessionCookieOf, startTestServer, type TestServer } from './server';

/** Issue 10 item 10: a database outage is a 503, and mail claims are short-lived with a heartbeat. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sec_outage');
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe('item 10: database outage', () => {
  it('answers 503 with Retry-After and the German error page; /kontakt keeps its own failure text', async () => {
    const email = `ausfall.${crypto.randomBytes(4).toString('hex')}@example.de`;
    const em = server.orm.em.fork();
    em.create(User, { email, password: await hashPassword('Ausfall-Pw-99'), emailVerified: true, firstName: 'Olga', lastName: 'Offline' });
    await em.flush();
    const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Ausfall-Pw-99' }) });
    const cookie = sessionCookieOf(login);

    await server.dropDatabase();

    const page = await fetch(`${server.url}/calculator`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('30');
    const html = await page.text();
    expect(html).toContain('Vorübergehend nicht erreichbar');
    expect(html).toContain('Fehler 503');

    const contact = await fetch(`${server.url}/kontakt`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: form({ name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: 'Hallo' }),
    });
    expect(contact.status).toBe(503);
    const contactPage = await contact.text();
    expect(contactPage).toContain('Die Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es später erneut.');
    // What was typed stays in the form.
    expect(contactPage).toContain('Frage');

    const api = await fetch(`${server.url}/api/auth/user`, { headers: { Cookie: cookie } });
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toBe('30');
  });
});

describe('item 10: mail claims', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let orms: MikroORM[];
  beforeAll(async () => {
    database = await createTestDatabase('sec_mail');
    await runMigrations(database.url);
    orms = [await MikroORM.init(createOrmConfig(database.url)), await MikroORM.init(createOrmConfig(database.url))];
  });
  afterAll(async () => {
    await Promise.all(orms.map((orm) => orm.close(true)));
    await database.drop();
  });

  it('a slow send keeps its claim alive (heartbeat), so a second instance never sends it again; the Message-ID is the outbox id', async () => {
    const smtp = await startTestSmtpServer({ delayMs: 2500 });
    const previous = process.env.SMTP_URL;
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    try {
      const em = orms[0].em.fork();
      const row = em.create(MailOutbox, { to: 'empfang@example.de', subject: 'Hallo', html: '<p>Hallo</p>', text: 'Hallo', template: 'test' });
      await em.flush();
      // Lease 1 s, heartbeat every 0.3 s: without the heartbeat the claim would expire during the 2.5 s send.
      const first = deliverPendingMails({ em: orms[0].em.fork(), leaseSeconds: 1, heartbeatSeconds: 0.3 });
      await new Promise((resolve) => setTimeout(resolve, 1800));
      const second = await deliverPendingMails({ em: orms[1].em.fork(), leaseSeconds: 1, heartbeatSeconds: 0.3 });
      expect(second.sent).toBe(0);
      expect((await first).sent).toBe(1);
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0].raw).toContain(`Message-ID: <${row.id}@`);
    } finally {
      process.env.SMTP_URL = previous;
      if (previous === undefined) delete process.env.SMTP_URL;
      await smtp.stop();
    }
  });
});
