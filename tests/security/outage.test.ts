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
// A second server whose database dies under an API request first (the first request after an outage takes another path).
let apiServer: TestServer;
// A third whose first request after the outage is a visitor's client-side navigation to a page whose own loader queries.
let visitorServer: TestServer;
beforeAll(async () => {
  [server, apiServer, visitorServer] = await Promise.all([
    startTestServer('sec_outage'),
    startTestServer('sec_outage_api'),
    startTestServer('sec_outage_visitor'),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([server?.stop(), apiServer?.stop(), visitorServer?.stop()]);
});

/** A signed-in session on `target` (before its database is dropped). */
async function signIn(target: TestServer): Promise<{ cookie: string; email: string }> {
  const email = `ausfall.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const em = target.orm.em.fork();
  em.create(User, { email, password: await hashPassword('Ausfall-Pw-99'), emailVerified: true, firstName: 'Olga', lastName: 'Offline' });
  await em.flush();
  const login = await fetch(`${target.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Ausfall-Pw-99' }) });
  return { cookie: sessionCookieOf(login), email };
}

const UNAVAILABLE = 'Der Dienst ist vorübergehend nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.';

describe('item 10: database outage', () => {
  it('answers 503 with Retry-After and the German error page; /kontakt keeps its own failure text', async () => {
    const { cookie } = await signIn(server);

    await server.dropDatabase();

    // The first request after the database died is a client-side navigation's data request.
    const navigation = await fetch(`${server.url}/projects.data`, { headers: { Cookie: cookie } });
    expect(navigation.status).toBe(503);
    expect(navigation.headers.get('retry-after')).toBe('30');

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
    expect(await api.json()).toEqual({ message: UNAVAILABLE });

    // A later page request (refused before any query) still says when to come back.
    const again = await fetch(`${server.url}/calculator`, { headers: { Cookie: cookie } });
    expect(again.status).toBe(503);
    expect(again.headers.get('retry-after')).toBe('30');
    expect(await again.text()).toContain('Vorübergehend nicht erreichbar');
  });

  it("a visitor's first data request after the database died is the 503 too, on a page whose own loader queries", async () => {
    await visitorServer.dropDatabase();
    // The confirmation link's page looks its token up: a visitor following it with JavaScript (a .data request).
    const navigation = await fetch(`${visitorServer.url}/verify-email.data?token=${'a'.repeat(43)}`);
    expect(navigation.status).toBe(503);
    expect(navigation.headers.get('retry-after')).toBe('30');
    expect(await navigation.text()).toContain(UNAVAILABLE);
    // And the document of the same page, now refused before any query.
    const page = await fetch(`${visitorServer.url}/verify-email?token=${'a'.repeat(43)}`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('Vorübergehend nicht erreichbar');
  });

  it('every JSON API route answers 503 with Retry-After and a German { message }, from the very first request on', async () => {
    const { cookie, email } = await signIn(apiServer);
    const id = '00000000-0000-4000-8000-000000000000';
    const json = (body: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    // Valid requests, so each reaches the database (a refused one would be answered before it).
    const requests: [string, string, { headers?: Record<string, string>; body?: string }][] = [
      ['GET', '/api/printers', {}],
      ['POST', '/api/filaments', json({ name: 'PLA Rot' })],
      ['GET', `/api/packaging/${id}`, {}],
      ['PUT', `/api/shipping-providers/${id}`, json({ name: 'DHL' })],
      ['DELETE', `/api/marketplaces/${id}`, {}],
      ['GET', '/api/projects', {}],
      ['POST', '/api/projects', json({ name: 'Vase', quantity: 1, filamentWeight: 25, printTime: 2 })],
      ['GET', `/api/projects/${id}`, {}],
      ['GET', '/api/auth/user', {}],
      ['POST', '/api/auth/login', json({ email, password: 'Ausfall-Pw-99' })],
      ['POST', '/api/auth/register', json({ email: 'neu@example.de', password: 'Neu-Passwort-1', confirmPassword: 'Neu-Passwort-1', firstName: 'N', lastName: 'U' })],
      ['POST', '/api/auth/forgot-password', json({ email })],
      ['POST', '/api/auth/reset-password', json({ token: 'a'.repeat(43), password: 'Neu-Passwort-1', confirmPassword: 'Neu-Passwort-1' })],
      ['POST', '/api/auth/resend-verification', json({ email })],
      ['GET', '/api/auth/verify-email?token=abc', {}],
      ['POST', '/api/contact', json({ name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: 'Hallo' })],
      ['PUT', '/api/profile', json({ firstName: 'O', lastName: 'O', email })],
      ['PUT', '/api/profile/password', json({ currentPassword: 'Ausfall-Pw-99', newPassword: 'Neu-Passwort-1', confirmPassword: 'Neu-Passwort-1' })],
      ['POST', '/api/profile/upload-url', {}],
      ['DELETE', '/api/profile/email', {}],
      ['POST', '/api/auth/logout', {}],
    ];
    const send = ([method, path, init]: (typeof requests)[number]) =>
      fetch(`${apiServer.url}${path}`, { method, body: init.body, headers: { Cookie: cookie, ...init.headers }, redirect: 'manual' });

    await apiServer.dropDatabase();

    // The first requests after the database died (a few at once) fail in their queries, not before them:
    // that was a bare 500. The rest are refused before they query.
    const firstWave = requests.slice(0, 4);
    const answers = await Promise.all(firstWave.map(async (request) => [request, await send(request)] as const));
    for (const request of requests.slice(4)) answers.push([request, await send(request)] as const);
    for (const [[method, path], response] of answers) {
      const label = `${method} ${path}`;
      expect(response.status, label).toBe(503);
      expect(response.headers.get('retry-after'), label).toBe('30');
      expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
      expect(await response.json(), label).toEqual({ message: UNAVAILABLE });
    }
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
