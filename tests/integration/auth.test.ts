import bcrypt from 'bcrypt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Session, User } from '../../app/entities';
import { bcryptCost, hashToken } from '../../app/models/users.server';
import { sessionStorage } from '../../app/services/session.server';
import { settleBackgroundWork } from '../../app/services/background.server';
import { action as forgotPasswordAction } from '../../app/routes/api+/auth.forgot-password';
import { action as loginAction } from '../../app/routes/api+/auth.login';
import { action as logoutAction } from '../../app/routes/api+/auth.logout';
import { action as registerAction } from '../../app/routes/api+/auth.register';
import { action as resendAction } from '../../app/routes/api+/auth.resend-verification';
import { action as resetPasswordAction } from '../../app/routes/api+/auth.reset-password';
import { loader as userLoader } from '../../app/routes/api+/auth.user';
import { loader as verifyEmailLoader } from '../../app/routes/api+/auth.verify-email';
import { loader as apiLoginLoader } from '../../app/routes/api+/login';
import {
  apiRequest,
  call,
  createUser,
  mailsTo,
  randomIp,
  sessionCookie,
  sessionIdOf,
  tokenFromMail,
  uniqueEmail,
  useAuthTestApp,
} from '../setup/auth-app';

const app = useAuthTestApp('auth');

afterEach(() => {
  vi.restoreAllMocks();
});

function registration(email: string, overrides: Record<string, unknown> = {}) {
  return {
    email,
    password: 'Zitronen-Falter-7',
    confirmPassword: 'Zitronen-Falter-7',
    firstName: 'Jonas',
    lastName: 'Becker',
    ...overrides,
  };
}

async function register(body: Record<string, unknown>, ip = randomIp()) {
  return call(registerAction, apiRequest('/api/auth/register', 'POST', body, { ip }));
}

async function login(email: string, password: string, options: { cookie?: string | null; ip?: string } = {}) {
  return call(loginAction, apiRequest('/api/auth/login', 'POST', { email, password }, { ip: randomIp(), ...options }));
}

async function verify(token: string) {
  return call(verifyEmailLoader, apiRequest(`/api/auth/verify-email?token=${encodeURIComponent(token)}`));
}

async function currentUser(cookie: string | null) {
  return call(userLoader, apiRequest('/api/auth/user', 'GET', undefined, { cookie }));
}

describe('registration and e-mail confirmation', () => {
  it('creates an unconfirmed account and queues a confirmation mail whose link works once', async () => {
    const email = uniqueEmail('neu');
    const response = await register(registration(email.toUpperCase()));
    expect(response.status).toBe(200);
    expect((await response.json()).message).toMatch(/Registrierung erfolgreich/);

    const user = await app.em().findOneOrFail(User, { email });
    expect(user.emailVerified).toBe(false);
    expect(user.firstName).toBe('Jonas');

    const [mail] = await mailsTo(app.orm, email, 'verifyEmail');
    expect(mail).toBeDefined();
    const token = tokenFromMail(mail.text, 'verify-email');
    expect(mail.text).toContain(`http://localhost:3000/verify-email?token=${token}`);
    // Only the SHA-256 of the token is stored.
    expect(user.verificationToken).toBe(hashToken(token));
    expect(user.verificationToken).toMatch(/^[0-9a-f]{64}$/);
    expect(user.verificationToken).not.toContain(token);
    const ttl = user.verificationExpires!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);

    // Unconfirmed: the right password gets 403 with the flag.
    const early = await login(email, 'Zitronen-Falter-7');
    expect(early.status).toBe(403);
    expect(await early.json()).toEqual({
      emailNotVerified: true,
      message: 'Bitte überprüfen Sie Ihre E-Mails und klicken Sie auf den Bestätigungslink.',
    });
    expect(sessionCookie(early)).toBeNull();

    const first = await verify(token);
    expect(first.status).toBe(200);
    expect((await first.json()).message).toMatch(/bestätigt/);
    const second = await verify(token);
    expect(second.status).toBe(400);
    // The link works once; a second click says what is true: confirmed, sign in (issue 8 §4).
    expect((await second.json()).message).toBe('Diese E-Mail-Adresse ist bereits bestätigt – Sie können sich anmelden.');
    // A token nobody was issued is still just invalid.
    const unknown = await verify('A'.repeat(43));
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).message).toBe('Der Bestätigungslink ist ungültig oder abgelaufen.');

    const confirmed = await app.em().findOneOrFail(User, { email });
    expect(confirmed.emailVerified).toBe(true);
    // Only the used link's hash is kept, no longer usable: no expiry.
    expect(confirmed.verificationExpires).toBeNull();
    expect(confirmed.verificationToken).not.toBe(token);

    const signedIn = await login(email, 'Zitronen-Falter-7');
    expect(signedIn.status).toBe(200);
  });

  it('refuses an expired confirmation link', async () => {
    const email = uniqueEmail('spaet');
    expect((await register(registration(email))).status).toBe(200);
    const [mail] = await mailsTo(app.orm, email, 'verifyEmail');
    const token = tokenFromMail(mail.text, 'verify-email');
    await app.em().nativeUpdate(User, { email }, { verificationExpires: new Date(Date.now() - 1000) });

    const response = await verify(token);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Der Bestätigungslink ist ungültig oder abgelaufen.');
    expect((await app.em().findOneOrFail(User, { email })).emailVerified).toBe(false);
  });

  it('says "already confirmed" for a used link only while the account is confirmed', async () => {
    const email = uniqueEmail('zweimal');
    expect((await register(registration(email))).status).toBe(200);
    const [mail] = await mailsTo(app.orm, email, 'verifyEmail');
    const token = tokenFromMail(mail.text, 'verify-email');
    expect((await verify(token)).status).toBe(200);
    expect((await (await verify(token)).json()).message).toMatch(/bereits bestätigt/);
    // Unconfirmed again (e.g. a changed address): the old link must not claim the account is ready.
    await app.em().nativeUpdate(User, { email }, { emailVerified: false });
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe('Der Bestätigungslink ist ungültig oder abgelaufen.');
    expect((await app.em().findOneOrFail(User, { email })).emailVerified).toBe(false);
  });

  it('answers a missing or malformed token with 400', async () => {
    const missing = await call(verifyEmailLoader, apiRequest('/api/auth/verify-email'));
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe('Kein Verifizierungs-Token gefunden.');
    expect((await verify('nonsense')).status).toBe(400);
  });

  it('gives an existing address the same answer and mails "account exists" instead', async () => {
    const { email } = await createUser(app.orm);
    const fresh = await register(registration(uniqueEmail('frisch')));
    const existing = await register(registration(email.replace('@', '@').toUpperCase(), { firstName: 'Mallory' }));
    expect(existing.status).toBe(fresh.status);
    expect(await existing.json()).toEqual(await fresh.json());

    expect(await mailsTo(app.orm, email, 'verifyEmail')).toHaveLength(0);
    const [mail] = await mailsTo(app.orm, email, 'accountExists');
    expect(mail).toBeDefined();
    expect(mail.text).toContain('http://localhost:3000/forgot-password');
    // The stored account is untouched.
    const user = await app.em().findOneOrFail(User, { email });
    expect(user.firstName).toBe('Anna');
  });

  it('validates with the German messages of the spec', async () => {
    const response = await register({
      email: 'keine-adresse',
      password: '12345',
      confirmPassword: 'anders',
      firstName: '',
      lastName: ' ',
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe('Bitte überprüfen Sie Ihre Eingaben.');
    expect(body.errors.email).toEqual(['Bitte geben Sie eine gültige E-Mail-Adresse ein']);
    expect(body.errors.password).toEqual(['Passwort muss mindestens 6 Zeichen lang sein']);
    expect(body.errors.firstName).toEqual(['Vorname ist erforderlich']);
    expect(body.errors.lastName).toEqual(['Nachname ist erforderlich']);

    const mismatch = await register(registration(uniqueEmail(), { confirmPassword: 'Etwas-Anderes-1' }));
    expect((await mismatch.json()).errors.confirmPassword).toEqual(['Passwörter stimmen nicht überein']);
  });

  it('refuses common passwords and passwords over 72 bytes', async () => {
    for (const password of ['passwort', 'Hallo123', '123456', 'qwertz123']) {
      const response = await register(registration(uniqueEmail(), { password, confirmPassword: password }));
      expect(response.status).toBe(400);
      expect((await response.json()).errors.password[0]).toMatch(/zu häufig/);
    }
    // 36 × 'ä' = 36 characters but 72 bytes: allowed; one more is 74 bytes.
    const ok = 'ä'.repeat(36);
    expect((await register(registration(uniqueEmail(), { password: ok, confirmPassword: ok }))).status).toBe(200);
    const long = 'ä'.repeat(37);
    const response = await register(registration(uniqueEmail(), { password: long, confirmPassword: long }));
    expect(response.status).toBe(400);
    expect((await response.json()).errors.password[0]).toMatch(/72 Byte/);
  });

  it('answers broken JSON with 400, not 500', async () => {
    const response = await call(registerAction, apiRequest('/api/auth/register', 'POST', '{"email": ', { ip: randomIp() }));
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Die Anfrage konnte nicht gelesen werden. Bitte senden Sie ein JSON-Objekt.');
  });

  it('resends a confirmation link only to unconfirmed accounts, with the same answer for all', async () => {
    const pending = uniqueEmail('wartet');
    await register(registration(pending));
    const { email: confirmed } = await createUser(app.orm);
    const answers = [];
    for (const email of [pending, confirmed, uniqueEmail('unbekannt')]) {
      const response = await call(resendAction, apiRequest('/api/auth/resend-verification', 'POST', { email }, { ip: randomIp() }));
      answers.push({ status: response.status, body: await response.json() });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const mails = await mailsTo(app.orm, pending, 'verifyEmail');
    expect(mails).toHaveLength(2);
    // The new link replaces the old one; the replaced link, never used, stays invalid after the new one is.
    expect((await verify(tokenFromMail(mails[0].text, 'verify-email'))).status).toBe(400);
    expect((await verify(tokenFromMail(mails[1].text, 'verify-email'))).status).toBe(200);
    const replaced = await verify(tokenFromMail(mails[0].text, 'verify-email'));
    expect((await replaced.json()).message).toBe('Der Bestätigungslink ist ungültig oder abgelaufen.');
    expect(await mailsTo(app.orm, confirmed, 'verifyEmail')).toHaveLength(0);
  });
});

describe('sign-in', () => {
  it('returns the user without password or tokens and sets a session cookie', async () => {
    const { email, password } = await createUser(app.orm, { firstName: 'Klara' });
    const response = await login(email.toUpperCase(), password);
    expect(response.status).toBe(200);
    const user = await response.json();
    expect(user).toMatchObject({ email, firstName: 'Klara', lastName: 'Schmidt', emailVerified: true, isAdmin: 0, isPremium: 0 });
    expect(Object.keys(user).sort()).toEqual(
      ['createdAt', 'email', 'emailVerified', 'firstName', 'id', 'isAdmin', 'isPremium', 'lastName', 'pendingEmail', 'profileImageUrl', 'subscriptionStatus'].sort(),
    );
    const setCookie = response.headers.get('Set-Cookie')!;
    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);

    const me = await currentUser(sessionCookie(response));
    expect(me.status).toBe(200);
    const body = await me.json();
    expect(body.email).toBe(email);
    expect(JSON.stringify(body)).not.toMatch(/\$2[aby]\$|password|Token/);
  });

  it('answers an unknown address and a wrong password identically, both through bcrypt', async () => {
    const { email } = await createUser(app.orm);
    const compare = vi.spyOn(bcrypt, 'compare');

    const wrong = await login(email, 'Falsches-Passwort-1');
    const unknown = await login(uniqueEmail('niemand'), 'Falsches-Passwort-1');

    expect(compare).toHaveBeenCalledTimes(2);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const [wrongBody, unknownBody] = [await wrong.json(), await unknown.json()];
    expect(wrongBody).toEqual({ message: 'E-Mail oder Passwort ungültig.' });
    expect(unknownBody).toEqual(wrongBody);
    // Both pay for one bcrypt comparison at the same cost, so they take the same time: the unknown
    // address is compared against a dummy hash of the configured cost, like a real account's.
    // (The cost is read from the hashes, not timed: a timing assert flakes on a busy machine.)
    const costs = compare.mock.calls.map(([, hash]) => /^\$2[aby]\$(\d{2})\$/.exec(String(hash))?.[1]);
    expect(costs).toEqual([String(bcryptCost()).padStart(2, '0'), String(bcryptCost()).padStart(2, '0')]);
  });

  it('issues a new session id at sign-in and deletes the one from before', async () => {
    const { email, password } = await createUser(app.orm);
    // A visitor's session (e.g. planted by an attacker) before sign-in.
    const visitor = await sessionStorage.getSession(null);
    visitor.set('userId', undefined);
    const plantedCookie = (await sessionStorage.commitSession(visitor)).split(';')[0];
    const plantedSid = await sessionIdOf(plantedCookie);
    expect(plantedSid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await app.em().count(Session, { sid: plantedSid })).toBe(1);

    const response = await login(email, password, { cookie: plantedCookie });
    expect(response.status).toBe(200);
    const newCookie = sessionCookie(response);
    const newSid = await sessionIdOf(newCookie);
    expect(newSid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSid).not.toBe(plantedSid);
    expect(await app.em().count(Session, { sid: plantedSid })).toBe(0);
    // The old cookie does not sign anyone in.
    expect((await currentUser(plantedCookie)).status).toBe(401);
    expect((await currentUser(newCookie)).status).toBe(200);
  });

  it('logout deletes the session row and clears the cookie', async () => {
    const { email, password } = await createUser(app.orm);
    const cookie = sessionCookie(await login(email, password));
    const sid = await sessionIdOf(cookie);
    expect(await app.em().count(Session, { sid })).toBe(1);

    const response = await call(logoutAction, apiRequest('/api/auth/logout', 'POST', undefined, { cookie }));
    expect(response.status).toBe(200);
    expect(response.headers.get('Set-Cookie')).toMatch(/__session=;.*Expires=Thu, 01 Jan 1970/);
    expect(await app.em().count(Session, { sid })).toBe(0);
    expect((await currentUser(cookie)).status).toBe(401);
  });

  it('GET /api/auth/user is 401 with a message for visitors', async () => {
    const response = await currentUser(null);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Bitte melden Sie sich an.' });
  });

  it('rate-limits sign-in per address and IP with 429 and a German message', async () => {
    const { email } = await createUser(app.orm);
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login(email, `Falsch-${i}-xyz`, { ip })).status);
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const limited = await login(email, 'Falsch-nochmal', { ip });
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    const minutes = Math.max(1, Math.ceil(retryAfter / 60));
    // German plural, matching Retry-After: "1 Minute", "15 Minuten" (never "Minute(n)").
    expect((await limited.json()).message).toBe(
      `Zu viele Versuche. Bitte warten Sie ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} und versuchen Sie es dann erneut.`,
    );
  });

  it('rate-limits registration: successful ones per IP (20/h), refused ones do not count', async () => {
    // A quarter of the limits (5 per IP), so the test hashes 6 passwords, not 21.
    process.env.RATE_LIMIT_FACTOR = '0.25';
    try {
      const ip = randomIp();
      // Weak passwords are refused and do not use up the shared address's allowance.
      for (let i = 0; i < 6; i++) expect((await register(registration(uniqueEmail(), { password: 'passwort', confirmPassword: 'passwort' }), ip)).status).toBe(400);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await register(registration(uniqueEmail()), ip)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      delete process.env.RATE_LIMIT_FACTOR;
    }
  });

  it('rate-limits registration per address (each attempt mails it)', async () => {
    const email = uniqueEmail();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await register(registration(email), randomIp())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('/api/login redirects to /auth', async () => {
    const response = await call(apiLoginLoader, apiRequest('/api/login'));
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/auth');
    const back = await call(apiLoginLoader, apiRequest('/api/login?redirectTo=https://evil.example/'));
    expect(back.headers.get('Location')).toBe('/auth?redirectTo=%2Fcalculator');
  });
});

describe('forgot and reset password', () => {
  async function forgot(email: string) {
    const response = await call(forgotPasswordAction, apiRequest('/api/auth/forgot-password', 'POST', { email }, { ip: randomIp() }));
    // The reset mail is prepared after the answer (so its timing reveals nothing); wait for it.
    await settleBackgroundWork();
    return response;
  }
  async function reset(token: string, password: string, confirmPassword = password) {
    return call(resetPasswordAction, apiRequest('/api/auth/reset-password', 'POST', { token, password, confirmPassword }));
  }

  it('answers the same for unknown addresses and mails a 1-hour link to known ones', async () => {
    const { email } = await createUser(app.orm);
    const known = await forgot(email);
    const unknown = await forgot(uniqueEmail('unbekannt'));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());

    const [mail] = await mailsTo(app.orm, email, 'resetPassword');
    const token = tokenFromMail(mail.text, 'reset-password');
    const user = await app.em().findOneOrFail(User, { email });
    expect(user.resetPasswordToken).toBe(hashToken(token));
    const ttl = user.resetPasswordExpires!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  it('resets once, ends every session and lets the new password sign in', async () => {
    const { email, password } = await createUser(app.orm);
    const sessionA = sessionCookie(await login(email, password));
    const sessionB = sessionCookie(await login(email, password));
    await forgot(email);
    const [mail] = await mailsTo(app.orm, email, 'resetPassword');
    const token = tokenFromMail(mail.text, 'reset-password');

    const weak = await reset(token, 'passwort');
    expect(weak.status).toBe(400);
    const mismatch = await reset(token, 'Neues-Passwort-9', 'Anderes-Passwort-9');
    expect((await mismatch.json()).errors.confirmPassword).toEqual(['Passwörter stimmen nicht überein']);

    const done = await reset(token, 'Neues-Passwort-9');
    expect(done.status).toBe(200);
    expect((await done.json()).message).toMatch(/zurückgesetzt/);
    expect((await currentUser(sessionA)).status).toBe(401);
    expect((await currentUser(sessionB)).status).toBe(401);
    const user = await app.em().findOneOrFail(User, { email });
    expect(await app.em().getConnection().execute(`select count(*)::int as n from sessions where sess->>'userId' = ?`, [user.id])).toEqual([{ n: 0 }]);

    const again = await reset(token, 'Noch-Ein-Passwort-3');
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe('Der Reset-Link ist ungültig oder abgelaufen.');

    expect((await login(email, password)).status).toBe(401);
    expect((await login(email, 'Neues-Passwort-9')).status).toBe(200);
  });

  it('refuses an expired reset link and a missing token', async () => {
    const { email, password } = await createUser(app.orm);
    await forgot(email);
    const [mail] = await mailsTo(app.orm, email, 'resetPassword');
    const token = tokenFromMail(mail.text, 'reset-password');
    await app.em().nativeUpdate(User, { email }, { resetPasswordExpires: new Date(Date.now() - 1000) });
    expect((await reset(token, 'Neues-Passwort-9')).status).toBe(400);
    expect((await login(email, password)).status).toBe(200);

    const missing = await reset('', 'Neues-Passwort-9');
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe('Der Reset-Link ist ungültig oder abgelaufen.');
  });

  it('confirms the address of an unconfirmed account (the mailbox owner proved control)', async () => {
    const { email } = await createUser(app.orm, { verified: false });
    await forgot(email);
    const [mail] = await mailsTo(app.orm, email, 'resetPassword');
    expect((await reset(tokenFromMail(mail.text, 'reset-password'), 'Neues-Passwort-9')).status).toBe(200);
    expect((await login(email, 'Neues-Passwort-9')).status).toBe(200);
  });
});
