import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { rawRequest } from './http';
import { form, sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * Issue 10 items 2, 3, 8, 9 and 11 against the real server: bounded bodies,
 * 4xx for malformed requests, HSTS, the safe-redirect rule and clean bytes.
 */
let server: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  [server, proxied] = await Promise.all([startTestServer('sec_requests'), startTestServer('sec_proxied', { TRUST_PROXY: '1' })]);
}, 180_000);
afterAll(async () => {
  await Promise.all([server?.stop(), proxied?.stop()]);
});

const MB = 1024 * 1024;
const GERMAN = /[äöüß]|Anfrage|Daten|Bitte/;

/** The visible error page of a document (the hydration data carries every text of the namespace). */
function errorPageOf(html: string): string {
  const main = /<main data-error-status="\d+"[\s\S]*?<\/main>/.exec(html);
  if (!main) throw new Error('no error page');
  return main[0];
}

/** A new confirmed user with a session on the test server. */
async function signIn(): Promise<{ cookie: string; email: string }> {
  const email = `sicher.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const em = server.orm.em.fork();
  em.create(User, { email, password: await hashPassword('Sicher-Passwort-1'), emailVerified: true, firstName: 'Erna', lastName: 'Echo' });
  await em.flush();
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Sicher-Passwort-1' }) });
  return { cookie: sessionCookieOf(login), email };
}

describe('item 2: bodies are bounded while they stream', () => {
  it('refuses a declared 250 MB form post to /kontakt with 413 before reading it', async () => {
    const response = await rawRequest(server.url, {
      method: 'POST',
      path: '/kontakt',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(250 * MB) },
      body: 'message=' + 'x'.repeat(64 * 1024),
    });
    expect(response.status).toBe(413);
    expect(response.body.toString()).toBe('Die Anfrage ist zu groß.');
  });

  it('refuses a declared 300 MB JSON body to the API with 413', async () => {
    const response = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/contact',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(300 * MB) },
      body: '{"message":"' + 'x'.repeat(1024),
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body.toString())).toEqual({ message: 'Die Anfrage ist zu groß.' });
  });

  it('refuses a chunked body once it passes 64 KB, without handing Remix a truncated one', async () => {
    const chunk = Buffer.from('x'.repeat(16 * 1024));
    const response = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/contact',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      chunks: [Buffer.from('{"name":"'), ...Array(6).fill(chunk)],
    });
    expect(response.status).toBe(413);
    const small = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/contact',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      chunks: [Buffer.from('{"name":'), Buffer.from('"A"}')],
    });
    expect(small.status).toBe(400); // read in full and validated (fields missing)
  });

  it('answers a message over its limit with the German message and never echoes more than the limit', async () => {
    const long = 'Z'.repeat(6000);
    const response = await fetch(`${server.url}/kontakt`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: form({ name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: long }),
    });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('Die Nachricht darf höchstens 5000 Zeichen lang sein.');
    // Neither the textarea nor the hydration data carries more than the 5000 allowed characters.
    expect(page).not.toContain('Z'.repeat(5001));
  });

  it('bounds the echo of every form field on /auth, /forgot-password, /reset-password and /profile to its rule', async () => {
    const { cookie, email } = await signIn();

    const HUGE = 60_000;
    const big = 'Z'.repeat(HUGE);
    // Each row: one over-long field (limit = its rule), the other fields valid, and the German message it must get.
    const cases: { path: string; fields: Record<string, string>; limit: number; message?: string; signedIn?: boolean }[] = [
      { path: '/auth', fields: { intent: 'login', email: big, password: 'x' }, limit: 254, message: 'Die E-Mail-Adresse ist zu lang.' },
      // A forged return address has no field to show its message next to; it is only never echoed in full.
      { path: '/auth', fields: { intent: 'login', email: 'a@b.de', password: 'x', redirectTo: `/${big}` }, limit: 2048 },
      { path: '/auth', fields: { intent: 'register', email: big, password: 'Echo-Pw-12', confirmPassword: 'Echo-Pw-12', firstName: 'A', lastName: 'B' }, limit: 254, message: 'Die E-Mail-Adresse ist zu lang.' },
      { path: '/auth', fields: { intent: 'register', email: 'a@b.de', password: 'Echo-Pw-12', confirmPassword: 'Echo-Pw-12', firstName: big, lastName: 'B' }, limit: 100, message: 'Höchstens 100 Zeichen' },
      { path: '/auth', fields: { intent: 'register', email: 'a@b.de', password: 'Echo-Pw-12', confirmPassword: 'Echo-Pw-12', firstName: 'A', lastName: big }, limit: 100, message: 'Höchstens 100 Zeichen' },
      { path: '/auth', fields: { intent: 'resend', email: big }, limit: 254, message: 'Die E-Mail-Adresse ist zu lang.' },
      { path: '/forgot-password', fields: { email: big }, limit: 254, message: 'Die E-Mail-Adresse ist zu lang.' },
      { path: '/reset-password?token=abc', fields: { token: big, password: 'Echo-Pw-12', confirmPassword: 'Echo-Pw-12' }, limit: 256, message: 'Der Reset-Link ist ungültig oder abgelaufen.' },
      { path: '/profile', signedIn: true, fields: { intent: 'updateProfile', firstName: big, lastName: 'B', email }, limit: 100, message: 'Höchstens 100 Zeichen' },
      { path: '/profile', signedIn: true, fields: { intent: 'updateProfile', firstName: 'A', lastName: big, email }, limit: 100, message: 'Höchstens 100 Zeichen' },
      { path: '/profile', signedIn: true, fields: { intent: 'updateProfile', firstName: 'A', lastName: 'B', email: big }, limit: 254, message: 'Die E-Mail-Adresse ist zu lang.' },
      { path: '/profile', signedIn: true, fields: { intent: 'changePassword', currentPassword: big, newPassword: 'Echo-Pw-12', confirmPassword: 'Echo-Pw-12' }, limit: 0, message: 'Das Passwort ist zu lang' },
      { path: '/kontakt', fields: { name: big, email: 'a@b.de', subject: 'S', message: 'M' }, limit: 100, message: 'Der Name darf höchstens 100 Zeichen lang sein.' },
      { path: '/kontakt', fields: { name: 'A', email: 'a@b.de', subject: big, message: 'M' }, limit: 200, message: 'Der Betreff darf höchstens 200 Zeichen lang sein.' },
      // The library pages use the same helper; their text rules live in code, so the limits come from the definitions.
      { path: '/printers?new', signedIn: true, fields: { intent: 'save', name: 'Drucker', brand: big, wattage: '200' }, limit: 100, message: 'Höchstens 100 Zeichen erlaubt.' },
    ];
    for (const { path, fields, limit, message, signedIn } of cases) {
      const label = `${path} ${Object.entries(fields).find(([, value]) => value.length > 1000)?.[0]}`;
      const response = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, ...(signedIn ? { Cookie: cookie } : {}) },
        body: form(fields),
        redirect: 'manual',
      });
      expect(response.status, label).toBe(400);
      const page = await response.text();
      if (message) expect(page, label).toContain(message);
      // Neither the input nor the hydration data carries more than the rule allows (passwords: nothing at all).
      expect(page.includes('Z'.repeat(Math.max(limit, 20) + 1)), label).toBe(false);
      // Nor in another form (escaped, in hydration data): the answer is about as long as the page itself.
      const baseline = await fetch(`${server.url}${path}`, { headers: signedIn ? { Cookie: cookie } : {} });
      const baselineLength = (await baseline.text()).length;
      expect(page.length - baselineLength, label).toBeLessThan(HUGE / 4);
    }
    // Fields the form does not have, and Conform's reserved names, are not echoed (and a forged intent is no 500).
    const junk = await fetch(`${server.url}/forgot-password`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: form({ email: 'kein-mail', extra: big.slice(0, 30_000), __intent__: '{', __state__: big.slice(0, 30_000) }),
    });
    expect(junk.status).toBe(400);
    const junkPage = await junk.text();
    expect(junkPage).toContain('Bitte geben Sie eine gültige E-Mail-Adresse ein');
    expect(junkPage).not.toContain('ZZZZZZZZZZ');
  });
});

const FORM_ROUTES = ['/auth', '/forgot-password', '/reset-password', '/kontakt', '/cookie-consent', '/profile'];

describe('item 3: malformed requests get 4xx with a German message', () => {
  it.each(FORM_ROUTES)('%s: wrong content types 415, wrong methods 405, a bad multipart boundary 400', async (route) => {
    const send = (method: string, contentType: string | null, body: string) =>
      fetch(`${server.url}${route}`, { method, headers: { Origin: server.url, ...(contentType ? { 'Content-Type': contentType } : {}) }, body, redirect: 'manual' });
    for (const type of ['application/json', 'text/plain', null]) {
      const response = await send('POST', type, '{"email":"a@b.de"}');
      expect(response.status, `${route} ${type}`).toBe(415);
      // The server closes a connection whose body it did not read, and says so: a pooling client
      // must not send its next request on it (that raced into "other side closed").
      expect(response.headers.get('connection'), `${route} ${type}`).toBe('close');
      expect(await response.text()).toMatch(GERMAN);
    }
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const response = await send(method, 'application/x-www-form-urlencoded', 'email=a%40b.de');
      expect(response.status, `${route} ${method}`).toBe(405);
      expect(await response.text()).toMatch(GERMAN);
    }
    for (const type of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="unterminated']) {
      const response = await send('POST', type, '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na\r\n--x--');
      expect(response.status, `${route} ${type}`).toBe(400);
    }
    // A well-declared boundary with a broken body: never accepted, never a 500 (/profile sends visitors to sign in first).
    const broken = await send('POST', 'multipart/form-data; boundary=abc', '--abc\r\nnonsense');
    expect(broken.status, `${route} broken multipart`).toBeGreaterThanOrEqual(300);
    expect(broken.status, `${route} broken multipart`).toBeLessThan(500);
    if (broken.status === 400) expect(await broken.text(), `${route} broken multipart`).toContain('Die Anfrage ist fehlerhaft');
  });

  it('holds /calculator and /profile to the form limit unless a file comes as multipart, and never echoes a long value', async () => {
    const { cookie } = await signIn();
    // A 1 MB urlencoded field (the 10 MB and 5 MB limits are for the image in a multipart body).
    for (const [path, field] of [['/calculator', 'projectName'], ['/profile', 'firstName']] as const) {
      const urlencoded = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, Cookie: cookie },
        body: form({ intent: path === '/calculator' ? 'save' : 'updateProfile', [field]: 'Q'.repeat(MB) }),
      });
      expect(urlencoded.status, path).toBe(413);
    }
    // A multipart body with a large text part and no file.
    const multipart = new FormData();
    multipart.set('intent', 'save');
    multipart.set('projectName', 'Q'.repeat(200 * 1024));
    const large = await fetch(`${server.url}/calculator`, { method: 'POST', headers: { Origin: server.url }, body: multipart });
    expect(large.status).toBe(413);
    expect(await large.text()).toContain('Die Anfrage ist zu groß.');
    // 60 KB fits the form limit: the German length message, and the value comes back cut.
    const echoed = await fetch(`${server.url}/calculator`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, Cookie: cookie },
      body: form({ intent: 'save', projectName: 'Q'.repeat(60_000) }),
    });
    expect(echoed.status).toBe(400);
    const html = await echoed.text();
    expect(html).toContain('Projektname darf höchstens 200 Zeichen lang sein');
    // Every copy of the value (input, hidden data, sign-in link) is cut to a field's longest rule.
    expect(Math.max(...(html.match(/Q+/g) ?? ['']).map((run) => run.length))).toBeLessThanOrEqual(256);
  });

  it('searches with control characters in ?q= without a 500 (library pages and API, projects)', async () => {
    const { cookie } = await signIn();
    for (const path of ['/printers?q=a%00b', '/filaments?q=%00', '/api/printers?q=a%00b', '/api/marketplaces?q=%01', '/projects?q=%00']) {
      const response = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      expect(response.status, path).toBe(200);
    }
  });

  it('a page that refuses a request says why in German and asks nobody to reload', async () => {
    const { cookie } = await signIn();
    const post = (path: string, contentType: string, body: string, signedIn = false) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { Origin: server.url, 'Content-Type': contentType, ...(signedIn ? { Cookie: cookie } : {}) }, body, redirect: 'manual' });
    const broken = ['multipart/form-data; boundary=abc', '--abc\r\nnonsense'] as const;
    for (const [path, signedIn] of [['/kontakt'], ['/auth'], ['/forgot-password'], ['/reset-password?token=abc'], ['/projects', true], ['/printers', true]] as [string, boolean?][]) {
      const response = await post(path, ...broken, signedIn);
      expect(response.status, path).toBe(400);
      const page = errorPageOf(await response.text());
      expect(page, path).toContain('Ungültige Anfrage');
      expect(page, path).toContain('Die Anfrage ist fehlerhaft und wurde nicht ausgeführt.');
      expect(page, path).not.toContain('Seite neu');
    }
    // A page without a form: the method is refused, in German.
    // (/premium has forms since issue 21: its posts are in the fuzz table.)
    for (const path of ['/', '/datenschutz', '/impressum']) {
      const response = await post(path, 'application/x-www-form-urlencoded', 'a=1', true);
      expect(response.status, path).toBe(405);
      const page = errorPageOf(await response.text());
      expect(page, path).toContain('Diese Anfrageart wird hier nicht unterstützt.');
      expect(page, path).not.toContain('Seite neu');
    }
  });

  it('every API route answers a body it cannot read with one and the same German 400', async () => {
    const { cookie } = await signIn();
    const id = '00000000-0000-4000-8000-000000000000';
    const routes: [string, string][] = [
      ['POST', '/api/printers'],
      ['PUT', `/api/filaments/${id}`],
      ['POST', '/api/shipping-providers'],
      ['POST', '/api/projects'],
      ['PUT', `/api/projects/${id}`],
      ['POST', '/api/contact'],
      ['POST', '/api/auth/login'],
      ['POST', '/api/auth/register'],
      ['POST', '/api/auth/forgot-password'],
      ['POST', '/api/auth/reset-password'],
      ['POST', '/api/auth/resend-verification'],
      ['PUT', '/api/profile'],
      ['PUT', '/api/profile/password'],
      ['PUT', '/api/profile/image'],
    ];
    for (const [method, path] of routes) {
      for (const body of ['{"name":', '[1,2]', '"text"', '{bad}']) {
        const response = await fetch(`${server.url}${path}`, { method, headers: { 'Content-Type': 'application/json', Cookie: cookie }, body });
        const label = `${method} ${path} ${body}`;
        expect(response.status, label).toBe(400);
        expect(await response.json(), label).toEqual({ message: 'Die Anfrage konnte nicht gelesen werden. Bitte senden Sie ein JSON-Objekt.' });
      }
    }
  });

  it('refuses a forged Remix data request (?_data=) with a German message, never "Unexpected Server Error"', async () => {
    for (const [method, path] of [
      ['POST', '/kontakt?_data=routes%2F_public%2B%2Fkontakt'],
      ['POST', '/kontakt?_data=root'],
      ['POST', '/api/contact?_data=root'],
      ['GET', '/calculator?_data=bogus'],
      ['GET', '/?_data=root'],
    ]) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { Origin: server.url, ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
        body: method === 'POST' ? form({ name: 'Anna' }) : undefined,
      });
      const body = await response.text();
      expect(response.status, path).toBe(403);
      expect(body, path).not.toContain('Unexpected Server Error');
      expect(JSON.parse(body), path).toEqual({ message: 'Anfrage abgelehnt: Sie stammt nicht von dieser Website.' });
    }
  });

  it('refuses control characters in every text field, forms and JSON alike, passwords included', async () => {
    const kontakt = await fetch(`${server.url}/kontakt`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: form({ name: 'An\u0000na', email: 'anna@example.de', subject: 'Frage', message: 'Hallo\u0000' }),
    });
    expect(kontakt.status).toBe(400);
    expect(await kontakt.text()).toContain('Bitte ohne Steuerzeichen eingeben');

    const json = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const contact = await json('/api/contact', { name: 'Anna', email: 'anna@example.de', subject: 'Fr\u0000age', message: 'Hallo' });
    expect(contact.status).toBe(400);
    expect((await contact.json()).errors.subject).toEqual(['Bitte ohne Steuerzeichen eingeben (z. B. Nullbytes).']);

    const nul = '\u0000'.repeat(6);
    const register = await json('/api/auth/register', { email: 'nul@example.de', password: nul, confirmPassword: nul, firstName: 'A\u0000', lastName: 'B' });
    expect(register.status).toBe(400);
    const errors = (await register.json()).errors;
    expect(errors.password).toContain('Bitte ohne Steuerzeichen eingeben (z. B. Nullbytes).');
    expect(errors.firstName).toContain('Bitte ohne Steuerzeichen eingeben (z. B. Nullbytes).');
    expect((await json('/api/auth/login', { email: 'nul@example.de', password: '\u0000' })).status).toBe(400);
  });

  it('answers malformed Host headers with 400 and ignores forwarded headers without TRUST_PROXY', async () => {
    for (const host of ['exa mple.de', 'localhost:99999999', 'a..b', '[zz]']) {
      const response = await rawRequest(server.url, { path: '/calculator', headers: { Host: host } });
      expect(response.status, host).toBe(400);
    }
    for (const headers of [{ 'X-Forwarded-Host': 'böse host:99999999' }, { 'X-Forwarded-Proto': 'javascript' }, { 'X-Forwarded-Host': 'a:1, b:99999999' }] as Record<string, string>[]) {
      const response = await rawRequest(server.url, { path: '/calculator', headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
    }
    // Behind a trusted proxy the same headers are checked (400), never a 500.
    for (const headers of [{ 'X-Forwarded-Host': 'böse host' }, { 'X-Forwarded-Proto': 'javascript' }, { 'X-Forwarded-Host': 'a.de, b:99999999' }] as Record<string, string>[]) {
      const response = await rawRequest(proxied.url, { path: '/calculator', headers });
      expect(response.status, JSON.stringify(headers)).toBeLessThan(500);
    }
  });
});

describe('item 8: HSTS in production over HTTPS only', () => {
  it('is sent when a trusted proxy says https, not otherwise', async () => {
    const viaProxy = await rawRequest(proxied.url, { path: '/', headers: { 'X-Forwarded-Proto': 'https' } });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect((await rawRequest(proxied.url, { path: '/' })).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a client cannot claim https.
    const untrusted = await rawRequest(server.url, { path: '/', headers: { 'X-Forwarded-Proto': 'https' } });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('item 9: one safe-redirect rule', () => {
  it('refuses protocol-relative targets that appear only after normalisation', async () => {
    for (const target of ['/.//evil.example', '/a/..//evil.example', '/\\evil.example', '//evil.example', '/%09/evil.example']) {
      const login = await fetch(`${server.url}/api/login?redirectTo=${encodeURIComponent(target)}`, { redirect: 'manual' });
      const location = login.headers.get('location') ?? '';
      const redirectTo = new URL(location, server.url).searchParams.get('redirectTo') ?? '';
      expect(redirectTo.startsWith('//'), target).toBe(false);
      expect(redirectTo.includes('\\'), target).toBe(false);

      if (target.includes('%')) continue; // an encoded tab stays a path on this host
      const consent = await fetch(`${server.url}/cookie-consent`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
        body: form({ intent: 'necessary', redirectTo: target }),
      });
      expect(consent.status).toBe(302);
      expect(consent.headers.get('location'), target).toBe('/');
    }
  });
});

const PAGES = ['/', '/calculator', '/calculator?filamentWeight=31&printTime=7,5', '/kontakt', '/auth', '/auth?tab=register', '/forgot-password', '/reset-password?token=abc', '/verify-email', '/datenschutz', '/impressum', '/gibt-es-nicht'];

describe('item 11: no page contains a control character or broken UTF-8', () => {
  it.each(PAGES)('%s (first render and cached copy)', async (page) => {
    for (let round = 0; round < 2; round++) {
      const response = await fetch(`${server.url}${page}`, { headers: { 'Accept-Encoding': 'identity' } });
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.exec(text);
      expect(control, `${page}: control character at ${control?.index}`).toBeNull();
    }
  });
});
