import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { MailOutbox, User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { MIGRATION_LOCK_KEY } from '../../scripts/lib/migrate';
import { buildOnce, childPids, freePort, sessionCookieOf, stopProcess } from '../security/server';
import { createTestDatabase } from '../setup/database';
import { startTestS3Server, type TestS3Server } from '../setup/s3-server';
import { parseMail } from '../setup/smtp-server';

/**
 * Issue 22: two app instances from `scripts/start.ts` (two workers and one), one
 * PostgreSQL database (DATABASE_URL of both), one S3 API (s3rver behind a
 * counting proxy) and one SMTP server, with requests alternating between them,
 * as a load balancer would send them. Each instance has its own DATA_DIR (as
 * its own container would); what they must share comes from the environment
 * (SESSION_SECRET, UPLOAD_SIGNING_SECRET, SETTINGS_ENCRYPTION_KEY).
 *
 * The instances start on an empty database while "the first one migrates",
 * so the suite also shows the migration lock (scripts/lib/migrate.ts). A runs
 * `scripts/start.ts` with tsx (`npm start`), B the compiled scripts the Docker
 * image runs (`npm run build:scripts`).
 *
 * A check of "a change made through one shows on the other within a minute"
 * is `propagation(...)`: write the change (here the contact address, straight
 * into admin_settings, since the admin page is being built elsewhere), then
 * probe the other instance until it answers with the new value; then the
 * visitor pages B cached before the change must still equal what A renders
 * fresh after it. A later settings or ads check adds one `it` of the same
 * shape (its `write` through the admin page or API, its `probe` reading the
 * page or mail that shows the setting).
 */

const SESSION_SECRET = crypto.randomBytes(32).toString('hex');
const UPLOAD_SIGNING_SECRET = crypto.randomBytes(32).toString('hex');
const SETTINGS_ENCRYPTION_KEY = crypto.randomBytes(32).toString('hex');
/** What the reverse proxy in front would be: both instances answer for one site. */
const SITE = 'http://druckpreis.localhost';
const PASSWORD = 'Richtiges-Passwort-7';
/**
 * What a browser sends and the proxy adds: Remix refuses a form post whose Origin is not the
 * X-Forwarded-Host (or Host) it sees, so the proxy must pass the site's host on (Caddy does).
 */
const PROXY_HEADERS = { Origin: SITE, 'X-Forwarded-Host': new URL(SITE).host, 'X-Forwarded-Proto': 'http' };
const MIGRATION_FILES = fs.readdirSync('prisma-free-migrations').filter((name) => /^Migration\d{14}_.*\.ts$/.test(name)).length;

/** The pages a shared cache may keep (`publicPageHeaders`), a shared calculation link among them. */
const SHARED_PAGES = ['/', '/calculator', '/calculator?filamentWeight=62%2C5&printTimeHours=5&targetPrice=39%2C90', '/impressum', '/datenschutz'];
const withoutNonces = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

type Instance = {
  name: 'A' | 'B';
  url: string;
  child: ChildProcess;
  output: string[];
  requests: number;
  killed: boolean;
};

/** Figures for the report (printed at the end). */
const figures: Record<string, unknown> = {};

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let s3: TestS3Server;
let s3Proxy: http.Server;
const s3Deletes: string[] = [];
/** The store as browsers reach it (S3_PUBLIC_ENDPOINT); the instances use the counting proxy (S3_ENDPOINT). */
let s3PublicUrl: string;
let smtp: Smtp;
let tempDir: string;
const instances: Instance[] = [];
let A: Instance;
let B: Instance;

// ---------------------------------------------------------------------------
// Start: S3, SMTP, an empty database; instance A starts migrating and is held
// inside its migration, B starts meanwhile and must wait for it.

beforeAll(async () => {
  const started = Date.now();
  await buildOnce();
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'druckpreis-two-'));
  prepareImageLayout();
  s3 = await startTestS3Server({ bucket: 'druckpreis', directory: path.join(tempDir, 's3'), resetOnClose: true });
  const s3Port = s3.port;
  s3Proxy = await countingProxy(s3Port, (method, url) => method === 'DELETE' && s3Deletes.push(url));
  smtp = await startSmtp();
  database = await createTestDatabase('two_instances');

  // "The first instance is in the middle of a slow migration": an uncommitted table of the same
  // name as the migrator's own makes its first statement wait until this transaction ends.
  const blocker = new pg.Client({ connectionString: database.url });
  await blocker.connect();
  await blocker.query('begin');
  await blocker.query('create table mikro_orm_migrations (id serial primary key, name varchar(255), executed_at timestamptz)');
  try {
    const proxyPort = (s3Proxy.address() as { port: number }).port;
    s3PublicUrl = `http://127.0.0.1:${s3Port}`;
    A = await spawnInstance('A', proxyPort);
    await waitFor(() => migrationLockHeld(blocker), 30_000, 'instance A to take the migration lock');
    B = await spawnInstance('B', proxyPort, { compiled: true });
    await waitFor(() => B.output.join('').includes('waiting for it to finish'), 30_000, 'instance B to wait for the migration lock');
    figures.bHealthyWhileAMigrates = await healthy(B);
  } finally {
    await blocker.query('rollback');
    await blocker.end();
  }
  await Promise.all([waitHealthy(A), waitHealthy(B)]);
  orm = await MikroORM.init(createOrmConfig(database.url));
  figures.startMs = Date.now() - started;
}, 180_000);

afterAll(async () => {
  await Promise.all(instances.filter((instance) => !instance.killed).map((instance) => stopProcess(instance.child)));
  await orm?.close(true);
  await database?.drop();
  await smtp?.close();
  await new Promise((resolve) => s3Proxy?.close(resolve));
  await s3?.stop();
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  figures.requests = Object.fromEntries(instances.map((instance) => [instance.name, instance.requests]));
  console.log(`[two-instances] figures: ${JSON.stringify(figures, null, 2)}`);
});

/**
 * Instance B runs as the Docker image does: `node build/scripts/start.js` (npm run build:scripts)
 * in a folder laid out like the image's /app, with the compiled migrations where the migrator
 * looks. A runs `scripts/start.ts` with tsx, as `npm start` does.
 */
function prepareImageLayout() {
  if (newestMtime(['app', 'scripts', 'prisma-free-migrations', 'mikro-orm.config.ts', 'package.json']) > mtime('build/scripts/start.js')) {
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-production-scripts.ts'], { stdio: 'pipe' });
  }
  const image = path.join(tempDir, 'image');
  fs.mkdirSync(image);
  for (const [link, target] of [
    ['build', 'build'],
    ['node_modules', 'node_modules'],
    ['package.json', 'package.json'],
    ['prisma-free-migrations', 'build/migrations'],
  ]) {
    fs.symlinkSync(path.resolve(target), path.join(image, link));
  }
}

const mtime = (file: string) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
function newestMtime(entries: string[]): number {
  return Math.max(
    0,
    ...entries.map((entry) =>
      fs.statSync(entry).isDirectory() ? newestMtime(fs.readdirSync(entry).map((child) => path.join(entry, child))) : mtime(entry),
    ),
  );
}

async function spawnInstance(name: 'A' | 'B', s3Port: number, { compiled = false } = {}): Promise<Instance> {
  const port = await freePort();
  const dataDir = path.join(tempDir, `data-${name}`);
  const child = spawn(process.execPath, compiled ? ['build/scripts/start.js'] : ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: compiled ? path.join(tempDir, 'image') : process.cwd(),
    // A process group of its own: SIGKILL reaches the primary and its workers at once.
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: SITE,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      // A: two workers (the per-process caches and timers twice over), B: one (less to start on two cores).
      WEB_CONCURRENCY: name === 'A' ? '2' : '1',
      LOG_REQUESTS: 'false',
      MAIL_WORKER: 'on',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      CONTACT_EMAIL: 'kontakt-env@example.de',
      ...s3.env,
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_PUBLIC_ENDPOINT: s3PublicUrl,
      SESSION_SECRET,
      UPLOAD_SIGNING_SECRET,
      SETTINGS_ENCRYPTION_KEY,
      // One proxy in front (the client IP comes from X-Forwarded-For), as in deploy/compose.yaml.
      TRUST_PROXY: '1',
      RATE_LIMIT_FACTOR: '1',
      BCRYPT_COST: '10',
      UPLOAD_CLEANUP_INTERVAL_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const instance: Instance = { name, url: `http://127.0.0.1:${port}`, child, output: [], requests: 0, killed: false };
  const echo = process.env.SECURITY_SERVER_LOG ? (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk}`) : () => {};
  child.stdout!.on('data', (chunk) => (instance.output.push(String(chunk)), echo(chunk)));
  child.stderr!.on('data', (chunk) => (instance.output.push(String(chunk)), echo(chunk)));
  instances.push(instance);
  return instance;
}

// ---------------------------------------------------------------------------
// Requests

let nextIp = 1;
/** A client address of its own (X-Forwarded-For, TRUST_PROXY=1), so rate limits of one check stay out of another. */
const freshIp = () => `198.51.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

type Options = { method?: string; body?: unknown; cookie?: string; ip?: string };

async function call(instance: Instance, pathname: string, { method = 'GET', body, cookie, ip = '203.0.113.9' }: Options = {}) {
  instance.requests += 1;
  const headers: Record<string, string> = { ...PROXY_HEADERS, 'X-Forwarded-For': ip };
  if (cookie) headers.Cookie = cookie;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  return fetch(`${instance.url}${pathname}`, { method, headers, body: payload, redirect: 'manual' });
}

/** Requests alternate between the instances, as a round-robin balancer sends them. */
const other = (instance: Instance) => (instance === A ? B : A);
const alternate = (i: number) => (i % 2 === 0 ? A : B);

async function createAccount(label: string, extra: Partial<Pick<User, 'firstName'>> = {}) {
  const email = `${label}.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const em = orm.em.fork();
  const user = em.create(User, { email, password: await hashPassword(PASSWORD), emailVerified: true, firstName: 'Vera', lastName: 'Test', ...extra });
  await em.flush();
  return { user, email };
}

async function login(instance: Instance, email: string, password = PASSWORD): Promise<string> {
  const response = await call(instance, '/api/auth/login', { method: 'POST', body: { email, password }, ip: freshIp() });
  expect(response.status).toBe(200);
  return sessionCookieOf(response);
}

const whoAmI = async (instance: Instance, cookie: string) => (await call(instance, '/api/auth/user', { cookie })).status;

// ---------------------------------------------------------------------------

describe('two instances on one database and one S3 store', () => {
  it('migrations: B started while A migrated, waited for it, and nothing was applied twice', async () => {
    expect(figures.bHealthyWhileAMigrates).toBe(false);
    const rows = await orm.em.getConnection().execute<{ name: string }[]>('select name from mikro_orm_migrations');
    expect(rows).toHaveLength(MIGRATION_FILES);
    expect(new Set(rows.map((row) => row.name)).size).toBe(MIGRATION_FILES);
    const applied = (instance: Instance) => /applied migrations: (.*)/.exec(instance.output.join(''))?.[1]?.split(', ') ?? [];
    expect(applied(A)).toHaveLength(MIGRATION_FILES);
    expect(applied(B)).toEqual([]);
    // Everything the instances must share is configured: no warning about state kept in one DATA_DIR.
    for (const instance of [A, B]) expect(instance.output.join('')).not.toMatch(/is not set:/);
  });

  it('the compiled slicer worker thread of the image reads a file (the image has no tsx for the sources)', async () => {
    const script = `
      const { Worker } = require('node:worker_threads');
      const worker = new Worker(process.argv[1]);
      const text = new TextEncoder().encode('; generated by PrusaSlicer 2.7.1\\n; filament used [g] = 3\\n; estimated printing time (normal mode) = 1h\\n');
      worker.on('message', (message) => {
        if (message.ready) return worker.postMessage({ id: 1, size: text.length, head: text, tail: new Uint8Array() });
        console.log(JSON.stringify(message.result));
        worker.terminate();
      });`;
    const output = execFileSync(process.execPath, ['-e', script, path.resolve('build/scripts/slicer-summary-worker.js')], { encoding: 'utf8' });
    expect(JSON.parse(output)).toMatchObject({ ok: true, summary: { slicer: 'PrusaSlicer', filamentGrams: 3, printSeconds: 3600 } });
  });

  it('a session made on one is valid on the other; logout and a password change on one end it on both', async () => {
    const { email } = await createAccount('sitzung');
    const first = await login(A, email);
    const second = await login(B, email);
    const third = await login(A, email);
    for (const instance of [A, B]) {
      expect(await whoAmI(instance, first)).toBe(200);
      expect(await whoAmI(instance, second)).toBe(200);
    }

    // Logout through B ends the session made on A, on both.
    expect((await call(B, '/api/auth/logout', { method: 'POST', cookie: third })).status).toBe(200);
    expect(await whoAmI(A, third)).toBe(401);
    expect(await whoAmI(B, third)).toBe(401);

    // A password change through A ends the other session (made on B) on both; the changing one stays.
    const changed = await call(A, '/api/profile/password', {
      method: 'PUT',
      cookie: first,
      body: { currentPassword: PASSWORD, newPassword: 'Neues-Passwort-8', confirmPassword: 'Neues-Passwort-8' },
    });
    expect(changed.status).toBe(200);
    expect(await whoAmI(B, second)).toBe(401);
    expect(await whoAmI(A, second)).toBe(401);
    const profile = await call(B, '/profile', { cookie: second });
    expect(profile.status).toBe(302);
    expect(profile.headers.get('location')).toMatch(/^\/auth/);
    expect(await whoAmI(B, first)).toBe(200);
  });

  it('a toast set by an action on A is shown by the page B renders next (one SESSION_SECRET signs both cookies)', async () => {
    const { email } = await createAccount('toast', { firstName: 'Ottilie' });
    const signInOn = async (instance: Instance, other: Instance) => {
      const signIn = await fetch(`${instance.url}/auth`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...PROXY_HEADERS, 'X-Forwarded-For': freshIp(), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'login', email, password: PASSWORD }),
      });
      instance.requests += 1;
      expect(signIn.status).toBe(302);
      const cookies = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
      expect(cookies).toMatch(/toast=/);
      const page = await call(other, signIn.headers.get('location')!, { cookie: cookies });
      expect(page.status).toBe(200);
      return page.text();
    };
    // Her very first sign-in (on B) is no return; the next one (on A) is: the mark is in the shared database (issue 24 §2).
    const first = await signInOn(B, A);
    expect(first).toContain('Willkommen bei Druckpreis, Ottilie!');
    expect(first).not.toContain('Willkommen zurück, Ottilie!');
    expect(await signInOn(A, B)).toContain('Willkommen zurück, Ottilie!');
  });

  it('rate limits count across both: ten wrong passwords alternating, then both refuse', async () => {
    const { email } = await createAccount('ratelimit');
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const response = await call(alternate(i), '/api/auth/login', { method: 'POST', body: { email, password: 'falsch-falsch' }, ip });
      statuses.push(response.status);
    }
    // The login limit is 10 wrong passwords per address and IP (rate-limit-config.server.ts).
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual([429, 429]);
    figures.rateLimit = `10 wrong passwords alternating A/B (5 each), then 429 on A and on B`;
  });

  it('the free limit of 3 holds under 12 parallel creates spread over both', async () => {
    const { email, user } = await createAccount('limit');
    const cookies = [await login(A, email), await login(B, email)];
    const statuses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(alternate(i), '/api/projects', {
          method: 'POST',
          cookie: cookies[i % 2],
          body: { name: `Vase ${i}`, quantity: 1, filamentWeight: 25, printTime: 2, marketplaceFeePercentage: 5 },
        }).then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 403)).toHaveLength(9);
    const [{ count }] = await orm.em.getConnection().execute<{ count: string }[]>('select count(*) from projects where user_id = ?', [user.id]);
    expect(Number(count)).toBe(3);
  });

  it('a product image uploaded through A is served by B; the cleanup running on both deletes it once when abandoned', async () => {
    const { email, user } = await createAccount('bild');
    const cookie = await login(A, email);
    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#c0392b' } }).png().toBuffer();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'produkt.png');
    const uploaded = await call(A, '/api/images/upload', { method: 'POST', body: form, cookie });
    expect(uploaded.status).toBe(200);
    const { imagePath } = (await uploaded.json()) as { imagePath: string };

    const fromB = await call(B, imagePath, { cookie });
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('image/jpeg');
    const bytesB = Buffer.from(await fromB.arrayBuffer());
    const bytesA = Buffer.from(await (await call(A, imagePath, { cookie })).arrayBuffer());
    expect(bytesB.equals(bytesA)).toBe(true);
    expect((await sharp(bytesB).metadata()).width).toBe(48);
    // Only its owner sees it, on either instance.
    const stranger = await login(B, (await createAccount('fremd')).email);
    expect((await call(B, imagePath, { cookie: stranger })).status).toBe(404);

    // Never saved with a project: make its day pass. The three worker processes run the cleanup every second.
    const [{ key }] = await orm.em.getConnection().execute<{ key: string }[]>(
      `update pending_uploads set expires_at = now() - interval '1 second' where user_id = ? returning key`,
      [user.id],
    );
    const abandonedAt = Date.now();
    await waitFor(async () => (await orm.em.getConnection().execute('select 1 from pending_uploads where key = ?', [key])).length === 0, 20_000, 'the cleanup');
    figures.cleanupAfterMs = Date.now() - abandonedAt;
    // Three processes ran the job for several rounds: the object was deleted by exactly one of them.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(s3Deletes.filter((url) => url.endsWith(`/${key}`))).toHaveLength(1);
    expect((await call(B, imagePath, { cookie })).status).toBe(404);
    expect((await call(A, imagePath, { cookie })).status).toBe(404);
  });

  it('a profile picture: the upload address from A points at the public S3 endpoint, the upload is completed on B', async () => {
    const { email } = await createAccount('profilbild');
    const cookie = await login(A, email);
    const issued = await call(A, '/api/profile/upload-url', { method: 'POST', cookie });
    expect(issued.status).toBe(200);
    const { uploadURL } = (await issued.json()) as { uploadURL: string };
    expect(new URL(uploadURL).origin).toBe(s3PublicUrl);
    // The pages allow the browser to send it there (CSP connect-src), on both instances.
    for (const instance of [A, B]) expect((await call(instance, '/profile', { cookie })).headers.get('content-security-policy')).toContain(s3PublicUrl);
    const jpeg = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#2e86de' } }).jpeg().toBuffer();
    const put = await fetch(uploadURL, { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: new Uint8Array(jpeg) });
    expect(put.status).toBe(200);
    const completed = await call(B, '/api/profile/image', { method: 'PUT', cookie, body: { imageUrl: uploadURL } });
    expect(completed.status).toBe(200);
    const { imageUrl } = (await completed.json()) as { imageUrl: string };
    const picture = await call(A, imageUrl, { cookie });
    expect(picture.status).toBe(200);
    expect((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width).toBe(40);
  });

  it('mails queued on both are sent exactly once while both run their outbox worker', async () => {
    // 150 ms a mail: a worker's batch of 20 takes longer than the 2 s between two rounds of the others,
    // so every worker process of both instances claims a share of the backlog.
    smtp.delayMs = 150;
    const before = smtp.messages.length;
    const requested = Date.now();
    // 6 reset mails queued through A (each request made by the app), 60 rows queued at once (a backlog).
    const accounts = await Promise.all(Array.from({ length: 6 }, () => createAccount('reset')));
    for (const { email } of accounts) {
      expect((await call(A, '/api/auth/forgot-password', { method: 'POST', body: { email }, ip: freshIp() })).status).toBe(200);
    }
    const em = orm.em.fork();
    for (let i = 0; i < 60; i++) {
      em.create(MailOutbox, { to: `stapel${i}@example.de`, subject: `Stapel ${i}`, html: `<p>${i}</p>`, text: String(i), template: 'contactAutoReply' });
    }
    figures.resetRequestsMs = Date.now() - requested;
    await em.flush();
    const queued = Date.now();
    await waitFor(() => smtp.messages.length - before >= 66, 40_000, '66 mails');
    figures.mailsAllSentMs = Date.now() - queued;
    // A second copy would come from a worker's next round (every 2 s): wait for one.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const received = smtp.messages.slice(before);
    expect(received).toHaveLength(66);
    const ids = received.map((mail) => mail.messageId);
    expect(new Set(ids).size).toBe(66);
    for (const { email } of accounts) expect(received.filter((mail) => mail.to === email)).toHaveLength(1);
    const rows = await orm.em.fork().find(MailOutbox, { status: { $ne: 'sent' } });
    expect(rows).toEqual([]);
    figures.mailsSentOnce = {
      mails: received.length,
      distinctMessageIds: new Set(ids).size,
      // '?': the sending process could not be told from /proc (the connection was gone already).
      sentBy: Object.fromEntries(['A', 'B', '?'].map((name) => [name, received.filter((mail) => mail.sender === name).length])),
    };
    // Both instances' workers took part.
    expect(received.some((mail) => mail.sender === 'A')).toBe(true);
    expect(received.some((mail) => mail.sender === 'B')).toBe(true);
    smtp.delayMs = 0;
  });

  it('the contact address changed at one is in effect on the other at once; pages cached on B before the change hold no user data and equal a fresh render after it', async () => {
    const sender = (label: string) => `${label}.${crypto.randomBytes(4).toString('hex')}@example.de`;
    const contact = async (instance: Instance, from: string) => {
      const response = await call(instance, '/api/contact', {
        method: 'POST',
        ip: freshIp(),
        body: { name: 'Kundin', email: from, subject: 'Frage', message: 'Wie teuer ist ein Druck?' },
      });
      expect(response.status).toBe(200);
      const [row] = await orm.em.fork().find(MailOutbox, { replyTo: from, template: 'contactNotification' });
      return row.to;
    };
    expect(await contact(A, sender('vorher'))).toBe('kontakt-env@example.de');

    // B's visitor page cache holds the shared pages; a signed-in user on B never gets them, and visitors never get theirs.
    const { email } = await createAccount('seite', { firstName: 'Zacharias' });
    const cookie = await login(B, email);
    const cachedOnB = async (pathname: string) => {
      for (let i = 0; i < 4; i++) {
        const response = await call(B, pathname);
        const html = await response.text();
        if (response.headers.get('x-cache') === 'hit') return html;
      }
      throw new Error(`B never answered ${pathname} from its visitor page cache`);
    };
    const warm = await Promise.all(SHARED_PAGES.map(cachedOnB));
    const own = await call(B, '/calculator', { cookie });
    expect(own.headers.get('x-cache')).toBeNull();
    expect(own.headers.get('cache-control')).toContain('private');
    expect(await own.text()).toContain('Zacharias');

    const changed = await propagation({
      write: () =>
        orm.em.getConnection().execute(
          `insert into admin_settings (key, value) values ('contact_config', ?)
           on conflict (key) do update set value = excluded.value, updated_at = now()`,
          [JSON.stringify({ contactEmail: 'neu-kontakt@example.de' })],
        ),
      probe: async () => (await contact(B, sender('nachher'))) === 'neu-kontakt@example.de',
    });
    figures.settingsChangeVisibleOnOtherAfterMs = changed.ms;
    expect(changed.ms).toBeLessThan(60_000);
    // Back on A too, and the mail itself goes out (once) to the new address.
    expect(await contact(A, sender('danach'))).toBe('neu-kontakt@example.de');
    await waitFor(() => smtp.messages.filter((mail) => mail.to === 'neu-kontakt@example.de').length >= 2, 15_000, 'contact mails');

    // After the change, B still answers from the copies it cached before: they hold no user data and
    // nothing the change made outdated, i.e. they equal what A (which never rendered them) renders now.
    for (const [i, pathname] of SHARED_PAGES.entries()) {
      const cached = await cachedOnB(pathname);
      expect(withoutNonces(cached)).toBe(withoutNonces(warm[i]));
      const fresh = await call(A, pathname);
      expect(fresh.headers.get('x-cache')).toBeNull();
      expect(withoutNonces(cached)).toBe(withoutNonces(await fresh.text()));
      for (const secret of ['Zacharias', email, 'kontakt-env@example.de', 'neu-kontakt@example.de']) expect(cached).not.toContain(secret);
    }
  });

  it('a mail whose sender is killed (SIGKILL) in the middle of sending is still sent exactly once, by the other', async () => {
    const { email } = await createAccount('halt');
    const held = smtp.holdNext(email);
    expect((await call(A, '/api/auth/forgot-password', { method: 'POST', body: { email }, ip: freshIp() })).status).toBe(200);
    const { sender } = await held;
    expect(sender).not.toBe('?');
    const victim = instances.find((instance) => instance.name === sender)!;
    const survivor = other(victim);
    // The whole instance (primary and workers) dies between RCPT TO and the end of DATA.
    victim.killed = true;
    process.kill(-victim.child.pid!, 'SIGKILL');
    await new Promise((resolve) => (victim.child.exitCode !== null || victim.child.signalCode !== null ? resolve(null) : victim.child.once('exit', resolve)));
    figures.killed = victim.name;

    const [row] = await orm.em.fork().find(MailOutbox, { to: email });
    expect(row.status).toBe('sending');
    // While the dead instance's claim (60 s lease) holds, the survivor leaves the mail alone...
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(smtp.messages.filter((mail) => mail.to === email)).toHaveLength(0);
    expect((await orm.em.fork().findOneOrFail(MailOutbox, { id: row.id })).status).toBe('sending');
    // ...and once it has run out (here: moved to now instead of waiting a minute), sends it once.
    await orm.em.getConnection().execute('update mail_outbox set next_attempt_at = now() where id = ?', [row.id]);
    await waitFor(() => smtp.messages.some((mail) => mail.to === email), 15_000, 'the mail from the survivor');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const copies = smtp.messages.filter((mail) => mail.to === email);
    expect(copies).toHaveLength(1);
    expect(copies[0].sender).toBe(survivor.name);
    expect(copies[0].messageId).toContain(row.id);
    const done = await orm.em.fork().findOneOrFail(MailOutbox, { id: row.id });
    expect(done.status).toBe('sent');
    expect(done.attempts).toBe(2);
    // The survivor still serves.
    expect((await call(survivor, '/healthz')).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------
// Helpers

/** Writes a change, then probes (the other instance) until it shows; returns how long that took. */
async function propagation({ write, probe, timeoutMs = 60_000 }: { write: () => Promise<unknown>; probe: () => Promise<boolean>; timeoutMs?: number }) {
  await write();
  const start = Date.now();
  await waitFor(probe, timeoutMs, 'the change on the other instance');
  return { ms: Date.now() - start };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${instances.map((i) => `--- ${i.name}\n${i.output.join('')}`).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function healthy(instance: Instance): Promise<boolean> {
  try {
    return (await fetch(`${instance.url}/healthz`)).ok;
  } catch {
    return false;
  }
}

async function waitHealthy(instance: Instance) {
  await waitFor(
    () => {
      if (instance.child.exitCode !== null) throw new Error(`instance ${instance.name} exited:\n${instance.output.join('')}`);
      return healthy(instance);
    },
    90_000,
    `instance ${instance.name}`,
  );
}

async function migrationLockHeld(client: pg.Client): Promise<boolean> {
  const key = MIGRATION_LOCK_KEY;
  const { rows } = await client.query(
    `select 1 from pg_locks
     where locktype = 'advisory' and granted and classid = $1::bigint::oid and objid = $2::bigint::oid and objsubid = 1
       and database = (select oid from pg_database where datname = current_database())`,
    [String(key >> 32n), String(key & 0xffffffffn)],
  );
  return rows.length > 0;
}

/** A pass-through HTTP proxy that reports each request's method and path. */
function countingProxy(targetPort: number, onRequest: (method: string, url: string) => void): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    onRequest(req.method ?? '', decodeURIComponent((req.url ?? '').split('?')[0]));
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---------------------------------------------------------------------------
// SMTP: a real server that also knows which instance sent each mail (the
// client socket's owner, from /proc) and can hold one mail after RCPT TO.

type Received = { to: string; messageId: string; sender: 'A' | 'B' | '?' };
type Smtp = {
  port: number;
  messages: Received[];
  delayMs: number;
  /** Resolves when a mail to `address` is between RCPT TO and DATA; that connection is never answered. */
  holdNext(address: string): Promise<{ sender: 'A' | 'B' | '?' }>;
  close(): Promise<void>;
};

async function startSmtp(): Promise<Smtp> {
  const holds = new Map<string, (value: { sender: 'A' | 'B' | '?' }) => void>();
  const senders = new Map<string, 'A' | 'B' | '?'>();
  const smtpState: Smtp = {
    port: 0,
    messages: [],
    delayMs: 0,
    holdNext: (address) => new Promise((resolve) => holds.set(address, resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onConnect(session, callback) {
      senders.set(session.id, instanceOwningClientPort(session.remotePort));
      callback();
    },
    onRcptTo(address, session, callback) {
      const hold = holds.get(address.address);
      if (hold) {
        holds.delete(address.address);
        hold({ sender: senders.get(session.id) ?? '?' });
        return; // never answered: the sender is killed meanwhile
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'), { from: '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address) });
        const done = () => {
          smtpState.messages.push({ to: mail.envelope.to[0], messageId: mail.header('message-id') ?? '', sender: senders.get(session.id) ?? '?' });
          callback();
        };
        if (smtpState.delayMs) setTimeout(done, smtpState.delayMs);
        else done();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  smtpState.port = (server.server.address() as { port: number }).port;
  return smtpState;
}

/** Which instance's process holds the client end of a loopback TCP connection (Linux /proc). */
function instanceOwningClientPort(clientPort: number): 'A' | 'B' | '?' {
  const hexPort = clientPort.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = fs.existsSync(table) ? fs.readFileSync(table, 'utf8').split('\n').slice(1) : [];
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`)) inode = fields[9];
    }
  }
  if (!inode) return '?';
  for (const instance of instances) {
    if (instance.killed || !instance.child.pid) continue;
    for (const pid of [instance.child.pid, ...childPids(instance.child.pid)]) {
      try {
        for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
          if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return instance.name;
        }
      } catch {
        // the process ended meanwhile
      }
    }
  }
  return '?';
}
