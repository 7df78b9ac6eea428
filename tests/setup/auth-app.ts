import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, expect } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { MailOutbox, User } from '../../app/entities';
import { closeOrm } from '../../app/services/db.server';
import { sessionStorage } from '../../app/services/session.server';
import { hashPassword } from '../../app/models/users.server';
import { issueUserSession } from '../../app/services/auth.server';
import { action as loginAction } from '../../app/routes/api+/auth.login';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from './database';

/**
 * Integration tests of the account routes: a migrated database of its own,
 * the app's ORM pointed at it (DATABASE_URL before the first getOrm()), mails
 * only queued (MAIL_WORKER=off), files under a temporary DATA_DIR.
 */
export const APP_URL = 'http://localhost:3000';

export function useAuthTestApp(prefix: string) {
  const context = {} as { orm: MikroORM; dataDir: string; drop: () => Promise<void> };
  beforeAll(async () => {
    const database = await createTestDatabase(prefix);
    await runMigrations(database.url);
    context.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `druckpreis-${prefix}-`));
    Object.assign(process.env, {
      DATABASE_URL: database.url,
      DATA_DIR: context.dataDir,
      APP_URL,
      MAIL_WORKER: 'off',
      NODE_ENV: 'test',
    });
    delete process.env.SESSION_SECRET;
    delete process.env.S3_BUCKET;
    context.orm = await MikroORM.init(createOrmConfig(database.url));
    context.drop = database.drop;
  });
  afterAll(async () => {
    await closeOrm();
    await context.orm?.close(true);
    await context.drop?.();
    if (context.dataDir) fs.rmSync(context.dataDir, { recursive: true, force: true });
  });
  return {
    get orm() {
      return context.orm;
    },
    em: () => context.orm.em.fork(),
  };
}

/** A fresh client IP, so rate limits of one test do not leak into another. */
export function randomIp(): string {
  const bytes = crypto.randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2] || 1}`;
}

export function uniqueEmail(label = 'user'): string {
  return `${label}.${crypto.randomBytes(5).toString('hex')}@example.de`;
}

type RequestOptions = { cookie?: string | null; ip?: string; headers?: Record<string, string> };

/** A request as the express server hands it to Remix (client IP header set by the server). */
export function apiRequest(pathname: string, method = 'GET', body?: unknown, options: RequestOptions = {}): Request {
  const headers = new Headers(options.headers);
  headers.set('x-druckpreis-client-ip', options.ip ?? '127.0.0.1');
  if (options.cookie) headers.set('Cookie', options.cookie);
  let payload: string | undefined;
  if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  return new Request(`${APP_URL}${pathname}`, { method, headers, body: payload });
}

export type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;

/** Runs a loader or action; a thrown Response (guards) is returned like a returned one. */
export async function call(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    const result = await handler({ request, params, context: {} });
    if (!(result instanceof Response)) throw new Error('handler did not return a Response');
    return result;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

/** The `__session=...` pair of a response's Set-Cookie (for the next request's Cookie header). */
export function sessionCookie(response: Response): string | null {
  const header = response.headers.get('Set-Cookie');
  if (!header) return null;
  const match = /(?:^|,\s*)(__session=[^;]*)/.exec(header);
  return match ? match[1] : null;
}

/** The session id behind a cookie ('' when none). */
export async function sessionIdOf(cookie: string | null): Promise<string> {
  return (await sessionStorage.getSession(cookie)).id;
}

export async function mailsTo(orm: MikroORM, to: string, template?: string) {
  return orm.em.fork().find(MailOutbox, { to, ...(template ? { template } : {}) }, { orderBy: { createdAt: 'asc' } });
}

export function tokenFromMail(text: string, page: 'verify-email' | 'reset-password'): string {
  const match = new RegExp(`${page}\\?token=([A-Za-z0-9_-]{43})`).exec(text);
  if (!match) throw new Error(`no ${page} link in mail:\n${text}`);
  return match[1];
}

/** A confirmed account, inserted directly. */
export async function createUser(
  orm: MikroORM,
  { email = uniqueEmail(), password = 'Sicher-Passwort-42', verified = true, firstName = 'Anna', lastName = 'Schmidt' } = {},
) {
  const em = orm.em.fork();
  const user = em.create(User, { email, password: await hashPassword(password), emailVerified: verified, firstName, lastName });
  await em.flush();
  return { user, email, password };
}

/** A confirmed account, signed in as the sign-in page does it: the user and the `__session=...` pair for a Cookie header. */
export async function signedInUser(orm: MikroORM, { premium = false } = {}) {
  const { user } = await createUser(orm);
  if (premium) await orm.em.fork().nativeUpdate(User, { id: user.id }, { isPremium: 1 });
  const setCookie = await issueUserSession(new Request(`${APP_URL}/`), user.id);
  return { user, cookie: /__session=[^;]*/.exec(setCookie)![0] };
}

/** A loader's or action's answer, read whatever its kind: a Response (returned or thrown), Remix `data()`, or plain data. */
export type Outcome = { status: number; headers: Headers; body: unknown; text: string };

/** Runs a loader or action; Responses (returned or thrown) and Remix `data()` results alike. */
export async function invoke(handler: Handler, request: Request, params: Record<string, string> = {}): Promise<Outcome> {
  let result: unknown;
  try {
    result = await handler({ request, params, context: {} });
  } catch (error) {
    result = error;
  }
  if (result instanceof Response) {
    const text = await result.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: result.status, headers: result.headers, body, text };
  }
  if (result && typeof result === 'object' && (result as { type?: string }).type === 'DataWithResponseInit') {
    const { data, init } = result as { data: unknown; init?: ResponseInit };
    return { status: init?.status ?? 200, headers: new Headers(init?.headers), body: data, text: JSON.stringify(data) };
  }
  if (result instanceof Error) throw result;
  return { status: 200, headers: new Headers(), body: result, text: JSON.stringify(result) };
}

/** A page form's POST (urlencoded), as the express server hands it to Remix. */
export function formRequest(pathname: string, fields: Record<string, string>, cookie: string | null): Request {
  const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': '127.0.0.1' });
  if (cookie) headers.set('Cookie', cookie);
  return new Request(`${APP_URL}${pathname}`, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
}

/**
 * A confirmed account (an admin with `admin: true`) signed in through POST /api/auth/login from a
 * fresh IP: the account, its id and the `__session=...` pair for a Cookie header.
 */
export async function signInThroughApi(orm: MikroORM, { admin = false, ...options }: { admin?: boolean; email?: string; password?: string } = {}) {
  const created = await createUser(orm, options);
  if (admin) await orm.em.fork().nativeUpdate(User, { id: created.user.id }, { isAdmin: 1 });
  const response = await invoke(loginAction as Handler, apiRequest('/api/auth/login', 'POST', { email: created.email, password: created.password }, { ip: randomIp() }));
  expect(response.status).toBe(200);
  return { ...created, id: created.user.id, cookie: sessionCookie(new Response(null, { headers: response.headers }))! };
}

/** A project as POST /api/projects takes it (every calculator field); overrides replace or add fields. */
export function projectPayload(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Vase',
    quantity: 1,
    filamentWeight: 40,
    filamentPricePerKg: 22.5,
    printTime: 2.25,
    printerWattage: 150,
    electricityRate: 0.3,
    preparationTime: 10,
    postProcessingTime: 5,
    hourlyRate: 20,
    packagingCost: 0.8,
    shippingCost: 4.5,
    marketplaceFeePercentage: 6.5,
    marketplaceFeeFixed: 0.35,
    profitMargin: 30,
    targetPrice: 0,
    printerCost: 450,
    printerLifetimeHours: 8000,
    ...overrides,
  };
}
