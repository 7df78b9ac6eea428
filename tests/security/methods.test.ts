import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { rawRequest } from './http';
import { sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * A wrong method on a resource route is 405 with Allow and the German text
 * (JSON `{ message }` under /api/, plain text elsewhere), never Remix's
 * English "Unexpected Server Error" (400 for a missing loader, 405 for a
 * missing action).
 */
const MESSAGE = 'Diese Anfrageart wird hier nicht unterstützt.';

/** Action-only routes and the one method each takes. */
const ACTION_ONLY: [string, string][] = [
  ['/api/auth/login', 'POST'],
  ['/api/auth/logout', 'POST'],
  ['/api/auth/register', 'POST'],
  ['/api/auth/forgot-password', 'POST'],
  ['/api/auth/resend-verification', 'POST'],
  ['/api/auth/reset-password', 'POST'],
  ['/api/auth/login-link', 'POST'],
  ['/api/auth/login-link/verify', 'POST'],
  ['/api/contact', 'POST'],
  ['/api/images/upload', 'POST'],
  ['/api/profile', 'PUT, DELETE'],
  ['/api/admin/settings/stripe', 'POST'],
  ['/api/admin/settings/email/test', 'POST'],
  ['/api/admin/settings/email/send-test', 'POST'],
  ['/api/admin/users/00000000-0000-4000-8000-000000000000', 'DELETE'],
  ['/api/profile/email', 'DELETE'],
  ['/api/profile/image', 'PUT'],
  ['/api/profile/password', 'PUT'],
  ['/api/profile/upload-url', 'POST'],
  ['/api/quotes/00000000-0000-4000-8000-000000000000/send', 'POST'],
  ['/api/stripe/webhook', 'POST'],
  ['/api/subscription/create', 'POST'],
  ['/api/subscription/cancel', 'POST'],
];

/** Loader-only routes. */
const LOADER_ONLY = [
  '/api/auth/user',
  '/api/auth/verify-email?token=abc',
  '/api/login',
  '/healthz',
  '/sitemap.xml',
  '/images/profile/00000000-0000-0000-0000-000000000000/abc',
  '/calculator/export',
  '/api/admin/settings',
  '/api/admin/users',
  '/api/profile/export',
  '/api/quotes/00000000-0000-4000-8000-000000000000/pdf',
  '/angebote/00000000-0000-4000-8000-000000000000.pdf',
  '/projects.csv',
  '/api/stripe/public-key',
  '/api/subscription/status',
  '/api/google-ads-config',
];

/** Routes with a loader and an action: the methods they take, and wrong ones that reach them. */
const BOTH: [string, string, string[]][] = [
  ['/api/quotes', 'GET, POST', ['PUT', 'DELETE', 'PATCH']],
  ['/api/quotes/00000000-0000-4000-8000-000000000000', 'GET, PUT, DELETE', ['POST', 'PATCH']],
];

/** Download and data routes whose loader a signed-in user's OPTIONS must not reach (security review). */
const DATA_LOADERS = ['/projects.csv', '/api/profile/export', '/api/projects', '/calculator/export?quantity=1'];

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer('sec_methods');
  const email = `methods.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const em = server.orm.em.fork();
  em.create(User, { email, password: await hashPassword('Methods-Passwort-1'), emailVerified: true, firstName: 'Methoden', lastName: 'Test' });
  await em.flush();
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Methods-Passwort-1' }) });
  cookie = sessionCookieOf(login);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

// Content-Length given: node sends a DELETE's or OPTIONS' body without one, which the server cannot frame.
const send = (method: string, path: string) =>
  method === 'GET' || method === 'HEAD'
    ? rawRequest(server.url, { method, path, headers: { Origin: server.url } })
    : path.startsWith('/api/')
      ? rawRequest(server.url, { method, path, headers: { Origin: server.url, 'Content-Type': 'application/json', 'Content-Length': '2' }, body: '{}' })
      : rawRequest(server.url, { method, path, headers: { Origin: server.url, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '3' }, body: 'a=b' });

function expectGerman405(response: Awaited<ReturnType<typeof send>>, label: string, method: string) {
  expect(response.status, `${label}: ${response.body.toString().slice(0, 200)}`).toBe(405);
  if (method === 'HEAD') return;
  const text = response.body.toString();
  const message = String(response.headers['content-type']).startsWith('application/json') ? JSON.parse(text).message : text;
  expect(message, label).toBe(MESSAGE);
}

describe('wrong methods on resource routes', () => {
  it('answers GET, HEAD and OPTIONS on action-only routes with 405, Allow and the German JSON message', async () => {
    for (const [path, allowed] of ACTION_ONLY) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'PATCH']) {
        const label = `${method} ${path}`;
        const response = await send(method, path);
        expectGerman405(response, label, method);
        expect(response.headers.allow, label).toBe(allowed);
        expect(response.headers['content-type'], label).toMatch(/^application\/json/);
      }
    }
  });

  it('answers POST, PUT, DELETE and PATCH on loader-only routes with 405 and the German message', async () => {
    for (const path of LOADER_ONLY) {
      const api = path.startsWith('/api/');
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const label = `${method} ${path}`;
        const response = await send(method, path);
        expectGerman405(response, label, method);
        expect(response.headers.allow, label).toMatch(/^GET, HEAD/);
        if (api) expect(response.headers['content-type'], label).toMatch(/^application\/json/);
      }
      // What reaches the route itself (POST and OPTIONS; the request guard refuses other methods on pages first) names exactly its methods.
      expect((await send('POST', path)).headers.allow, path).toBe('GET, HEAD');
    }
  });

  it('answers a method a loader-and-action route does not take with 405, Allow and the German JSON message', async () => {
    for (const [path, allowed, wrong] of BOTH) {
      for (const method of wrong) {
        const label = `${method} ${path}`;
        const response = await send(method, path);
        expectGerman405(response, label, method);
        expect(response.headers.allow, label).toBe(allowed);
      }
    }
  });

  it('answers anything but PUT on an upload address with 405 and Allow: PUT', async () => {
    const response = await send('POST', '/uploads/profile/00000000-0000-0000-0000-000000000000/abc');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('PUT');
  });

  it('answers OPTIONS on download and data routes with 405 and no data, even signed in', async () => {
    for (const path of DATA_LOADERS) {
      const response = await rawRequest(server.url, { method: 'OPTIONS', path, headers: { Origin: server.url, Cookie: cookie, 'Content-Length': '0' } });
      expectGerman405(response, `OPTIONS ${path}`, 'OPTIONS');
      expect(response.headers.allow, path).toMatch(/^GET, HEAD/);
      expect(response.headers['content-disposition'], path).toBeUndefined();
    }
  });

  it('sends X-Content-Type-Options once on CSV and JSON downloads', async () => {
    for (const path of ['/projects.csv', '/api/profile/export']) {
      const response = await rawRequest(server.url, { method: 'GET', path, headers: { Cookie: cookie } });
      expect(response.status, path).toBe(200);
      expect(response.headers['content-disposition'], path).toMatch(/^attachment/);
      expect(response.headers['x-content-type-options'], path).toBe('nosniff');
    }
  });

  it('answers a static folder (/locales) with the German 404, not express\'s English redirect', async () => {
    for (const path of ['/locales', '/locales/de', '/assets']) {
      const response = await rawRequest(server.url, { method: 'GET', path, headers: { Accept: 'text/html' } });
      expect(response.status, path).toBe(404);
      expect(response.headers.location, path).toBeUndefined();
      const text = response.body.toString();
      expect(text, path).not.toContain('Redirecting');
      expect(text, path).toContain('lang="de"');
    }
  });
});
