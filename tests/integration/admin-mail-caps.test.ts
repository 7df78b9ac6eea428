import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_RULES } from '../../app/domain/limits';
import { User } from '../../app/entities';
import { action as adminAction } from '../../app/routes/_admin+/admin';
import { action as smtpTestAction } from '../../app/routes/api+/admin.settings.email.test/route';
import { action as sendTestAction } from '../../app/routes/api+/admin.settings.email.send-test';
import { APP_URL, apiRequest, call, randomIp, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/**
 * The admin's mail tools are capped (issue 20): 'Test-E-Mail senden' mails
 * any typed address and 'Verbindung testen' connects to any typed host. The
 * counters live in PostgreSQL (rate_limits), so every instance shares them.
 */
const app = useAuthTestApp('adminmailcaps');

async function signedInAdmin() {
  const admin = await signedInUser(app.orm);
  await app.em().nativeUpdate(User, { id: admin.user.id }, { isAdmin: 1 });
  return admin;
}

const TEST_MAIL_LIMIT = RATE_LIMIT_RULES.adminTestMail.find((rule) => rule.scope === 'email')!.limit;
const SMTP_TEST_LIMIT = RATE_LIMIT_RULES.adminSmtpTest.find((rule) => rule.scope === 'email')!.limit;

describe('admin mail tools are capped', () => {
  it('refuses test mails past the hourly cap per admin, from any IP, in German (API and page), and sends nothing then', async () => {
    delete process.env.RATE_LIMIT_FACTOR;
    const admin = await signedInAdmin();
    const send = (ip: string) =>
      call(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: 'empfaenger@example.de' }, { cookie: admin.cookie, ip }));
    for (let index = 0; index < TEST_MAIL_LIMIT; index++) expect((await send(randomIp())).status).toBe(200);
    const refused = await send(randomIp());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Zu viele Versuche\. Bitte warten Sie \d+ Minuten?/);
    const queued = await app.em().getConnection().execute(`select count(*)::int as n from mail_outbox where "to" = 'empfaenger@example.de'`);
    expect(queued[0].n).toBe(TEST_MAIL_LIMIT);

    // The page's form (no JavaScript): the answer box on the e-mail tab says why.
    const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': randomIp(), Cookie: admin.cookie });
    const request = new Request(`${APP_URL}/admin?tab=email`, { method: 'POST', headers, body: new URLSearchParams({ intent: 'sendTest', testEmail: 'empfaenger@example.de' }).toString() });
    const page = (await adminAction({ request, params: {}, context: {} })) as { type: string; data: { intent: string; ok: boolean; message: string }; init: { status: number } };
    expect(page.init.status).toBe(429);
    expect(page.data).toMatchObject({ intent: 'sendTest', ok: false, message: expect.stringMatching(/^Zu viele Versuche/) });

    // Another admin is not affected.
    const other = await signedInAdmin();
    const response = await call(sendTestAction as Handler, apiRequest('/api/admin/settings/email/send-test', 'POST', { testEmail: 'empfaenger@example.de' }, { cookie: other.cookie, ip: randomIp() }));
    expect(response.status).toBe(200);
  });

  it('refuses connection tests past the hourly cap', async () => {
    delete process.env.RATE_LIMIT_FACTOR;
    const admin = await signedInAdmin();
    const test = () => call(smtpTestAction as Handler, apiRequest('/api/admin/settings/email/test', 'POST', {}, { cookie: admin.cookie, ip: randomIp() }));
    // Nothing saved: each answers 422 'no server' at once, and counts.
    for (let index = 0; index < SMTP_TEST_LIMIT; index++) expect((await test()).status).toBe(422);
    const refused = await test();
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(/^Zu viele Versuche/);
  });
});
