import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AdminSetting, ContactMessage, MailOutbox, Session, User } from '../../app/entities';
import { newProfileObjectKey } from '../../app/models/profile.server';
import { action as loginAction } from '../../app/routes/api+/auth.login';
import { loader as userLoader } from '../../app/routes/api+/auth.user';
import { action as contactAction } from '../../app/routes/api+/contact';
import { action as profileAction } from '../../app/routes/api+/profile';
import { action as imageAction } from '../../app/routes/api+/profile.image';
import { action as passwordAction } from '../../app/routes/api+/profile.password';
import { action as uploadUrlAction } from '../../app/routes/api+/profile.upload-url';
import { action as cancelEmailAction } from '../../app/routes/api+/profile.email';
import { loader as verifyEmailLoader } from '../../app/routes/api+/auth.verify-email';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionStorage } from '../../app/services/session.server';
import { getFileStore } from '../../app/services/storage.server';
import { requireAdmin, requireUser } from '../../app/services/auth.server';
import {
  APP_URL,
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

const app = useAuthTestApp('authprofile');

async function signIn(options: Parameters<typeof createUser>[1] = {}) {
  const created = await createUser(app.orm, options);
  const response = await call(
    loginAction,
    apiRequest('/api/auth/login', 'POST', { email: created.email, password: created.password }, { ip: randomIp() }),
  );
  expect(response.status).toBe(200);
  return { ...created, cookie: sessionCookie(response)! };
}

async function me(cookie: string | null) {
  return call(userLoader, apiRequest('/api/auth/user', 'GET', undefined, { cookie }));
}

describe('session limits', () => {
  it('slides the idle expiry at most once per hour and ends idle or too old sessions', async () => {
    const { cookie } = await signIn();
    const sid = await sessionIdOf(cookie);
    const row = await app.em().findOneOrFail(Session, { sid });
    expect(row.expire.getTime() - Date.now()).toBeGreaterThan(SESSION_IDLE_MS - 60_000);
    expect(typeof row.sess.createdAt).toBe('number');

    // Used 2 hours later (simulated by moving expire back): the window moves forward.
    const earlier = new Date(Date.now() + SESSION_IDLE_MS - 2 * 3600_000);
    await app.em().nativeUpdate(Session, { sid }, { expire: earlier });
    expect((await me(cookie)).status).toBe(200);
    const slid = await app.em().findOneOrFail(Session, { sid });
    expect(slid.expire.getTime()).toBeGreaterThan(earlier.getTime() + 3600_000);

    // Used again within the hour: no write.
    const recent = new Date(Date.now() + SESSION_IDLE_MS - 10 * 60_000);
    await app.em().nativeUpdate(Session, { sid }, { expire: recent });
    expect((await me(cookie)).status).toBe(200);
    expect((await app.em().findOneOrFail(Session, { sid })).expire.getTime()).toBe(recent.getTime());

    // Idle past the expiry: gone.
    await app.em().nativeUpdate(Session, { sid }, { expire: new Date(Date.now() - 1000) });
    expect((await me(cookie)).status).toBe(401);
    expect(await app.em().count(Session, { sid })).toBe(0);
  });

  it('ends a session 30 days after it was created, however active', async () => {
    const { cookie } = await signIn();
    const sid = await sessionIdOf(cookie);
    const row = await app.em().findOneOrFail(Session, { sid });
    await app
      .em()
      .nativeUpdate(Session, { sid }, { sess: { ...row.sess, createdAt: Date.now() - SESSION_ABSOLUTE_MS - 1000 } });
    expect((await me(cookie)).status).toBe(401);
  });

  it('never extends the expiry beyond the absolute limit', async () => {
    const { cookie } = await signIn();
    const sid = await sessionIdOf(cookie);
    const row = await app.em().findOneOrFail(Session, { sid });
    const createdAt = Date.now() - SESSION_ABSOLUTE_MS + 3600_000 * 24;
    await app.em().nativeUpdate(Session, { sid }, { sess: { ...row.sess, createdAt }, expire: new Date(Date.now() + 3600_000) });
    expect((await me(cookie)).status).toBe(200);
    const after = await app.em().findOneOrFail(Session, { sid });
    expect(after.expire.getTime()).toBeLessThanOrEqual(createdAt + SESSION_ABSOLUTE_MS);
  });

  it('refuses a tampered cookie', async () => {
    const { cookie } = await signIn();
    const [name, value] = cookie.split('=');
    const tampered = `${name}=${value.slice(0, -3)}abc`;
    expect((await me(tampered)).status).toBe(401);
  });
});

describe('guards', () => {
  it('requireUser redirects visitors to /auth with a safe redirectTo', async () => {
    const thrown = await requireUser(apiRequest('/projects?x=1')).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get('Location')).toBe('/auth?redirectTo=%2Fprojects%3Fx%3D1');
  });

  it('requireAdmin sends visitors to /api/login and refuses non-admins with 403', async () => {
    const visitor = (await requireAdmin(apiRequest('/admin')).catch((error: unknown) => error)) as Response;
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('Location')).toBe('/api/login');

    const { cookie } = await signIn();
    const member = (await requireAdmin(apiRequest('/admin', 'GET', undefined, { cookie })).catch((error: unknown) => error)) as Response;
    expect(member.status).toBe(403);
    expect((await member.json()).message).toBe('Sie haben keine Berechtigung für diese Seite.');

    const admin = await signIn();
    await app.em().nativeUpdate(User, { email: admin.email }, { isAdmin: 1 });
    const user = await requireAdmin(apiRequest('/admin', 'GET', undefined, { cookie: admin.cookie }));
    expect(user.user.email).toBe(admin.email);
  });

  it('the API routes answer visitors with 401', async () => {
    for (const [handler, method] of [
      [profileAction, 'PUT'],
      [passwordAction, 'PUT'],
      [uploadUrlAction, 'POST'],
      [imageAction, 'PUT'],
    ] as const) {
      const response = await call(handler, apiRequest('/api/profile', method, {}));
      expect(response.status).toBe(401);
    }
  });
});

describe('profile', () => {
  async function putProfile(cookie: string, body: unknown) {
    return call(profileAction, apiRequest('/api/profile', 'PUT', body, { cookie }));
  }

  it('updates the names and keeps the address', async () => {
    const { cookie, email } = await signIn();
    const response = await putProfile(cookie, { firstName: ' Berta ', lastName: 'Neumann', email: email.toUpperCase() });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.emailChanged).toBe(false);
    expect(body.user).toMatchObject({ firstName: 'Berta', lastName: 'Neumann', email, emailVerified: true });
    expect(body.message).toBe('Ihr Profil wurde aktualisiert.');
  });

  it('validates with the spec messages and refuses an address in use', async () => {
    const { cookie } = await signIn();
    const invalid = await putProfile(cookie, { firstName: '', lastName: '', email: 'kaputt' });
    expect(invalid.status).toBe(400);
    const body = await invalid.json();
    expect(body.errors).toEqual({
      firstName: ['Vorname ist erforderlich'],
      lastName: ['Nachname ist erforderlich'],
      email: ['Ungültige E-Mail-Adresse'],
    });
    // An address in use gets the same answer as a free one (no enumeration); its owner is told instead.
    const other = await createUser(app.orm);
    const taken = await putProfile(cookie, { firstName: 'A', lastName: 'B', email: other.email.toUpperCase() });
    const free = await putProfile(cookie, { firstName: 'A', lastName: 'B', email: uniqueEmail('frei') });
    expect(taken.status).toBe(200);
    expect(free.status).toBe(200);
    const [takenBody, freeBody] = [await taken.json(), await free.json()];
    expect(takenBody.message).toBe(freeBody.message);
    expect(takenBody.emailChanged).toBe(true);
    expect(await mailsTo(app.orm, other.email, 'emailInUse')).toHaveLength(1);
    expect(await mailsTo(app.orm, other.email, 'confirmNewEmail')).toHaveLength(0);
    expect((await app.em().findOneOrFail(User, { email: other.email })).emailVerified).toBe(true);
  });

  it('a changed address waits for its confirmation; the old one keeps signing in and is told', async () => {
    const { cookie, email, password } = await signIn();
    const newEmail = uniqueEmail('umgezogen');
    const response = await putProfile(cookie, { firstName: 'Anna', lastName: 'Schmidt', email: newEmail });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.emailChanged).toBe(true);
    expect(body.user).toMatchObject({ email, emailVerified: true, pendingEmail: newEmail });
    expect((await me(cookie)).status).toBe(200);

    const login = (address: string) => call(loginAction, apiRequest('/api/auth/login', 'POST', { email: address, password }, { ip: randomIp() }));
    expect((await login(email)).status).toBe(200);
    expect((await login(newEmail)).status).toBe(401);
    const [notice] = await mailsTo(app.orm, email, 'emailChangeRequested');
    expect(notice.text).toContain(newEmail);
    // An address change has its own mail: no "thank you for registering".
    expect(await mailsTo(app.orm, newEmail, 'verifyEmail')).toHaveLength(0);
    const [mail] = await mailsTo(app.orm, newEmail, 'confirmNewEmail');
    expect(mail.subject).toBe('Neue E-Mail-Adresse bestätigen');
    expect(mail.text).toContain('E-Mail-Adresse Ihres Druckpreis-Kontos ändern');
    expect(mail.text).toContain(newEmail);
    expect(mail.text).not.toContain('Registrierung');
    const token = tokenFromMail(mail.text, 'verify-email');

    const confirmed = await call(verifyEmailLoader, apiRequest(`/api/auth/verify-email?token=${token}`));
    expect(confirmed.status).toBe(200);
    expect((await confirmed.json()).message).toBe('Ihre neue E-Mail-Adresse ist bestätigt. Ab jetzt melden Sie sich mit ihr an.');
    expect(await app.em().count(User, { email })).toBe(0);
    expect(await app.em().findOneOrFail(User, { email: newEmail })).toMatchObject({ emailVerified: true, pendingEmail: null });
    expect((await login(newEmail)).status).toBe(200);
    expect((await login(email)).status).toBe(401);
  });

  it('lets the user cancel a pending change; its link stops working', async () => {
    const { cookie, email } = await signIn();
    const newEmail = uniqueEmail('vertippt');
    await putProfile(cookie, { firstName: 'Anna', lastName: 'Schmidt', email: newEmail });
    const [mail] = await mailsTo(app.orm, newEmail, 'confirmNewEmail');
    const cancelled = await call(cancelEmailAction, apiRequest('/api/profile/email', 'DELETE', undefined, { cookie }));
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).user).toMatchObject({ email, pendingEmail: null });
    const confirmed = await call(verifyEmailLoader, apiRequest(`/api/auth/verify-email?token=${tokenFromMail(mail.text, 'verify-email')}`));
    expect(confirmed.status).toBe(400);
    expect(await app.em().count(User, { email: newEmail })).toBe(0);
  });
});

describe('password change', () => {
  async function putPassword(cookie: string, body: unknown) {
    return call(passwordAction, apiRequest('/api/profile/password', 'PUT', body, { cookie }));
  }

  it('answers a wrong current password with INVALID_PASSWORD', async () => {
    const { cookie } = await signIn();
    const response = await putPassword(cookie, {
      currentPassword: 'Falsch-123',
      newPassword: 'Neues-Passwort-9',
      confirmPassword: 'Neues-Passwort-9',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: 'INVALID_PASSWORD', message: 'Das aktuelle Passwort ist falsch.' });
  });

  it('counts guesses of the current password like sign-ins: ten per account in 15 minutes, then 429', async () => {
    const { cookie } = await signIn();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await putPassword(cookie, { currentPassword: `Falsch-${i}`, newPassword: 'Neues-Passwort-9', confirmPassword: 'Neues-Passwort-9' });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
  });

  it('validates with the spec messages', async () => {
    const { cookie } = await signIn();
    const response = await putPassword(cookie, { currentPassword: '', newPassword: '123', confirmPassword: '' });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual({
      currentPassword: ['Aktuelles Passwort ist erforderlich'],
      newPassword: ['Neues Passwort muss mindestens 6 Zeichen haben'],
      confirmPassword: ['Passwort bestätigen ist erforderlich'],
    });
    const mismatch = await putPassword(cookie, { currentPassword: 'x', newPassword: 'Neues-Passwort-9', confirmPassword: 'Anders-9999' });
    expect((await mismatch.json()).errors).toEqual({ confirmPassword: ['Passwörter stimmen nicht überein'] });
  });

  it('changes the password, ends the other sessions and keeps this one', async () => {
    const { cookie, email, password } = await signIn();
    const other = sessionCookie(
      await call(loginAction, apiRequest('/api/auth/login', 'POST', { email, password }, { ip: randomIp() })),
    );
    expect((await me(other)).status).toBe(200);

    const response = await putPassword(cookie, {
      currentPassword: password,
      newPassword: 'Neues-Passwort-9',
      confirmPassword: 'Neues-Passwort-9',
    });
    expect(response.status).toBe(200);
    expect((await me(cookie)).status).toBe(200);
    expect((await me(other)).status).toBe(401);

    const relogin = await call(
      loginAction,
      apiRequest('/api/auth/login', 'POST', { email, password: 'Neues-Passwort-9' }, { ip: randomIp() }),
    );
    expect(relogin.status).toBe(200);
  });
});

describe('profile picture', () => {
  async function uploadUrl(cookie: string): Promise<string> {
    const response = await call(uploadUrlAction, apiRequest('/api/profile/upload-url', 'POST', undefined, { cookie }));
    expect(response.status).toBe(200);
    const { uploadURL } = await response.json();
    return uploadURL;
  }
  /** What the browser's PUT to the upload address does (the local store's route is tested by the files helper). */
  async function uploadTo(url: string, bytes: Buffer) {
    const key = decodeURIComponent(new URL(url, APP_URL).pathname.replace(/^\/uploads\//, ''));
    await getFileStore().put(key, bytes, 'image/jpeg');
    return key;
  }
  async function complete(cookie: string, imageUrl: string) {
    return call(imageAction, apiRequest('/api/profile/image', 'PUT', { imageUrl }, { cookie }));
  }

  it('stores an uploaded PNG as JPEG and deletes the raw upload', async () => {
    const { cookie, user } = await signIn();
    const url = await uploadUrl(cookie);
    // Relative: the browser uploads to the host name it reached the app under (CSP connect-src 'self').
    expect(url).toMatch(new RegExp(`^/uploads/profile/${user.id}/[a-z0-9]+\\?`));
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 200, g: 0, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const key = await uploadTo(url, png);

    const response = await complete(cookie, url.split('?')[0]);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.imageUrl).toMatch(new RegExp(`^/images/profile/${user.id}/[a-z0-9]+$`));
    expect(body.user.profileImageUrl).toBe(body.imageUrl);
    expect(body.message).toBe('Ihr Profilbild wurde aktualisiert.');

    const stored = await getFileStore().get(body.imageUrl.replace('/images/', ''));
    expect(stored?.contentType).toBe('image/jpeg');
    expect(stored!.body.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(await getFileStore().get(key)).toBeNull();
    expect((await me(cookie)).status).toBe(200);
    expect((await (await me(cookie)).json()).profileImageUrl).toBe(body.imageUrl);

    // The same address again: the raw upload is gone.
    expect((await complete(cookie, url)).status).toBe(400);
  });

  it("refuses another user's upload address", async () => {
    const owner = await signIn();
    const intruder = await signIn();
    const url = await uploadUrl(owner.cookie);
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#00ff00' } }).jpeg().toBuffer();
    const key = await uploadTo(url, jpeg);

    const response = await complete(intruder.cookie, url);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Die Bildadresse ist ungültig.');
    // A key the server never issued, under a made-up prefix, is refused too.
    expect((await complete(intruder.cookie, `/uploads/upload/${'a'.repeat(32)}`)).status).toBe(400);
    expect((await complete(intruder.cookie, `/uploads/${newProfileObjectKey(owner.user.id)}`)).status).toBe(400);
    // The owner's upload is untouched.
    expect(await getFileStore().get(key)).not.toBeNull();
  });

  it('refuses a file that is not an image, whatever it claims to be', async () => {
    const { cookie, user } = await signIn();
    const key = await uploadTo(await uploadUrl(cookie), Buffer.from('<script>alert(1)</script>'));
    const response = await complete(cookie, `/uploads/${key}`);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Bitte wählen Sie eine Bilddatei aus.');
    const stored = await app.em().findOneOrFail(User, { id: user.id });
    expect(stored.profileImageUrl).toBeNull();
    expect(await getFileStore().get(key)).toBeNull();
  });

  it('refuses a GIF (wrong type) and more than 5 MB', async () => {
    const { cookie } = await signIn();
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).gif().toBuffer();
    const gifKey = await uploadTo(await uploadUrl(cookie), gif);
    const wrong = await complete(cookie, `/uploads/${gifKey}`);
    expect((await wrong.json()).message).toBe('Nur JPG und PNG Dateien sind erlaubt.');

    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(5 * 1024 * 1024)]);
    const bigKey = await uploadTo(await uploadUrl(cookie), big);
    const tooLarge = await complete(cookie, `/uploads/${bigKey}`);
    expect(tooLarge.status).toBe(400);
    expect((await tooLarge.json()).message).toBe('Datei ist zu groß. Maximum: 5MB');
  });
});

describe('contact', () => {
  async function send(body: Record<string, unknown>, ip = randomIp()) {
    return call(contactAction, apiRequest('/api/contact', 'POST', body, { ip }));
  }
  const message = (overrides: Record<string, unknown> = {}) => ({
    name: 'Paula Weber',
    email: uniqueEmail('kontakt'),
    subject: 'Frage zum Rechner',
    message: 'Wie rechne ich Stützmaterial ein?',
    ...overrides,
  });

  it('stores the message and queues notification and auto-reply in one go', async () => {
    const em = app.em();
    em.create(AdminSetting, { key: 'contact_config', value: JSON.stringify({ contactEmail: 'support@druckpreis.example', enabled: true }) });
    await em.flush();
    const input = message();
    const response = await send(input);
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe('Vielen Dank für Ihre Nachricht! Sie erhalten eine Bestätigungsmail.');

    const stored = await app.em().findOneOrFail(ContactMessage, { email: input.email });
    expect(stored).toMatchObject({ name: 'Paula Weber', subject: 'Frage zum Rechner' });
    const notification = await app.em().findOneOrFail(MailOutbox, { template: 'contactNotification', replyTo: input.email });
    expect(notification.to).toBe('support@druckpreis.example');
    expect(notification.text).toContain('Wie rechne ich Stützmaterial ein?');
    expect(await mailsTo(app.orm, input.email, 'contactAutoReply')).toHaveLength(1);
  });

  it('skips the auto-reply when disabled', async () => {
    await app.em().nativeUpdate(AdminSetting, { key: 'contact_config' }, {
      value: JSON.stringify({ contactEmail: 'support@druckpreis.example', enabled: false }),
    });
    const input = message();
    const response = await send(input);
    expect(response.status).toBe(200);
    expect(await mailsTo(app.orm, input.email, 'contactAutoReply')).toHaveLength(0);
  });

  it('drops a filled honeypot silently', async () => {
    const input = message({ website: 'http://spam.example' });
    const response = await send(input);
    expect(response.status).toBe(200);
    expect(await app.em().count(ContactMessage, { email: input.email })).toBe(0);
    expect(await mailsTo(app.orm, input.email)).toHaveLength(0);
  });

  it('validates required fields and refuses line breaks in name and subject', async () => {
    const empty = await send({ name: '', email: 'x', subject: '', message: '' });
    expect(empty.status).toBe(400);
    expect(Object.keys((await empty.json()).errors).sort()).toEqual(['email', 'message', 'name', 'subject']);
    const injection = await send(message({ subject: 'Hallo\r\nBcc: opfer@example.de' }));
    expect(injection.status).toBe(400);
    expect((await injection.json()).errors.subject).toEqual(['Bitte ohne Zeilenumbrüche eingeben.']);
  });

  it('rate-limits per IP', async () => {
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await send(message(), ip)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('session storage', () => {
  it('keeps only the id in the cookie', async () => {
    const { cookie, user } = await signIn();
    const value = decodeURIComponent(cookie.split('=')[1]);
    expect(value).not.toContain(user.id);
    const session = await sessionStorage.getSession(cookie);
    expect(session.get('userId')).toBe(user.id);
  });
});
