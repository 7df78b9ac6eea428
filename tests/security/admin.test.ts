import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAuditEntry, AdminSetting, MailOutbox, User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { form, sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * Issue 20, the attacker's view against the real server: no role bypass
 * (pages, actions, API, `isAdmin` smuggled into a profile update), no secret
 * in any page or data answer, no cross-site form post on an admin form, no
 * deleting another account.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sec_admin');
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const SECRET = `sk_live_${crypto.randomBytes(12).toString('hex')}`;
const WEBHOOK = `whsec_${crypto.randomBytes(12).toString('hex')}`;

async function account({ admin = false } = {}) {
  const email = `${admin ? 'chef' : 'nutzer'}.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const password = 'Richtiges-Passwort-7';
  const em = server.orm.em.fork();
  const user = em.create(User, { email, password: await hashPassword(password), emailVerified: true, firstName: 'A', lastName: 'B', isAdmin: admin ? 1 : 0 });
  await em.flush();
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  return { id: user.id, email, cookie: sessionCookieOf(login) };
}

const request = (path: string, { cookie, method = 'GET', body, origin = server.url }: { cookie?: string; method?: string; body?: unknown; origin?: string }) =>
  fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      Origin: origin,
      ...(cookie ? { Cookie: cookie } : {}),
      ...(body instanceof URLSearchParams ? { 'Content-Type': 'application/x-www-form-urlencoded' } : body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body instanceof URLSearchParams ? body : body ? JSON.stringify(body) : undefined,
  });

describe('admin area under attack', () => {
  it('keeps secrets out of every page and data answer', async () => {
    const admin = await account({ admin: true });
    const saved = await request('/api/admin/settings/stripe', {
      cookie: admin.cookie,
      method: 'POST',
      body: { publicKey: 'pk_live_x', secretKey: SECRET, productId: 'prod_x', webhookSecret: WEBHOOK, monthlyPrice: 399 },
    });
    expect(saved.status).toBe(200);
    for (const path of ['/admin', '/admin?tab=stripe', '/admin.data?tab=stripe', '/admin?tab=status', '/api/admin/settings', '/premium', '/calculator']) {
      const response = await request(path, { cookie: admin.cookie });
      const text = await response.text();
      expect(response.status, path).toBeLessThan(400);
      expect(text, path).not.toContain(SECRET);
      expect(text, path).not.toContain(WEBHOOK);
      expect(text, path).not.toContain('enc:v1:');
    }
    const row = await server.orm.em.fork().findOneOrFail(AdminSetting, { key: 'stripe_config' });
    expect(row.value).not.toContain(SECRET);
  });

  it('refuses cross-site posts on admin forms and API calls, even with an admin session', async () => {
    const admin = await account({ admin: true });
    const victim = await account();
    const before = (await server.orm.em.fork().findOne(AdminSetting, { key: 'contact_config' }))?.value ?? null;
    const forged = await request('/admin?tab=contact', {
      cookie: admin.cookie,
      method: 'POST',
      origin: 'https://boese.example',
      body: form({ intent: 'save', tab: 'contact', contactEmail: 'angreifer@boese.example', enabled: 'on' }),
    });
    expect(forged.status).toBe(403);
    const deleting = await request(`/api/admin/users/${victim.id}`, { cookie: admin.cookie, method: 'DELETE', origin: 'https://boese.example' });
    expect(deleting.status).toBe(403);
    const deletingByForm = await request('/admin?tab=users', {
      cookie: admin.cookie,
      method: 'POST',
      origin: 'https://boese.example',
      body: form({ intent: 'deleteUser', id: victim.id }),
    });
    expect(deletingByForm.status).toBe(403);
    // The mail tools too: a forged page's post must not mail anyone or connect anywhere.
    const testForms: Record<string, string>[] = [{ intent: 'sendTest', testEmail: 'opfer@example.de' }, { intent: 'smtpTest', host: '127.0.0.1', port: '25', user: 'u' }];
    for (const fields of testForms) {
      const forgedTest = await request('/admin?tab=email', { cookie: admin.cookie, method: 'POST', origin: 'https://boese.example', body: form(fields) });
      expect(forgedTest.status).toBe(403);
    }
    const forgedApi = await request('/api/admin/settings/email/send-test', { cookie: admin.cookie, method: 'POST', origin: 'https://boese.example', body: { testEmail: 'opfer@example.de' } });
    expect(forgedApi.status).toBe(403);
    expect(await server.orm.em.fork().count(MailOutbox, { to: 'opfer@example.de' })).toBe(0);
    expect(await server.orm.em.fork().count(AdminAuditEntry, { action: { $in: ['settings.testMail', 'settings.smtpTest'] } })).toBe(0);
    expect(await server.orm.em.fork().count(User, { id: victim.id })).toBe(1);
    expect((await server.orm.em.fork().findOne(AdminSetting, { key: 'contact_config' }))?.value ?? null).toBe(before);
  });

  it('gives a non-admin no way in and no way to delete another account', async () => {
    const user = await account();
    const other = await account();
    const escalate = await request('/api/profile', { cookie: user.cookie, method: 'PUT', body: { firstName: 'A', lastName: 'B', email: user.email, isAdmin: 1 } });
    expect(escalate.status).toBe(200);
    expect((await server.orm.em.fork().findOneOrFail(User, { id: user.id })).isAdmin).toBe(0);

    const page = await request('/admin?tab=users', { cookie: user.cookie });
    expect(page.status).toBe(403);
    expect(await page.text()).not.toContain(other.email);
    const data = await request('/admin.data?tab=users', { cookie: user.cookie });
    expect(await data.text()).not.toContain(other.email);
    for (const [path, method, body] of [
      ['/admin?tab=users', 'POST', form({ intent: 'deleteUser', id: other.id })],
      ['/admin?tab=contact', 'POST', form({ intent: 'save', tab: 'contact', contactEmail: 'x@example.de' })],
      [`/api/admin/users/${other.id}`, 'DELETE', undefined],
      ['/api/admin/users?search=example', 'GET', undefined],
      ['/api/admin/settings', 'GET', undefined],
      ['/api/admin/settings/email/send-test', 'POST', { testEmail: 'x@example.de' }],
    ] as const) {
      const response = await request(path, { cookie: user.cookie, method, body });
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    // The owner's deletion takes no id: a body naming another account deletes only oneself, and only with the password.
    const sneaky = await request('/api/profile', { cookie: user.cookie, method: 'DELETE', body: { currentPassword: 'falsch', id: other.id, userId: other.id } });
    expect(sneaky.status).toBe(400);
    expect(await server.orm.em.fork().count(User, { id: { $in: [user.id, other.id] } })).toBe(2);
    // Visitors: pages go to /api/login, the API says 401.
    expect((await request('/admin', {})).headers.get('location')).toBe('/api/login');
    expect((await request('/api/admin/settings', {})).status).toBe(401);
  });
});
