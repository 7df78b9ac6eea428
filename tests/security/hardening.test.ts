import crypto from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { rawRequest } from './http';
import { form, sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * Issue 18 part 4 against the real server (scripts/start.ts, request log on):
 * control characters in every form, absolute-form request lines, oversized
 * uploads answered (JSON and within the page), the strict Origin check, JSON
 * for every API status, a request log without query values, and profile
 * pictures that are not kept in the browser's cache. And a rate limit hit by
 * a plain link (/projects.csv) answers with a page, not the API's JSON.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sec_harden', { LOG_REQUESTS: 'true' });
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

const MB = 1024 * 1024;
const CONTROL_MESSAGE = 'Bitte ohne Steuerzeichen eingeben (z. B. Nullbytes).';

async function signIn(): Promise<{ cookie: string; user: User }> {
  const email = `hart.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const em = server.orm.em.fork();
  const user = em.create(User, { email, password: await hashPassword('Hart-Passwort-1'), emailVerified: true, firstName: 'Hanna', lastName: 'Hart' });
  await em.flush();
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Hart-Passwort-1' }) });
  return { cookie: sessionCookieOf(login), user };
}

const post = (path: string, fields: Record<string, string>, cookie?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, ...(cookie ? { Cookie: cookie } : {}) },
    body: form(fields),
    redirect: 'manual',
  });

describe('control characters in every form path', () => {
  it('a NUL in the calculator’s project name is a German 400 next to the field, creating and updating alike', async () => {
    const { cookie } = await signIn();
    const created = await post('/calculator', { intent: 'save', projectName: 'a\u0000b', filamentWeight: '37' }, cookie);
    expect(created.status).toBe(400);
    const html = await created.text();
    expect(html).toMatch(new RegExp(`data-field-error="projectName"[^>]*>${CONTROL_MESSAGE.replace(/[.()]/g, '\\$&')}<`));
    // What was typed stays.
    expect(html).toContain('value="37"');

    const saved = await post('/calculator', { intent: 'save', projectName: 'Vase', filamentWeight: '37' }, cookie);
    expect(saved.status).toBe(302);
    const id = new URL(saved.headers.get('location')!, server.url).searchParams.get('project')!;
    const updated = await post('/calculator', { intent: 'save', project: id, projectName: 'Vase\u0000', filamentWeight: '37' }, cookie);
    expect(updated.status).toBe(400);
    expect(await updated.text()).toContain(CONTROL_MESSAGE);
  });

  it('every text field of the calculator form (the hidden ones too) refuses control characters with a 400, never a 500', async () => {
    const { cookie } = await signIn();
    for (const field of ['projectName', 'productImagePath', 'selectedFilament', 'selectedPrinter', 'selectedPackaging', 'selectedShippingProvider', 'selectedMarketplace']) {
      for (const value of ['a\u0000b', '\u001b[31m', 'x\u007f']) {
        const response = await post('/calculator', { intent: 'save', projectName: 'Becher', filamentWeight: '25', [field]: value }, cookie);
        expect(response.status, `${field} ${JSON.stringify(value)}`).toBe(400);
        expect(await response.text(), field).toContain(CONTROL_MESSAGE);
      }
    }
  });

  it('no form path answers a NUL in any of its fields with a 5xx', async () => {
    const { cookie } = await signIn();
    const id = '00000000-0000-4000-8000-000000000000';
    const forms: [string, Record<string, string>, boolean][] = [
      ['/auth', { intent: 'login', email: 'a@example.de', password: 'Passwort-123', redirectTo: '/calculator' }, false],
      ['/auth?tab=register', { intent: 'register', email: 'neu@example.de', password: 'Passwort-123!', confirmPassword: 'Passwort-123!', firstName: 'A', lastName: 'B' }, false],
      ['/auth?resend', { intent: 'resend', email: 'a@example.de' }, false],
      ['/forgot-password', { email: 'a@example.de' }, false],
      ['/reset-password?token=abc', { token: 'a'.repeat(43), password: 'Passwort-123!', confirmPassword: 'Passwort-123!' }, false],
      ['/kontakt', { name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: 'Hallo', website: '' }, false],
      ['/cookie-consent', { intent: 'save', analytics: 'on', redirectTo: '/' }, false],
      ['/profile', { intent: 'updateProfile', firstName: 'F', lastName: 'Z', email: 'fz@example.de' }, true],
      ['/profile', { intent: 'changePassword', currentPassword: 'x', newPassword: 'Passwort-123!', confirmPassword: 'Passwort-123!' }, true],
      ['/profile', { intent: 'cancelEmailChange' }, true],
      ['/calculator', { intent: 'save', projectName: 'Becher', filamentWeight: '25' }, true],
      ['/calculator', { intent: 'save', projectName: 'Becher', filamentWeight: '25', project: id }, true],
      ['/calculator', { intent: 'removeImage', productImagePath: '/images/product/x/y' }, true],
      ['/projects', { intent: 'copy', id }, true],
      ['/projects', { intent: 'delete', id }, true],
      ['/printers', { intent: 'save', name: 'P', brand: 'B', wattage: '200', cost: '300', lifetimeHours: '3000', electricityRate: '0,32' }, true],
      ['/printers', { intent: 'delete', id }, true],
      ['/filaments', { intent: 'save', name: 'F', brand: 'B', material: 'PLA', color: 'Rot', pricePerKg: '25' }, true],
      ['/packaging', { intent: 'save', name: 'K', type: 'box', cost: '0,5' }, true],
      ['/shipping', { intent: 'save', name: 'DHL', baseCost: '4,95' }, true],
      ['/marketplaces', { intent: 'save', name: 'Etsy', percentageFee: '0,065', fixedFee: '0,3' }, true],
      ['/logout', {}, true],
    ];
    const failures: string[] = [];
    for (const [path, fields, signedIn] of forms) {
      for (const name of [...Object.keys(fields), 'intent']) {
        for (const value of [`a\u0000b`, '\u0000']) {
          if (path === '/logout') continue;
          const response = await post(path, { ...fields, [name]: value }, signedIn ? cookie : undefined);
          if (response.status >= 500) failures.push(`${response.status} ${path} ${name}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('absolute-form request lines', () => {
  it('serves the path when the target names this host, and answers 400 in German for any other target', async () => {
    const { port } = new URL(server.url);
    const ours = await rawRequest(server.url, { path: `http://127.0.0.1:${port}/calculator?filamentWeight=25` });
    expect(ours.status).toBe(200);
    expect(ours.body.toString()).toContain('</html>');
    for (const target of ['*', 'http://evil.example/', `http://evil.example:${port}/calculator`, `https://user:pw@127.0.0.1:${port}/`, 'ftp://127.0.0.1/']) {
      for (const method of ['GET', 'OPTIONS']) {
        const response = await rawRequest(server.url, { method, path: target });
        expect(response.status, `${method} ${target}`).toBe(400);
        expect(response.body.toString(), target).toBe('Die Anfrage ist fehlerhaft.');
      }
    }
  });
});

describe('oversized uploads are answered', () => {
  it('an 11 MB product image to /api/images/upload gets the German 413 JSON, delivered before the connection closes', async () => {
    const { cookie } = await signIn();
    const body = new FormData();
    body.set('image', new Blob([new Uint8Array(11 * MB)], { type: 'image/jpeg' }), 'gross.jpg');
    // fetch sends the whole body and only then reads: a reset before the answer makes it throw.
    const response = await fetch(`${server.url}/api/images/upload`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url }, body });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Die Datei ist zu groß. Maximal 10MB sind erlaubt.' });
  });

  it('without JavaScript, a product image over 10 MB is answered within the calculator page, with the spec’s message and the typed values', async () => {
    const { cookie } = await signIn();
    const body = new FormData();
    body.set('filamentWeight', '37');
    body.set('hourlyRate', '18,5');
    body.set('projectName', 'Große Vase');
    body.set('image', new Blob([new Uint8Array(11 * MB)], { type: 'image/png' }), 'gross.png');
    body.set('intent', 'uploadImage');
    const response = await fetch(`${server.url}/calculator`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url }, body });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toBe('Die Anfrage ist zu groß.');
    expect(html).toContain('<header');
    expect(html).toContain('Die Datei ist zu groß. Maximal 10MB sind erlaubt.');
    expect(html).toContain('value="37"');
    expect(html).toContain('value="18,5"');
    expect(html).toContain('value="Große Vase"');
  });

  it('without JavaScript, a profile picture over 5 MB is answered within the profile page with the spec’s message', async () => {
    const { cookie } = await signIn();
    const body = new FormData();
    body.set('intent', 'uploadImage');
    body.set('image', new Blob([new Uint8Array(6 * MB)], { type: 'image/jpeg' }), 'gross.jpg');
    const response = await fetch(`${server.url}/profile`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url }, body });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain('<header');
    expect(html).toContain('Datei ist zu groß. Maximum: 5MB');
    // The connection was not reset: the same client goes on.
    expect((await fetch(`${server.url}/profile`, { headers: { Cookie: cookie } })).status).toBe(200);
  });
});

describe('the Origin check compares scheme, host and port', () => {
  it('refuses https://host on an http server, and another port', async () => {
    const { host, port } = new URL(server.url);
    for (const origin of [`https://${host}`, `https://127.0.0.1:${port}`, `http://127.0.0.1:${Number(port) + 1}`, 'http://127.0.0.1']) {
      const response = await fetch(`${server.url}/kontakt`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
        body: form({ name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: 'Hallo' }),
      });
      expect(response.status, origin).toBe(403);
      expect(await response.text()).toBe('Anfrage abgelehnt: Sie stammt nicht von dieser Website.');
    }
    // Under another name for the same server (Host), the same scheme still counts as ours.
    const sameHost = await rawRequest(server.url, {
      method: 'POST',
      path: '/cookie-consent',
      headers: { Host: `localhost:${port}`, Origin: `http://localhost:${port}`, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '12' },
      body: 'intent=save&',
    });
    expect(sameHost.status).not.toBe(403);
  });
});

describe('the JSON API answers JSON for every status', () => {
  it('unknown addresses and unsupported methods under /api answer { message } in German', async () => {
    const { cookie } = await signIn();
    const cases: [string, string, number, string][] = [
      ['GET', '/api/nope', 404, 'Nicht gefunden.'],
      ['GET', '/api', 404, 'Nicht gefunden.'],
      ['GET', '/api/', 404, 'Nicht gefunden.'],
      ['GET', '/api/projects/abc/def', 404, 'Nicht gefunden.'],
      ['POST', '/api/nope', 404, 'Nicht gefunden.'],
      ['PUT', '/api/nope', 404, 'Nicht gefunden.'],
      ['DELETE', '/api/auth', 404, 'Nicht gefunden.'],
      ['PATCH', '/api/nope/tief/drin', 404, 'Nicht gefunden.'],
      ['OPTIONS', '/api/nope', 404, 'Nicht gefunden.'],
      ['PROPFIND', '/api/nope', 405, 'Diese Anfrageart wird hier nicht unterstützt.'],
      ['TRACE', '/api/projects', 405, 'Diese Anfrageart wird hier nicht unterstützt.'],
      ['TRACE', '/api', 405, 'Diese Anfrageart wird hier nicht unterstützt.'],
      ['PROPFIND', '/api/projects', 405, 'Diese Anfrageart wird hier nicht unterstützt.'],
      ['PATCH', '/api/projects', 405, 'Diese Anfrageart wird hier nicht unterstützt.'],
      ['POST', '/api', 415, 'Dieses Datenformat wird hier nicht angenommen.'],
    ];
    for (const [method, path, status, message] of cases) {
      for (const signedIn of [false, true]) {
        const label = `${method} ${path}${signedIn ? ' (signed in)' : ''}`;
        const withBody = method === 'POST' && path === '/api';
        const response = await rawRequest(server.url, {
          method,
          path,
          headers: { Origin: server.url, ...(signedIn ? { Cookie: cookie } : {}), ...(withBody ? { 'Content-Type': 'text/plain', 'Content-Length': '1' } : {}) },
          body: withBody ? 'x' : undefined,
        });
        expect(response.status, label).toBe(status);
        expect(response.headers['content-type'], label).toMatch(/^application\/json/);
        expect(JSON.parse(response.body.toString()), label).toEqual({ message });
      }
    }
  });
});

describe('a rate limit answers a followed link with a page, scripts and API clients with JSON', () => {
  it('GET /projects.csv over its limit: the link (no JavaScript) goes back to /projects with a German toast; fetch keeps the JSON 429', async () => {
    const { cookie } = await signIn();
    // The headers as a browser sends them (fetch() would add its own Sec-Fetch-Mode: cors).
    const link: Record<string, string> = {
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'Sec-Fetch-Mode': 'navigate',
      'Sec-Fetch-Dest': 'document',
      Cookie: cookie,
    };
    const get = (path: string, headers: Record<string, string>) => rawRequest(server.url, { path, headers });
    // 10 downloads a quarter hour per seller (projectCsvExport, domain/limits.ts; RATE_LIMIT_FACTOR=1 here).
    for (let i = 0; i < 10; i++) expect((await get('/projects.csv', link)).status).toBe(200);

    const followed = await get('/projects.csv', link);
    expect(followed.status).toBe(303);
    expect(followed.headers.location).toBe('/projects');
    expect(String(followed.headers['content-type'] ?? '')).not.toMatch(/json/);
    const toastCookie = (followed.headers['set-cookie'] ?? []).map((value) => value.split(';')[0]).find((value) => value.startsWith('toast='));
    expect(toastCookie).toBeTruthy();
    const page = await get('/projects', { ...link, Cookie: `${cookie}; ${toastCookie}` });
    expect(page.status).toBe(200);
    const html = page.body.toString('utf8');
    expect(html).toContain('CSV-Export gerade nicht möglich');
    expect(html).toMatch(/Zu viele Versuche\. Bitte warten Sie \d+ Minuten? und versuchen Sie es dann erneut\./);

    const { Accept: _accept, ...noAccept } = link;
    for (const [label, headers] of [
      ['no Accept', noAccept],
      ['JSON', { ...noAccept, Accept: 'application/json' }],
      ['fetch()', { ...link, 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }],
      ['XMLHttpRequest', { ...link, 'X-Requested-With': 'XMLHttpRequest' }],
    ] as const) {
      const api = await get('/projects.csv', headers);
      expect(api.status, label).toBe(429);
      expect(api.headers['retry-after'], label).toMatch(/^\d+$/);
      expect(api.headers['content-type'], label).toMatch(/^application\/json/);
      expect((JSON.parse(api.body.toString()) as { message: string }).message, label).toMatch(/^Zu viele Versuche/);
    }
  });
});

describe('the request log', () => {
  it('writes paths without query values', async () => {
    await fetch(`${server.url}/calculator?filamentWeight=4711&projectName=Geheimprojekt&filamentWeight=9`);
    await fetch(`${server.url}/reset-password?token=supergeheimertoken123`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = server.log();
    expect(log).toMatch(/GET \/calculator\?filamentWeight&projectName 200/);
    expect(log).toMatch(/GET \/reset-password\?token \d{3}/);
    expect(log).not.toContain('4711');
    expect(log).not.toContain('Geheimprojekt');
    expect(log).not.toContain('supergeheimertoken123');
  });
});

describe('served images', () => {
  it('a profile picture is not kept in the browser’s cache past a logout (revalidated every time)', async () => {
    const { cookie } = await signIn();
    const upload = await fetch(`${server.url}/api/profile/upload-url`, { method: 'POST', headers: { Cookie: cookie, Origin: server.url } });
    const { uploadURL } = (await upload.json()) as { uploadURL: string };
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0d9488' } }).png().toBuffer();
    expect((await fetch(new URL(uploadURL, server.url), { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: new Uint8Array(png) })).status).toBe(204);
    const completed = await fetch(`${server.url}/api/profile/image`, {
      method: 'PUT',
      headers: { Cookie: cookie, Origin: server.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ imageUrl: uploadURL.split('?')[0] }),
    });
    const { imageUrl } = (await completed.json()) as { imageUrl: string };
    const picture = await fetch(new URL(imageUrl, server.url), { headers: { Cookie: cookie } });
    expect(picture.status).toBe(200);
    const cacheControl = picture.headers.get('cache-control') ?? '';
    expect(cacheControl).toMatch(/\bprivate\b/);
    expect(cacheControl).toMatch(/\bno-store\b|\bno-cache\b/);
    expect(cacheControl).not.toMatch(/max-age=[1-9]/);
    // Revalidation is cheap for the owner and fails once signed out.
    const again = await fetch(new URL(imageUrl, server.url), { headers: { Cookie: cookie, 'If-None-Match': picture.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(new URL(imageUrl, server.url), { headers: { 'If-None-Match': picture.headers.get('etag')! } })).status).toBe(404);
  });
});
