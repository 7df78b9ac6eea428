import { parseWithZod } from '@conform-to/zod/v4';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { User } from '../../app/entities';
import { fieldErrors, forbidden, invalid as refusedAsAWhole, notFound, ok, rateLimited, unauthorized } from '../../app/domain/result';
import { hashToken } from '../../app/models/users.server';
import { loader as rootLoader } from '../../app/root';
import { action as profilePageAction, loader as profileLoader } from '../../app/routes/_account+/profile';
import { action as resetPasswordPageAction, loader as resetPasswordPageLoader } from '../../app/routes/_auth+/reset-password';
import { loader as verifyEmailPageLoader } from '../../app/routes/_auth+/verify-email';
import { action as contactPageAction } from '../../app/routes/_public+/kontakt';
import { action as resetPasswordApiAction } from '../../app/routes/api+/auth.reset-password';
import { loader as verifyEmailApiLoader } from '../../app/routes/api+/auth.verify-email';
import { action as contactApiAction } from '../../app/routes/api+/contact';
import { action as profileImageApiAction } from '../../app/routes/api+/profile.image';
import { action as uploadUrlApiAction } from '../../app/routes/api+/profile.upload-url';
import { requestContextStats } from '../../app/services/request-context.server';
import { sessionReadStats, signedSessionCookieForTests } from '../../app/services/session.server';
import { getFileStore } from '../../app/services/storage.server';
import { apiResult, pageMessageResult, pageResult } from '../../app/web/result-response.server';
import { apiRequest, call, createUser, randomIp, uniqueEmail, useAuthTestApp } from '../setup/auth-app';
import { action as loginAction } from '../../app/routes/api+/auth.login';

const app = useAuthTestApp('operations');

type Loader = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;

async function signedInCookie() {
  const { email, password, user } = await createUser(app.orm, { firstName: 'Kontext' });
  const response = await call(loginAction, apiRequest('/api/auth/login', 'POST', { email, password }, { ip: randomIp() }));
  const cookie = /(__session=[^;]*)/.exec(response.headers.get('Set-Cookie') ?? '')![1];
  return { cookie, user };
}

/**
 * Root and page loader of one request, as Remix runs them: in parallel, with one
 * load context (each gets its own copy of the request, so only the load context
 * can make them share anything).
 */
async function runPage(page: Loader, request: Request) {
  const context = { requestContext: {} };
  const run = (loader: Loader) => loader({ request: request.clone(), params: {}, context }).catch((error: unknown) => error);
  return Promise.all([run(rootLoader as unknown as Loader), run(page)]);
}

describe('the per-request context', () => {
  it('reads the session and the user once for root and page loader of a signed-in request', async () => {
    const { cookie, user } = await signedInCookie();
    const readsBefore = sessionReadStats.reads;
    const builtBefore = requestContextStats.built;
    const [root, page] = (await runPage(profileLoader as unknown as Loader, apiRequest('/profile', 'GET', undefined, { cookie }))) as [
      { data: { user: { id: string } } },
      { user: { id: string; firstName: string } },
    ];
    expect(sessionReadStats.reads - readsBefore).toBe(1);
    expect(requestContextStats.built - builtBefore).toBe(1);
    expect(root.data.user.id).toBe(user.id);
    expect(page.user.id).toBe(user.id);
    expect(page.user.firstName).toBe('Kontext');
  });

  it('keeps reading sessions when a migration adds a column to users while the server runs', async () => {
    // The session read is a prepared statement on every pooled connection: with `u.*` PostgreSQL refused it
    // after the change ("cached plan must not change result type") until the server restarted.
    const { cookie, user } = await signedInCookie();
    const open = async () => ((await runPage(profileLoader as unknown as Loader, apiRequest('/profile', 'GET', undefined, { cookie }))) as [unknown, { user: { id: string } }])[1];
    for (let round = 0; round < 3; round++) expect((await open()).user.id).toBe(user.id);
    await app.orm.em.getConnection().execute('alter table "users" add column "probe_while_running" integer');
    try {
      for (let round = 0; round < 3; round++) expect((await open()).user.id).toBe(user.id);
    } finally {
      await app.orm.em.getConnection().execute('alter table "users" drop column "probe_while_running"');
    }
  });

  it('looks up no session whose signed id is not one the server makes (a NUL byte made PostgreSQL fail)', async () => {
    const readsBefore = sessionReadStats.reads;
    for (const sid of ['a\u0000'.padEnd(43, 'b'), 'kurz', 'x'.repeat(44), "' or '1'='1".padEnd(43, 'c')]) {
      const cookie = await signedSessionCookieForTests(sid);
      const [root] = (await runPage(profileLoader as unknown as Loader, apiRequest('/profile', 'GET', undefined, { cookie }))) as [{ data: { user: null } }, unknown];
      expect(root.data.user).toBeNull();
    }
    expect(sessionReadStats.reads - readsBefore).toBe(0);
  });

  it('reads no session at all for a visitor, and redirects the page loader to sign in', async () => {
    const readsBefore = sessionReadStats.reads;
    const [root, page] = (await runPage(profileLoader as unknown as Loader, apiRequest('/profile'))) as [{ data: { user: null } }, Response];
    expect(sessionReadStats.reads - readsBefore).toBe(0);
    expect(root.data.user).toBeNull();
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toBe('/auth?redirectTo=%2Fprofile');
  });

  it('gives separate requests separate contexts (no user leaks between them)', async () => {
    const { cookie } = await signedInCookie();
    const [signedIn] = (await runPage(profileLoader as unknown as Loader, apiRequest('/profile', 'GET', undefined, { cookie }))) as unknown as [
      { data: { user: { id: string } | null } },
    ];
    const [visitor] = (await runPage(profileLoader as unknown as Loader, apiRequest('/profile'))) as unknown as [{ data: { user: unknown } }];
    expect(signedIn.data.user).not.toBeNull();
    expect(visitor.data.user).toBeNull();
  });
});

describe('the JSON API adapter', () => {
  it('answers each result with its status and a German { message, errors }', async () => {
    const okBody = await apiResult(ok({ n: 1 }), (value) => ({ value }));
    expect(okBody.status).toBe(200);
    expect(okBody.headers.get('Cache-Control')).toBe('no-store');
    expect(await okBody.json()).toEqual({ value: { n: 1 } });

    const passed = new Response('x', { status: 201 });
    expect(await apiResult(ok(), () => passed)).toBe(passed);

    const invalid = await apiResult(fieldErrors({ email: ['auth:errors.emailInvalid'], '': ['x'] }), () => null);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ message: 'Bitte überprüfen Sie Ihre Eingaben.', errors: { email: ['Bitte geben Sie eine gültige E-Mail-Adresse ein'] } });

    const coded = await apiResult(fieldErrors({ currentPassword: ['auth:messages.invalidPassword'] }, { message: 'auth:messages.invalidPassword', code: 'INVALID_PASSWORD' }), () => null);
    expect(coded.status).toBe(400);
    expect(await coded.json()).toEqual({ code: 'INVALID_PASSWORD', message: 'Das aktuelle Passwort ist falsch.' });

    const limited = await apiResult(rateLimited(61), () => null);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('61');
    expect((await limited.json()).message).toBe('Zu viele Versuche. Bitte warten Sie 2 Minuten und versuchen Sie es dann erneut.');

    const wrong = await apiResult(unauthorized('auth:messages.loginInvalid'), () => null);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'E-Mail oder Passwort ungültig.' });

    const refused = await apiResult(forbidden('auth:messages.emailNotVerified', { emailNotVerified: true }), () => null);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      emailNotVerified: true,
      message: 'Bitte überprüfen Sie Ihre E-Mails und klicken Sie auf den Bestätigungslink.',
    });

    const missing = await apiResult(notFound(), () => null);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'Nicht gefunden.' });

    const broken = await apiResult(refusedAsAWhole('auth:messages.imageTooLarge', { params: { n: 5 }, details: { error: 'tooLarge' } }), () => null);
    expect(broken.status).toBe(400);
    expect(broken.headers.get('Cache-Control')).toBe('no-store');
    expect(await broken.json()).toEqual({ error: 'tooLarge', message: 'Datei ist zu groß. Maximum: 5MB' });
  });
});

describe('the page adapter', () => {
  const schema = z.object({ email: z.string(), password: z.string() });
  const submission = () => parseWithZod(new URLSearchParams('email=a@b.de&password=geheim'), { schema });
  type Reply = { data: { result: { status: string; error?: Record<string, string[]>; initialValue?: Record<string, unknown> }; intent?: string }; init: { status: number } };

  it('puts field errors next to their fields and form errors above the form, hiding secrets', async () => {
    const reply = (await pageResult(submission(), fieldErrors({ email: ['auth:errors.emailInvalid'], '': ['auth:messages.profileUpdateFailed'] }), () => ({ redirectTo: '/' }), {
      hideFields: ['password'],
      extra: { intent: 'login' },
    })) as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.intent).toBe('login');
    expect(reply.data.result.status).toBe('error');
    expect(reply.data.result.error).toEqual({ email: ['auth:errors.emailInvalid'], '': ['auth:messages.profileUpdateFailed'] });
    expect(reply.data.result.initialValue).toEqual({ email: 'a@b.de' });
  });

  it('answers rate limits with 429 and the German text, refusals with their status and details', async () => {
    const limited = (await pageResult(submission(), rateLimited(3600), () => ({ redirectTo: '/' }))) as unknown as Reply;
    expect(limited.init.status).toBe(429);
    expect(limited.data.result.error?.['']).toEqual(['Zu viele Versuche. Bitte warten Sie 60 Minuten und versuchen Sie es dann erneut.']);

    const unverified = (await pageResult(submission(), forbidden('auth:messages.emailNotVerified', { emailNotVerified: true }), () => ({ redirectTo: '/' }))) as unknown as Reply & {
      data: { emailNotVerified?: boolean };
    };
    expect(unverified.init.status).toBe(403);
    expect(unverified.data.emailNotVerified).toBe(true);
    expect(unverified.data.result.error?.['']).toEqual(['auth:messages.emailNotVerified']);

    const wrong = (await pageResult(submission(), unauthorized('auth:messages.loginInvalid'), () => ({ redirectTo: '/' }))) as unknown as Reply;
    expect(wrong.init.status).toBe(401);

    const missing = await pageResult(submission(), notFound(), () => ({ redirectTo: '/' })).catch((error: unknown) => error);
    expect((missing as Response).status).toBe(404);

    const broken = (await pageResult(submission(), refusedAsAWhole('auth:messages.resetInvalid', { details: { invalidToken: true } }), () => ({ redirectTo: '/' }))) as unknown as Reply & {
      data: { invalidToken?: boolean };
    };
    expect(broken.init.status).toBe(400);
    expect(broken.data.invalidToken).toBe(true);
    expect(broken.data.result.error?.['']).toEqual(['auth:messages.resetInvalid']);
  });

  it('gives a form without Conform one German message with the status, or the same redirect', async () => {
    const refused = (await pageMessageResult(refusedAsAWhole('auth:messages.imageTooLarge', { params: { n: 5 } }), () => ({ redirectTo: '/' }), {
      extra: { intent: 'uploadImage' },
    })) as unknown as { data: { intent: string; formError: string }; init: { status: number } };
    expect(refused.init.status).toBe(400);
    expect(refused.data).toEqual({ intent: 'uploadImage', formError: 'Datei ist zu groß. Maximum: 5MB' });

    const limited = (await pageMessageResult(rateLimited(120), () => ({ redirectTo: '/' }))) as unknown as { data: { formError: string }; init: { status: number } };
    expect(limited.init.status).toBe(429);
    expect(limited.data.formError).toMatch(/^Zu viele Versuche/);

    const done = (await pageMessageResult(ok(), () => ({ redirectTo: '/profile', toast: { type: 'success', title: 'Gespeichert' } }))) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/profile');
    expect(done.headers.getSetCookie().some((cookie) => cookie.startsWith('toast='))).toBe(true);
  });

  it('redirects on success with the toast cookie and any cookie the operation needs', async () => {
    const response = (await pageResult(submission(), ok('u1'), (value) => ({
      redirectTo: `/next?u=${value}`,
      headers: { 'Set-Cookie': '__session=abc; Path=/' },
      toast: { type: 'success', title: 'Gespeichert' },
    }))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/next?u=u1');
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith('__session=abc'))).toBe(true);
    expect(cookies.some((cookie) => cookie.startsWith('toast='))).toBe(true);
  });
});

describe('one rule, one place', () => {
  it('the contact page and POST /api/contact count against the same rate limit', async () => {
    const ip = randomIp();
    const message = (n: number) => ({ name: 'Eva', email: uniqueEmail(`kontakt${n}`), subject: 'Frage', message: 'Wie teuer ist PLA?' });
    for (let index = 0; index < 5; index++) {
      expect((await call(contactApiAction, apiRequest('/api/contact', 'POST', message(index), { ip }))).status).toBe(200);
    }
    const form = new URLSearchParams(message(9));
    const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': ip });
    const page = (await contactPageAction({
      request: new Request('http://localhost:3000/kontakt', { method: 'POST', headers, body: form }),
      params: {},
      context: {},
    })) as unknown as Reply;
    expect(page.init.status).toBe(429);
    expect(page.data.result.error?.['']?.[0]).toMatch(/^Zu viele Versuche/);
  });
});

describe('one operation behind a page and its API route', () => {
  type PageArgs = { request: Request; params: Record<string, string>; context: Record<string, unknown> };
  const run = (handler: unknown, request: Request) => (handler as (args: PageArgs) => Promise<unknown>)({ request, params: {}, context: {} });
  const formPost = (pathname: string, fields: Record<string, string>, cookie?: string) =>
    new Request(`http://localhost:3000${pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': randomIp(), ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams(fields),
    });
  type ResetReply = Reply & { data: { invalidToken: boolean } };

  it('reset password: page and API refuse a broken link alike, put a weak password next to its field, and a link works once', async () => {
    const { email } = await createUser(app.orm);
    const token = 'R'.repeat(43);
    await app.em().nativeUpdate(User, { email }, { resetPasswordToken: hashToken(token), resetPasswordExpires: new Date(Date.now() + 60_000) });
    const fields = (overrides: Record<string, string> = {}) => ({ token, password: 'Neues-Passwort-9', confirmPassword: 'Neues-Passwort-9', ...overrides });
    const viaApi = (body: Record<string, string>) => call(resetPasswordApiAction, apiRequest('/api/auth/reset-password', 'POST', body));
    const viaPage = async (body: Record<string, string>) => (await run(resetPasswordPageAction, formPost('/reset-password', body))) as ResetReply;

    for (const broken of [fields({ token: 'U'.repeat(43) }), fields({ token: '' })]) {
      const api = await viaApi(broken);
      expect(api.status).toBe(400);
      expect(await api.json()).toEqual({ message: 'Der Reset-Link ist ungültig oder abgelaufen.' });
      const page = await viaPage(broken);
      expect(page.init.status).toBe(400);
      expect(page.data.invalidToken).toBe(true);
      expect(page.data.result.error?.['']).toEqual(['auth:messages.resetInvalid']);
    }

    const weak = fields({ password: 'passwort', confirmPassword: 'passwort' });
    const weakApi = await viaApi(weak);
    expect(weakApi.status).toBe(400);
    expect((await weakApi.json()).errors.password).toHaveLength(1);
    const weakPage = await viaPage(weak);
    expect(weakPage.init.status).toBe(400);
    expect(weakPage.data.invalidToken).toBe(false);
    expect(weakPage.data.result.error?.password).toHaveLength(1);

    const done = (await viaPage(fields())) as unknown as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get('Location')).toBe('/reset-password?done=1');
    const again = await viaApi(fields({ password: 'Noch-Ein-Passwort-3', confirmPassword: 'Noch-Ein-Passwort-3' }));
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: 'Der Reset-Link ist ungültig oder abgelaufen.' });
  });

  it('reset password: the page tells a used, expired or unknown link when it opens, before a password is typed', async () => {
    const { email } = await createUser(app.orm);
    const token = 'S'.repeat(43);
    const open = async (link: string) => (await run(resetPasswordPageLoader, new Request(`http://localhost${link}`))) as unknown as Reply & { data: { state: string } };
    await app.em().nativeUpdate(User, { email }, { resetPasswordToken: hashToken(token), resetPasswordExpires: new Date(Date.now() + 60_000) });
    expect((await open(`/reset-password?token=${token}`)).data.state).toBe('form');
    for (const link of [`/reset-password?token=${'U'.repeat(43)}`, '/reset-password?token=kurz', '/reset-password']) {
      const page = await open(link);
      expect(page.data.state, link).toBe('invalid');
      expect(page.init.status, link).toBe(400);
    }
    await app.em().nativeUpdate(User, { email }, { resetPasswordExpires: new Date(Date.now() - 1_000) });
    expect((await open(`/reset-password?token=${token}`)).data.state).toBe('invalid');
  });

  it('verify e-mail: the API refuses a used link with the helpful message, the page shows it as confirmed', async () => {
    const { email } = await createUser(app.orm, { verified: false });
    const token = 'V'.repeat(43);
    await app.em().nativeUpdate(User, { email }, { verificationToken: hashToken(token), verificationExpires: new Date(Date.now() + 60_000) });
    type PageData = { state: string; messageKey: string };
    const page = async (query: string) => {
      const result = (await run(verifyEmailPageLoader, apiRequest(`/verify-email${query}`))) as PageData | { data: PageData; init: { status: number } };
      return 'init' in result ? { status: result.init.status, ...result.data } : { status: 200, ...result };
    };

    expect(await page(`?token=${token}`)).toMatchObject({ status: 200, state: 'success', messageKey: 'auth:messages.verifySuccess' });
    expect((await app.em().findOneOrFail(User, { email })).emailVerified).toBe(true);
    expect(await page(`?token=${token}`)).toMatchObject({ status: 200, state: 'already', messageKey: 'auth:messages.verifyAlreadyConfirmed' });
    const api = await call(verifyEmailApiLoader, apiRequest(`/api/auth/verify-email?token=${token}`));
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: 'Diese E-Mail-Adresse ist bereits bestätigt – Sie können sich anmelden.' });

    expect(await page(`?token=${'W'.repeat(43)}`)).toMatchObject({ status: 400, state: 'error', messageKey: 'auth:messages.verifyFailed' });
    expect(await page('')).toMatchObject({ status: 400, state: 'error', messageKey: 'auth:messages.verifyTokenMissing' });
    const missing = await call(verifyEmailApiLoader, apiRequest('/api/auth/verify-email'));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ message: 'Kein Verifizierungs-Token gefunden.' });
  });

  it('verify e-mail: a new address confirmed by a signed-in user is an address change, not a registration', async () => {
    const { cookie, user } = await signedInCookie();
    const token = 'X'.repeat(43);
    const newEmail = uniqueEmail('neu');
    await app.em().nativeUpdate(User, { id: user.id }, { pendingEmail: newEmail, pendingEmailToken: hashToken(token), pendingEmailExpires: new Date(Date.now() + 60_000) });
    const page = (await run(verifyEmailPageLoader, apiRequest(`/verify-email?token=${token}`, 'GET', undefined, { cookie }))) as {
      state: string;
      change: boolean;
      signedIn: boolean;
      messageKey: string;
    };
    expect(page).toMatchObject({ state: 'success', change: true, signedIn: true, messageKey: 'auth:messages.emailChangeConfirmed' });
    expect((await app.em().findOneOrFail(User, { id: user.id })).email).toBe(newEmail);

    // A registration confirmed in a browser that is signed in already: no "you can sign in now".
    const { email } = await createUser(app.orm, { verified: false });
    await app.em().nativeUpdate(User, { email }, { verificationToken: hashToken('Y'.repeat(43)), verificationExpires: new Date(Date.now() + 60_000) });
    const signedInPage = (await run(verifyEmailPageLoader, apiRequest(`/verify-email?token=${'Y'.repeat(43)}`, 'GET', undefined, { cookie }))) as { messageKey: string };
    expect(signedInPage.messageKey).toBe('auth:messages.verifySuccessSignedIn');
  });

  it('profile picture: the no-JS form and the upload flow refuse a non-image with the same German text, and store a real one', async () => {
    const { cookie, user } = await signedInCookie();
    const pagePost = (bytes: Buffer, name: string) => {
      const form = new FormData();
      form.set('intent', 'uploadImage');
      form.set('image', new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
      return new Request('http://localhost:3000/profile', { method: 'POST', headers: { Cookie: cookie, 'x-druckpreis-client-ip': randomIp() }, body: form });
    };
    const notAnImage = Buffer.from('<script>alert(1)</script>');

    const page = (await run(profilePageAction, pagePost(notAnImage, 'bild.png'))) as { data: { intent: string; formError: string }; init: { status: number } };
    expect(page.init.status).toBe(400);
    expect(page.data.intent).toBe('uploadImage');
    expect(page.data.formError).toBe('Bitte wählen Sie eine Bilddatei aus.');

    const address = await call(uploadUrlApiAction, apiRequest('/api/profile/upload-url', 'POST', undefined, { cookie }));
    const imageUrl = ((await address.json()) as { uploadURL: string }).uploadURL.split('?')[0];
    await getFileStore().put(decodeURIComponent(imageUrl.replace(/^\/uploads\//, '')), notAnImage, 'image/jpeg');
    const api = await call(profileImageApiAction, apiRequest('/api/profile/image', 'PUT', { imageUrl }, { cookie }));
    expect(api.status).toBe(400);
    expect(await api.json()).toEqual({ message: 'Bitte wählen Sie eine Bilddatei aus.', error: 'notAnImage' });

    const png = await sharp({ create: { width: 6, height: 6, channels: 3, background: '#0d9488' } }).png().toBuffer();
    const stored = (await run(profilePageAction, pagePost(png, 'bild.png'))) as Response;
    expect(stored.status).toBe(302);
    expect(stored.headers.get('Location')).toBe('/profile');
    expect((await app.em().findOneOrFail(User, { id: user.id })).profileImageUrl).toMatch(new RegExp(`^/images/profile/${user.id}/[a-z0-9]+$`));
  });
});

type Reply = { data: { result: { error?: Record<string, string[]> } }; init: { status: number } };
