import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignInLink } from '../../app/entities';
import { action as loginAction } from '../../app/routes/api+/auth.login';
import { action as linkAction } from '../../app/routes/api+/auth.login-link';
import { action as verifyAction } from '../../app/routes/api+/auth.login-link_.verify';
import { settleBackgroundWork } from '../../app/services/background.server';
import { DEVICE_COOKIE_NAME, deviceCookieHeaders, readDeviceTokens } from '../../app/services/device-cookie.server';
import { deliverPendingMails } from '../../app/services/mail.server';
import { hashToken } from '../../app/models/users.server';
import { startTestSmtpServer, type TestSmtpServer } from '../setup/smtp-server';
import { apiRequest, call, createUser, randomIp, sessionCookie, useAuthTestApp } from '../setup/auth-app';

/**
 * Issue 18 §2 in-process: the device cookie's signature and contents, and the
 * sign-in link's way from the outbox through a real SMTP server (smtp-server)
 * back into a session. tests/security/lockout.test.ts runs the lock-out
 * scenarios against the real HTTP server.
 */
const app = useAuthTestApp('signin');
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
});
afterAll(async () => {
  await smtp?.stop();
});

const cookieHeader = (setCookies: string[]) => setCookies[0].split(';')[0];
const request = (cookie?: string) => new Request('http://localhost:3000/auth', { headers: cookie ? { Cookie: cookie } : {} });

describe('device cookie', () => {
  it('names the account and a fresh nonce, signed; a changed value or a foreign signature is no device cookie', async () => {
    const userId = crypto.randomUUID();
    const headers = await deviceCookieHeaders(request(), userId);
    expect(headers).toHaveLength(3);
    const cookie = cookieHeader(headers);
    const [token] = await readDeviceTokens(request(cookie));
    expect(token.userId).toBe(userId);
    expect(token.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Each sign-in gets a new nonce.
    const [next] = await readDeviceTokens(request(cookieHeader(await deviceCookieHeaders(request(cookie), userId))));
    expect(next.nonce).not.toBe(token.nonce);

    // The same contents without our signature, or with another's:
    const value = decodeURIComponent(cookie.slice(DEVICE_COOKIE_NAME.length + 1));
    const [payload] = value.split('.');
    const unsigned = `${DEVICE_COOKIE_NAME}=${encodeURIComponent(payload)}`;
    const foreign = `${DEVICE_COOKIE_NAME}=${encodeURIComponent(`${payload}.${'A'.repeat(43)}`)}`;
    const otherAccount = `${DEVICE_COOKIE_NAME}=${encodeURIComponent(`${Buffer.from(JSON.stringify([[crypto.randomUUID(), token.nonce]])).toString('base64')}.${value.split('.')[1]}`)}`;
    for (const forged of [unsigned, foreign, otherAccount, `${DEVICE_COOKIE_NAME}=%E0%A4%A`]) {
      expect(await readDeviceTokens(request(forged)), forged).toEqual([]);
    }
  });

  it('keeps the five accounts signed in last, the newest first', async () => {
    const ids = Array.from({ length: 7 }, () => crypto.randomUUID());
    let cookie: string | undefined;
    for (const id of ids) cookie = cookieHeader(await deviceCookieHeaders(request(cookie), id));
    expect((await readDeviceTokens(request(cookie))).map((token) => token.userId)).toEqual(ids.slice(2).reverse());
  });
});

describe('sign-in link', () => {
  it('goes through the outbox to the SMTP server and signs in once, with a session and a device cookie', async () => {
    const { email } = await createUser(app.orm);
    const ip = randomIp();
    const requested = await call(linkAction, apiRequest('/api/auth/login-link', 'POST', { email }, { ip }));
    expect(requested.status).toBe(200);
    await settleBackgroundWork();

    process.env.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    try {
      expect((await deliverPendingMails({ em: app.em() })).sent).toBeGreaterThanOrEqual(1);
    } finally {
      delete process.env.SMTP_URL;
    }
    const mail = smtp.messages.find((message) => message.envelope.to.includes(email))!;
    expect(mail.subject).toBe('Ihr Anmeldelink für Druckpreis');
    const token = /\/auth\/link\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1];
    expect(mail.html).toContain(`/auth/link?token=${token}`);
    expect(await app.em().count(SignInLink, { tokenHash: hashToken(token) })).toBe(1);

    const verified = await call(verifyAction, apiRequest('/api/auth/login-link/verify', 'POST', { token }, { ip }));
    expect(verified.status).toBe(200);
    expect((await verified.json()).email).toBe(email);
    expect(sessionCookie(verified)).not.toBeNull();
    const device = verified.headers.getSetCookie().find((value) => value.startsWith(`${DEVICE_COOKIE_NAME}=`))!;

    // That browser now signs in in its own bucket: ten wrong passwords from its IP without it do not stop it.
    for (let i = 0; i < 10; i++) await call(loginAction, apiRequest('/api/auth/login', 'POST', { email, password: `falsch-${i}` }, { ip }));
    const withoutCookie = await call(loginAction, apiRequest('/api/auth/login', 'POST', { email, password: 'Sicher-Passwort-42' }, { ip }));
    expect(withoutCookie.status).toBe(429);
    const withCookie = await call(loginAction, apiRequest('/api/auth/login', 'POST', { email, password: 'Sicher-Passwort-42' }, { ip, cookie: device.split(';')[0] }));
    expect(withCookie.status).toBe(200);

    const twice = await call(verifyAction, apiRequest('/api/auth/login-link/verify', 'POST', { token }, { ip }));
    expect(twice.status).toBe(400);
  });

  it('two clicks at once sign in once', async () => {
    const { email } = await createUser(app.orm);
    await call(linkAction, apiRequest('/api/auth/login-link', 'POST', { email }, { ip: randomIp() }));
    await settleBackgroundWork();
    const link = await app.em().findOneOrFail(SignInLink, { user: { email } });
    // The token is not stored: make a row with a known one.
    const token = 'B'.repeat(43);
    await app.em().nativeUpdate(SignInLink, { id: link.id }, { tokenHash: hashToken(token) });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(verifyAction, apiRequest('/api/auth/login-link/verify', 'POST', { token }, { ip: randomIp() }))),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });
});
