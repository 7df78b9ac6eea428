import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailOutbox, User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { form, sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * Issue 10 items 1, 5, 6 and 12 (and issue 8 §4's e-mail change and
 * registration limit), end to end against the real server. TRUST_PROXY=1 so
 * each request can come from its own client IP (X-Forwarded-For).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sec_accounts', { TRUST_PROXY: '1' });
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const uniqueEmail = (label: string) => `${label}.${crypto.randomBytes(4).toString('hex')}@example.de`;
const ipFor = (n: number) => `198.51.100.${n}`;

function post(path: string, body: unknown, { ip, cookie, method = 'POST' }: { ip: string; cookie?: string; method?: string }) {
  const isForm = body instanceof URLSearchParams;
  return fetch(`${server.url}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      'Content-Type': isForm ? 'application/x-www-form-urlencoded' : 'application/json',
      'X-Forwarded-For': ip,
      Origin: server.url,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: isForm ? body : JSON.stringify(body),
  });
}

async function createAccount(email = uniqueEmail('konto'), password = 'Richtiges-Passwort-7') {
  const em = server.orm.em.fork();
  em.create(User, { email, password: await hashPassword(password), emailVerified: true, firstName: 'Vera', lastName: 'Opfer' });
  await em.flush();
  return { email, password };
}

async function mails(to: string, template: string) {
  return server.orm.em.fork().find(MailOutbox, { to, template });
}

/** Reset mails are prepared after the answer; wait until `count` are there. */
async function waitForMails(to: string, template: string, count: number) {
  for (let i = 0; i < 50; i++) {
    const found = await mails(to, template);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return mails(to, template);
}

describe('item 1: nobody can lock a user out', () => {
  it('105 bad sign-ins from one IP do not stop the owner from another IP (API and /auth form)', async () => {
    const victim = await createAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 105; i++) statuses.push((await post('/api/auth/login', { email: victim.email, password: 'x' }, { ip: ipFor(1) })).status);
    // Ten guesses reach bcrypt; the rest are refused and counted nowhere.
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);

    const owner = await post('/api/auth/login', { email: victim.email, password: victim.password }, { ip: ipFor(2) });
    expect(owner.status).toBe(200);
    expect((await owner.json()).email).toBe(victim.email);

    const viaForm = await post('/auth', form({ intent: 'login', email: victim.email, password: victim.password }), { ip: ipFor(3) });
    expect(viaForm.status).toBe(302);
    expect(viaForm.headers.get('location')).toBe('/calculator');
    // The guessing IP stays slowed down, also through the form.
    expect((await post('/auth', form({ intent: 'login', email: victim.email, password: 'x' }), { ip: ipFor(1) })).status).toBe(429);
  });

  it('five forgot-password requests by a stranger do not block the owner’s own, and the answer never tells', async () => {
    const victim = await createAccount();
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await post('/api/auth/forgot-password', { email: victim.email }, { ip: ipFor(10) });
      expect(response.status).toBe(200);
      answers.push(JSON.stringify(await response.json()));
    }
    // The sixth is over the (address, IP) limit: same answer, no mail.
    expect(new Set(answers).size).toBe(1);
    expect(await waitForMails(victim.email, 'resetPassword', 5)).toHaveLength(5);

    const own = await post('/api/auth/forgot-password', { email: victim.email }, { ip: ipFor(11) });
    expect(own.status).toBe(200);
    expect(await waitForMails(victim.email, 'resetPassword', 6)).toHaveLength(6);
    const viaForm = await post('/forgot-password', form({ email: victim.email }), { ip: ipFor(12) });
    expect(viaForm.status).toBe(302);
    expect(await waitForMails(victim.email, 'resetPassword', 7)).toHaveLength(7);
  });

  it('refused registrations do not count against a shared address (issue 8 §4)', async () => {
    const ip = ipFor(20);
    for (let i = 0; i < 6; i++) {
      const weak = await post('/api/auth/register', { email: uniqueEmail('neu'), password: 'passwort', confirmPassword: 'passwort', firstName: 'A', lastName: 'B' }, { ip });
      expect(weak.status).toBe(400);
    }
    const ok = await post('/api/auth/register', { email: uniqueEmail('neu'), password: 'Gutes-Passwort-8', confirmPassword: 'Gutes-Passwort-8', firstName: 'A', lastName: 'B' }, { ip });
    expect(ok.status).toBe(200);
  });
});

async function signIn(account: { email: string; password: string }, ip: string) {
  const response = await post('/api/auth/login', account, { ip });
  expect(response.status).toBe(200);
  return sessionCookieOf(response);
}

describe('item 5: a reset link never confirms an address it was not sent to', () => {
  it('an e-mail change voids the reset link mailed to the old address', async () => {
    const account = await createAccount();
    await post('/api/auth/forgot-password', { email: account.email }, { ip: ipFor(30) });
    const [resetMail] = await waitForMails(account.email, 'resetPassword', 1);
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(resetMail.text)![1];

    const cookie = await signIn(account, ipFor(31));
    const newEmail = uniqueEmail('neu');
    const changed = await post('/api/profile', { firstName: 'Vera', lastName: 'Opfer', email: newEmail }, { ip: ipFor(31), cookie, method: 'PUT' });
    expect(changed.status).toBe(200);

    const reset = await post('/api/auth/reset-password', { token, password: 'Ganz-Neues-Pw-5', confirmPassword: 'Ganz-Neues-Pw-5' }, { ip: ipFor(32) });
    expect(reset.status).toBe(400);
    const row = await server.orm.em.fork().findOneOrFail(User, { email: account.email });
    expect(row).toMatchObject({ email: account.email, emailVerified: true, pendingEmail: newEmail });
    expect(await server.orm.em.fork().count(User, { email: newEmail })).toBe(0);
  });
});

describe('item 6 and issue 8 §4: e-mail changes', () => {
  it('keeps the old address signing in until the new one is confirmed, tells it, and lets the user cancel (page)', async () => {
    const account = await createAccount();
    const cookie = await signIn(account, ipFor(40));
    const newEmail = uniqueEmail('tippfehler');
    const saved = await post('/profile', form({ intent: 'updateProfile', firstName: 'Vera', lastName: 'Opfer', email: newEmail }), { ip: ipFor(40), cookie });
    expect(saved.status).toBe(302);
    expect(await mails(account.email, 'emailChangeRequested')).toHaveLength(1);
    expect(await mails(newEmail, 'confirmNewEmail')).toHaveLength(1);
    // The old address still signs in.
    await signIn(account, ipFor(41));

    const page = await (await fetch(`${server.url}/profile`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(newEmail);
    const cancelled = await post('/profile', form({ intent: 'cancelEmailChange' }), { ip: ipFor(40), cookie });
    expect(cancelled.status).toBe(302);
    expect((await server.orm.em.fork().findOneOrFail(User, { email: account.email })).pendingEmail).toBeNull();
  });

  it('PUT /api/profile answers the same for a taken and a free address; the owner of the taken one is told', async () => {
    const other = await createAccount();
    const account = await createAccount();
    const cookie = await signIn(account, ipFor(50));
    const put = (email: string) => post('/api/profile', { firstName: 'Vera', lastName: 'Opfer', email }, { ip: ipFor(50), cookie, method: 'PUT' });
    const strip = (body: { user: Record<string, unknown> }) => ({ ...body, user: { ...body.user, pendingEmail: '…', updatedAt: '…' } });

    const taken = await put(other.email);
    const free = await put(uniqueEmail('frei'));
    expect(taken.status).toBe(200);
    expect(free.status).toBe(200);
    expect(strip(await taken.json())).toEqual(strip(await free.json()));
    expect(await mails(other.email, 'emailInUse')).toHaveLength(1);
    expect(await mails(other.email, 'verifyEmail')).toHaveLength(0);
  });

  it('rate-limits address changes', async () => {
    const account = await createAccount();
    const cookie = await signIn(account, ipFor(60));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await post('/api/profile', { firstName: 'Vera', lastName: 'Opfer', email: uniqueEmail(`wechsel${i}`) }, { ip: ipFor(60), cookie, method: 'PUT' });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('forgot-password answers identically for known and unknown addresses', async () => {
    const known = await createAccount();
    const a = await post('/api/auth/forgot-password', { email: known.email }, { ip: ipFor(70) });
    const b = await post('/api/auth/forgot-password', { email: uniqueEmail('unbekannt') }, { ip: ipFor(70) });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(await a.text()).toBe(await b.text());
  });
});

describe('item 12: names with links stay out of the first line of mails', () => {
  it('greets without a name that looks like a link', async () => {
    const email = uniqueEmail('link');
    const response = await post(
      '/api/auth/register',
      { email, password: 'Gutes-Passwort-8', confirmPassword: 'Gutes-Passwort-8', firstName: 'Gewinn auf evil.example', lastName: 'B' },
      { ip: ipFor(80) },
    );
    expect(response.status).toBe(200);
    const [mail] = await mails(email, 'verifyEmail');
    const firstLine = mail.text.split('\n')[0];
    expect(firstLine).toBe('Hallo,');
    expect(mail.text).not.toContain('evil.example');
    expect(mail.html).not.toContain('evil.example');
  });
});
