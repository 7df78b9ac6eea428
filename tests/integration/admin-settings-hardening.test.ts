import { beforeAll, describe, expect, it } from 'vitest';
import { MailOutbox } from '../../app/entities';
import { action as adminAction } from '../../app/routes/_admin+/admin';
import { action as settingsGroupAction } from '../../app/routes/api+/admin.settings.$group';
import { action as sendTestAction } from '../../app/routes/api+/admin.settings.email.send-test';
import { action as smtpTestAction } from '../../app/routes/api+/admin.settings.email.test/route';
import { getEmailConfig } from '../../app/services/admin-settings.server';
import { closedPort, startAuthSmtpServer, startPasswordTrap } from '../setup/admin-helpers';
import { apiRequest, formRequest, type Handler, invoke, randomIp, signInThroughApi, useAuthTestApp } from '../setup/auth-app';

// Security review fixes for the admin settings (SMTP password, German errors, test mail race).
const app = useAuthTestApp('admin-hardening');

/** Signs in through POST /api/auth/login (an admin with `admin: true`). */
const signIn = (options: Parameters<typeof signInThroughApi>[1] = {}) => signInThroughApi(app.orm, options);

let admin: Awaited<ReturnType<typeof signIn>>;

beforeAll(async () => {
  delete process.env.SETTINGS_ENCRYPTION_KEY;
  admin = await signIn({ admin: true });
});

const saveEmail = (fields: Record<string, unknown>) =>
  invoke(
    settingsGroupAction as Handler,
    apiRequest('/api/admin/settings/email', 'POST', { fromEmail: 'shop@example.de', fromName: 'Shop', ...fields }, { cookie: admin.cookie }),
    { group: 'email' },
  );

describe('SMTP password stays with its server', () => {
  it('refuses a new host, port or user without a newly typed password, so the stored one never reaches another server', async () => {
    const trap = await startPasswordTrap({ accept: true });
    const { heard, port: trapPort } = trap;
    try {
      expect((await saveEmail({ host: 'smtp.example.de', port: 587, user: 'mailer', password: 'STORED-geheim' })).status).toBe(200);
      // Same server, blank password: keeps the stored one.
      expect((await saveEmail({ host: 'smtp.example.de', port: 587, user: 'mailer' })).status).toBe(200);
      expect((await getEmailConfig(app.em())).password).toBe('STORED-geheim');

      for (const changed of [
        { host: '127.0.0.1', port: trapPort, user: 'mailer' },
        { host: 'smtp.example.de', port: trapPort, user: 'mailer' },
        { host: 'smtp.example.de', port: 587, user: 'angreifer' },
      ]) {
        const refused = await saveEmail(changed);
        expect(refused.status).toBe(400);
        expect(refused.text).toContain('SMTP-Passwort erneut eingeben');
        const config = await getEmailConfig(app.em());
        expect([config.host, config.port, config.user, config.password]).toEqual(['smtp.example.de', 587, 'mailer', 'STORED-geheim']);
      }
      // The page form answers the same, in German.
      const page = await invoke(
        adminAction as Handler,
        formRequest('/admin?tab=email', { intent: 'save', tab: 'email', host: '127.0.0.1', port: String(trapPort), user: 'mailer', fromEmail: 'shop@example.de', fromName: 'Shop' }, admin.cookie),
      );
      expect(page.status).toBe(400);
      // (the page's form shows the key's German text: public/locales/de/admin.json)
      expect(page.body).toMatchObject({ result: { error: { password: ['admin:errors.passwordReenter'] } } });

      // 'Verbindung testen' with the saved settings never met the trap.
      await invoke(smtpTestAction as Handler, apiRequest('/api/admin/settings/email/test', 'POST', {}, { cookie: admin.cookie }));
      // Nor does an unsaved host with a blank password.
      await invoke(adminAction as Handler, formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', port: String(trapPort), user: 'mailer' }, admin.cookie));
      expect(heard).not.toContain('STORED-geheim');

      // With the password typed again, the new server is saved.
      expect((await saveEmail({ host: '127.0.0.1', port: trapPort, user: 'mailer', password: 'NEU-geheim' })).status).toBe(200);
      expect((await getEmailConfig(app.em())).password).toBe('NEU-geheim');
    } finally {
      await trap.close();
    }
  });
});

describe('parallel test mails', () => {
  it('each request answers for its own outbox row: none is marked failed while it was sent', async () => {
    const smtp = await startAuthSmtpServer();
    try {
      const other = await signIn({ admin: true });
      const saved = await invoke(
        settingsGroupAction as Handler,
        apiRequest('/api/admin/settings/email', 'POST', { host: '127.0.0.1', port: smtp.port, user: smtp.user, password: smtp.pass, fromEmail: 'shop@example.de', fromName: 'Shop' }, { cookie: other.cookie }),
        { group: 'email' },
      );
      expect(saved.status).toBe(200);
      const to = 'parallel@example.de';
      const answers = await Promise.all(
        Array.from({ length: 15 }, () =>
          invoke(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: to }, { cookie: other.cookie, ip: randomIp() })),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      // The cap (10 per admin and hour) answers the rest 429; no request answers 422.
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(5);
      const rows = await app.em().fork().find(MailOutbox, { to });
      expect(rows).toHaveLength(10);
      expect(rows.map((row) => row.status)).toEqual(Array(10).fill('sent'));
      expect(smtp.received.filter((mail) => mail.to.includes(to))).toHaveLength(10);
    } finally {
      await smtp.stop();
    }
  });
});

describe('German answers', () => {
  it('refuses a contact address with CR, LF or NUL in German (API and page)', async () => {
    for (const contactEmail of ['a@example.de\r\nBcc: b@example.de', 'a@example.de\nx', 'a\u0000@example.de']) {
      const api = await invoke(
        settingsGroupAction as Handler,
        apiRequest('/api/admin/settings/contact', 'POST', { contactEmail, autoReplySubject: 'Danke', autoReplyMessage: 'Hallo' }, { cookie: admin.cookie }),
        { group: 'contact' },
      );
      expect(api.status, JSON.stringify(contactEmail)).toBe(400);
      expect(api.text).not.toContain('Invalid input');
      expect(api.text).toContain('Die Eingabe enthält unzulässige Steuerzeichen');
      const page = await invoke(adminAction as Handler, formRequest('/admin?tab=contact', { intent: 'save', tab: 'contact', contactEmail, autoReplySubject: 'Danke' }, admin.cookie));
      expect(page.status).toBe(400);
      expect(page.text).not.toContain('Invalid input');
      expect(page.body).toMatchObject({ result: { error: { contactEmail: ['admin:errors.controlCharacters'] } } });
    }
    // A blank address and a good one still pass; a bad one is the field's own message.
    for (const [contactEmail, status] of [['', 200], ['kontakt@example.de', 200], ['kein-at', 400]] as const) {
      const answer = await invoke(settingsGroupAction as Handler, apiRequest('/api/admin/settings/contact', 'POST', { contactEmail }, { cookie: admin.cookie }), { group: 'contact' });
      expect(answer.status, contactEmail).toBe(status);
      expect(answer.text).not.toContain('Invalid input');
    }
  });

  it("answers 'Verbindung testen' with German messages, never the raw network error", async () => {
    const port = await closedPort();
    const refused = await invoke(adminAction as Handler, formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', port: String(port), user: 'mailer', password: 'x' }, admin.cookie));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ message: 'Der SMTP-Server hat die Verbindung abgelehnt. Bitte Host und Port prüfen.' });
    expect(refused.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:|connect /);

    const smtp = await startAuthSmtpServer();
    try {
      const wrong = await invoke(adminAction as Handler, formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', port: String(smtp.port), user: smtp.user, password: 'falsch' }, admin.cookie));
      expect(wrong.status).toBe(422);
      expect(wrong.body).toMatchObject({ message: 'Die Anmeldung am SMTP-Server ist fehlgeschlagen. Bitte Benutzer und Passwort prüfen.' });
      // TLS asked of a server that speaks plain SMTP.
      const tls = await invoke(adminAction as Handler, formRequest('/admin?tab=email', { intent: 'smtpTest', host: '127.0.0.1', port: String(smtp.port), secure: 'on', user: smtp.user, password: smtp.pass }, admin.cookie));
      expect(tls.status).toBe(422);
      expect(tls.body).toMatchObject({ message: 'Die verschlüsselte Verbindung (TLS) kam nicht zustande. Bitte Port und die Einstellung „SSL/TLS“ prüfen.' });
    } finally {
      await smtp.stop();
    }
  });
});
