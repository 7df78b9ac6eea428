import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailOutbox, User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { form, sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * Issue 18 §2, "a stranger can still lock an owner out", end to end against
 * the real server as an attacker would run it. TRUST_PROXY=1: every request
 * names its client IP in X-Forwarded-For, as behind the app's proxy.
 * docs/sign-in-protection.md describes the model.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sec_lockout', { TRUST_PROXY: '1' });
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

let ipCounter = 0;
/** A client IP no other test of this file uses. */
const nextIp = () => {
  ipCounter++;
  return `203.0.${113 + Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
};
const uniqueEmail = (label: string) => `${label}.${crypto.randomBytes(4).toString('hex')}@example.de`;

function post(path: string, body: unknown, { ip, cookie }: { ip: string; cookie?: string }) {
  const isForm = body instanceof URLSearchParams;
  return fetch(`${server.url}${path}`, {
    method: 'POST',
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

async function createAccount({ verified = true } = {}) {
  const email = uniqueEmail('inhaber');
  const password = 'Richtiges-Passwort-7';
  const em = server.orm.em.fork();
  const user = em.create(User, { email, password: await hashPassword(password), emailVerified: verified, firstName: 'Olga', lastName: 'Owner' });
  await em.flush();
  return { id: user.id, email, password };
}

/** The `__device=…` pair of a response, and the paths it was set for. */
function deviceCookieOf(response: Response): { cookie: string; paths: string[] } {
  const cookies = response.headers.getSetCookie().filter((value) => value.startsWith('__device='));
  if (cookies.length === 0) throw new Error('no device cookie');
  return { cookie: cookies[0].split(';')[0], paths: cookies.map((value) => /Path=([^;]+)/i.exec(value)?.[1] ?? '') };
}

/** Signs in with the password (API) and returns the device cookie the browser keeps. */
async function signInForDevice(account: { email: string; password: string }, ip: string) {
  const response = await post('/api/auth/login', { email: account.email, password: account.password }, { ip });
  expect(response.status).toBe(200);
  return deviceCookieOf(response).cookie;
}

const apiLogin = (email: string, password: string, ip: string, cookie?: string) => post('/api/auth/login', { email, password }, { ip, cookie });
const formLogin = (email: string, password: string, ip: string, cookie?: string) =>
  post('/auth', form({ intent: 'login', email, password }), { ip, cookie });

/** 110 wrong passwords for `email`, each from an IP of its own. */
async function strangersGuess(email: string, count = 110) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await apiLogin(email, `falsch-${i}`, nextIp())).status);
  return statuses;
}

async function waitForMails(to: string, template: string, count: number) {
  for (let i = 0; i < 60; i++) {
    const found = await server.orm.em.fork().find(MailOutbox, { to, template }, { orderBy: { createdAt: 'asc' } });
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server.orm.em.fork().find(MailOutbox, { to, template }, { orderBy: { createdAt: 'asc' } });
}

const linkToken = (text: string) => /\/auth\/link\?token=([A-Za-z0-9_-]{43})/.exec(text)![1];

describe('known browsers (device cookies)', () => {
  it('a sign-in leaves a signed, long-lived, HttpOnly device cookie, sent only where sign-in happens', async () => {
    const owner = await createAccount();
    const response = await apiLogin(owner.email, owner.password, nextIp());
    const header = response.headers.getSetCookie().find((value) => value.startsWith('__device='))!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Lax/i);
    const maxAge = Number(/Max-Age=(\d+)/i.exec(header)![1]);
    expect(maxAge).toBeGreaterThanOrEqual(180 * 24 * 3600);
    expect(deviceCookieOf(response).paths.sort()).toEqual(['/api/auth', '/auth', '/auth.data']);
    // The form sets it too.
    const viaForm = await formLogin(owner.email, owner.password, nextIp());
    expect(viaForm.status).toBe(302);
    expect(deviceCookieOf(viaForm).paths).toContain('/auth');
  });

  it('the issue’s scenario: owner mistypes once, 110 wrong passwords from 110 IPs, the owner’s right password from the own IP gets in', async () => {
    const owner = await createAccount();
    const ownIp = nextIp();
    const device = await signInForDevice(owner, ownIp);

    // The owner mistypes once from the own IP (the failure the issue reproduced counts on the (IP, address) pair),
    // and once more in the known browser (that one counts in the device cookie's bucket only).
    expect((await apiLogin(owner.email, 'vertippt', ownIp)).status).toBe(401);
    expect((await apiLogin(owner.email, 'vertippt', ownIp, device)).status).toBe(401);
    const strangers = await strangersGuess(owner.email);
    expect(strangers.every((status) => status === 401)).toBe(true);

    // Without the device cookie: still the 429 of today (the IP failed and the address is at its ceiling),
    // now offering the sign-in link by mail.
    const locked = await apiLogin(owner.email, owner.password, ownIp);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(60);
    const body = await locked.json();
    expect(body.message).toMatch(/Zu viele Versuche/);
    expect(body.loginLink).toEqual({ label: 'Anmeldelink per E-Mail senden', method: 'POST', href: '/api/auth/login-link' });

    // With the device cookie: signed in, on the API and on the form.
    const api = await apiLogin(owner.email, owner.password, ownIp, device);
    expect(api.status).toBe(200);
    expect((await api.json()).email).toBe(owner.email);
    sessionCookieOf(api);
    const page = await formLogin(owner.email, owner.password, ownIp, device);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/calculator');

    // The strangers stay refused: a guessing IP that failed is stopped by the address-wide ceiling.
    const strangerIp = nextIp();
    expect((await apiLogin(owner.email, 'nochmal', strangerIp)).status).toBe(401);
    expect((await apiLogin(owner.email, 'nochmal', strangerIp)).status).toBe(429);
  }, 120_000);

  it('a NAT neighbour’s 12 wrong passwords from the owner’s IP do not block the owner who carries the device cookie', async () => {
    const owner = await createAccount();
    const sharedIp = nextIp();
    const device = await signInForDevice(owner, sharedIp);
    const neighbour: number[] = [];
    for (let i = 0; i < 12; i++) neighbour.push((await apiLogin(owner.email, `raten-${i}`, sharedIp)).status);
    expect(neighbour).toEqual([...Array(10).fill(401), 429, 429]);

    expect((await apiLogin(owner.email, owner.password, sharedIp, device)).status).toBe(200);
    expect((await formLogin(owner.email, owner.password, sharedIp, device)).status).toBe(302);
    // The neighbour, without the cookie, is still slowed down.
    expect((await apiLogin(owner.email, owner.password, sharedIp)).status).toBe(429);
  });

  it('a device cookie counts only for its own account, only with a valid signature, and has a limit of its own', async () => {
    const owner = await createAccount();
    const stranger = await createAccount();
    const ip = nextIp();
    const strangersDevice = await signInForDevice(stranger, ip);
    const ownersDevice = await signInForDevice(owner, nextIp());
    for (let i = 0; i < 10; i++) expect((await apiLogin(owner.email, `raten-${i}`, ip)).status).toBe(401);
    // The stranger's own device cookie does not open the owner's bucket ...
    expect((await apiLogin(owner.email, `raten-x`, ip, strangersDevice)).status).toBe(429);
    // ... nor does a forged one: the owner's cookie with its signature changed.
    const forged = ownersDevice.replace(/.$/, (char) => (char === 'A' ? 'B' : 'A'));
    expect((await apiLogin(owner.email, owner.password, ip, forged)).status).toBe(429);

    // A stolen device cookie still guesses slowly: 10 failures per 15 minutes per cookie.
    const thiefIp = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await apiLogin(owner.email, `dieb-${i}`, thiefIp, ownersDevice)).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    // A new sign-in elsewhere gives a new cookie with a bucket of its own.
    const fresh = await signInForDevice(owner, nextIp());
    expect((await apiLogin(owner.email, owner.password, thiefIp, fresh)).status).toBe(200);
  });

  it('keeps up to five accounts in one browser', async () => {
    const first = await createAccount();
    const second = await createAccount();
    const ip = nextIp();
    const one = await apiLogin(first.email, first.password, ip);
    const both = deviceCookieOf(await apiLogin(second.email, second.password, ip, deviceCookieOf(one).cookie)).cookie;
    for (let i = 0; i < 10; i++) await apiLogin(first.email, `raten-${i}`, ip);
    expect((await apiLogin(first.email, first.password, ip)).status).toBe(429);
    expect((await apiLogin(first.email, first.password, ip, both)).status).toBe(200);
  });
});

describe('a successful password reset clears every sign-in limit of the account', () => {
  it('after the lock-out, the new password works on the API and the form, from the owner’s IP, without a device cookie', async () => {
    const owner = await createAccount();
    const ownIp = nextIp();
    expect((await apiLogin(owner.email, 'vertippt', ownIp)).status).toBe(401);
    await strangersGuess(owner.email);
    expect((await apiLogin(owner.email, owner.password, ownIp)).status).toBe(429);
    expect((await formLogin(owner.email, owner.password, ownIp)).status).toBe(429);

    expect((await post('/api/auth/forgot-password', { email: owner.email }, { ip: ownIp })).status).toBe(200);
    const [mail] = await waitForMails(owner.email, 'resetPassword', 1);
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    const newPassword = 'Neues-Passwort-nach-Reset-9';
    const reset = await post('/api/auth/reset-password', { token, password: newPassword, confirmPassword: newPassword }, { ip: ownIp });
    expect(reset.status).toBe(200);

    // Every counter of the address is gone (the address-wide one and all 111 pairs); the IPs' own counters stay.
    const hash = crypto.createHash('sha256').update(owner.email).digest('hex').slice(0, 32);
    const rows: { n: number }[] = await server.orm.em.getConnection().execute(`select count(*)::int as n from rate_limits where key like ?`, [`login%${hash}`]);
    expect(rows[0].n).toBe(0);
    expect((await apiLogin(owner.email, newPassword, ownIp)).status).toBe(200);
    const page = await formLogin(owner.email, newPassword, ownIp);
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/calculator');
  }, 120_000);

  it('the reset form (no JavaScript) clears them too', async () => {
    const owner = await createAccount();
    const ownIp = nextIp();
    for (let i = 0; i < 10; i++) await apiLogin(owner.email, `raten-${i}`, ownIp);
    expect((await formLogin(owner.email, owner.password, ownIp)).status).toBe(429);
    await post('/forgot-password', form({ email: owner.email }), { ip: ownIp });
    const [mail] = await waitForMails(owner.email, 'resetPassword', 1);
    const token = /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    const newPassword = 'Noch-ein-Passwort-4';
    const reset = await post('/reset-password', form({ token, password: newPassword, confirmPassword: newPassword }), { ip: ownIp });
    expect(reset.status).toBe(302);
    expect((await formLogin(owner.email, newPassword, ownIp)).status).toBe(302);
  });
});

describe('sign-in by mail link', () => {
  async function lockedOwner() {
    const owner = await createAccount();
    const ownIp = nextIp();
    for (let i = 0; i < 10; i++) await apiLogin(owner.email, `raten-${i}`, ownIp);
    return { owner, ownIp };
  }

  it('the locked /auth page offers the link; it is mailed, signs in once without the password, and sets a device cookie', async () => {
    const { owner, ownIp } = await lockedOwner();
    const locked = await formLogin(owner.email, owner.password, ownIp);
    expect(locked.status).toBe(429);
    const html = await locked.text();
    expect(html).toContain('Anmeldelink per E-Mail senden');
    expect(html).toMatch(/<form[^>]+action="\/auth\/link"/);

    // The offer's form (no JavaScript): a redirect to the "sent" page.
    const sent = await post('/auth/link', form({ intent: 'send', email: owner.email }), { ip: ownIp });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('/auth/link?sent=1');
    const [mail] = await waitForMails(owner.email, 'signInLink', 1);
    expect(mail.subject).toBe('Ihr Anmeldelink für Druckpreis');
    expect(mail.text).toContain('15 Minuten');
    const token = linkToken(mail.text);
    expect(mail.text).toContain(`${server.url}/auth/link?token=${token}`);
    // Stored hashed only.
    const stored: { token_hash: string; expires_at: Date }[] = await server.orm.em.getConnection().execute('select token_hash, expires_at from sign_in_links where token_hash = ?', [
      crypto.createHash('sha256').update(token).digest('hex'),
    ]);
    expect(stored).toHaveLength(1);
    const ttl = new Date(stored[0].expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(14 * 60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    const dump: { n: number }[] = await server.orm.em.getConnection().execute(`select count(*)::int as n from sign_in_links where token_hash like ?`, [`%${token}%`]);
    expect(dump[0].n).toBe(0);

    // Opening the link does not use it up (mail scanners open links); the button does.
    const opened = await fetch(`${server.url}/auth/link?token=${token}`, { headers: { 'X-Forwarded-For': ownIp } });
    expect(opened.status).toBe(200);
    const page = await opened.text();
    expect(page).toContain('Jetzt anmelden');
    expect(page).toContain(owner.email);
    expect(opened.headers.getSetCookie().some((value) => value.startsWith('__session='))).toBe(false);

    const signedIn = await post('/auth/link', form({ intent: 'signIn', token }), { ip: ownIp });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/calculator');
    const session = sessionCookieOf(signedIn);
    const device = deviceCookieOf(signedIn).cookie;
    const me = await fetch(`${server.url}/api/auth/user`, { headers: { Cookie: session } });
    expect((await me.json()).email).toBe(owner.email);
    // The browser is known now: the password works from the locked IP.
    expect((await apiLogin(owner.email, owner.password, ownIp, device)).status).toBe(200);

    // Single use.
    const again = await post('/auth/link', form({ intent: 'signIn', token }), { ip: ownIp });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Der Anmeldelink ist ungültig, abgelaufen oder wurde bereits verwendet.');
    expect((await fetch(`${server.url}/auth/link?token=${token}`)).status).toBe(400);
  });

  it('the JSON API: the 429 names the link route; request, verify once, and an expired link is refused', async () => {
    const { owner, ownIp } = await lockedOwner();
    const locked = await apiLogin(owner.email, owner.password, ownIp);
    const { loginLink } = await locked.json();
    const requested = await post(loginLink.href, { email: owner.email }, { ip: ownIp });
    expect(requested.status).toBe(200);
    expect((await requested.json()).message).toBe(
      'Falls ein Konto mit dieser E-Mail-Adresse existiert, haben wir Ihnen einen Anmeldelink gesendet. Er ist 15 Minuten gültig.',
    );
    const [mail] = await waitForMails(owner.email, 'signInLink', 1);
    const token = linkToken(mail.text);

    const verified = await post('/api/auth/login-link/verify', { token }, { ip: ownIp });
    expect(verified.status).toBe(200);
    expect((await verified.json()).email).toBe(owner.email);
    sessionCookieOf(verified);
    deviceCookieOf(verified);
    expect((await post('/api/auth/login-link/verify', { token }, { ip: ownIp })).status).toBe(400);

    // Expired after 15 minutes.
    await post('/api/auth/login-link', { email: owner.email }, { ip: ownIp });
    const [, second] = await waitForMails(owner.email, 'signInLink', 2);
    const late = linkToken(second.text);
    await server.orm.em.getConnection().execute(`update sign_in_links set expires_at = now() - interval '1 second' where token_hash = ?`, [
      crypto.createHash('sha256').update(late).digest('hex'),
    ]);
    const expired = await post('/api/auth/login-link/verify', { token: late }, { ip: ownIp });
    expect(expired.status).toBe(400);
    expect((await expired.json()).message).toBe('Der Anmeldelink ist ungültig, abgelaufen oder wurde bereits verwendet.');
    expect((await post('/api/auth/login-link/verify', { token: 'A'.repeat(43) }, { ip: ownIp })).status).toBe(400);
  });

  it('answers the same for known, unknown and unconfirmed addresses; only a confirmed account is mailed', async () => {
    const known = await createAccount();
    const unconfirmed = await createAccount({ verified: false });
    const unknown = uniqueEmail('niemand');
    const ip = nextIp();
    const answers = [];
    for (const email of [known.email, unknown, unconfirmed.email]) {
      const response = await post('/api/auth/login-link', { email }, { ip });
      answers.push({ status: response.status, body: await response.text() });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const pages = [];
    for (const email of [known.email, unknown]) {
      const response = await post('/auth/link', form({ intent: 'send', email }), { ip });
      pages.push(`${response.status} ${response.headers.get('location')}`);
    }
    expect(pages).toEqual(['302 /auth/link?sent=1', '302 /auth/link?sent=1']);
    expect(await waitForMails(known.email, 'signInLink', 2)).toHaveLength(2);
    expect(await server.orm.em.fork().count(MailOutbox, { to: { $in: [unknown, unconfirmed.email] } })).toBe(0);
  });

  it('is rate-limited per address without locking the owner out, and per IP with 429', async () => {
    const owner = await createAccount();
    const strangerAnswers: string[] = [];
    // A stranger asks for links to the owner's address from many IPs.
    for (let i = 0; i < 8; i++) strangerAnswers.push(await (await post('/api/auth/login-link', { email: owner.email }, { ip: nextIp() })).text());
    expect(new Set(strangerAnswers).size).toBe(1);
    // Five per 15 minutes reach the mailbox; the rest get the same answer and no mail.
    const mails = await waitForMails(owner.email, 'signInLink', 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await server.orm.em.fork().count(MailOutbox, { to: owner.email, template: 'signInLink' })).toBe(5);
    // The owner's own request gets the same answer, and every link already in the mailbox still works.
    const own = await post('/api/auth/login-link', { email: owner.email }, { ip: nextIp() });
    expect(own.status).toBe(200);
    const usable = await post('/api/auth/login-link/verify', { token: linkToken(mails[4].text) }, { ip: nextIp() });
    expect(usable.status).toBe(200);

    // One IP asking for many addresses: 20 an hour, then 429 (the same for every address).
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await post('/api/auth/login-link', { email: uniqueEmail(`viele${i}`) }, { ip })).status);
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
    // The refusal does not lock the sign-in itself.
    expect((await apiLogin(owner.email, owner.password, ip)).status).toBe(200);
  });
});
