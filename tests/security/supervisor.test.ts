import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { startEmbeddedPostgres, type RunningDatabase } from '../../scripts/lib/embedded-postgres';
import { runMigrations } from '../../scripts/lib/migrate';
import { buildOnce, childPids, form, freePort, sessionCookieOf, stopProcess, waitForServer } from './server';

/**
 * Issue 18 part 3: the database dies under a running server (SIGKILL of its
 * postmaster). Without DATABASE_URL the app supervises its embedded
 * PostgreSQL and starts it again; with DATABASE_URL someone else does. Either
 * way the app recovers by itself — /healthz goes 503 and back to 200 with the
 * same processes — and a visitor's calculator keeps answering meanwhile.
 * Issue 18 part 4: requests in flight when it dies get the German 503, never a 500.
 */

const UNAVAILABLE = 'Der Dienst ist vorübergehend nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.';

type App = { url: string; child: ChildProcess; output: string[]; dataDir: string; databaseUrl: string };

async function startApp(env: Record<string, string>, dataDir: string): Promise<App> {
  await buildOnce();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '1',
      LOG_REQUESTS: 'false',
      MAIL_WORKER: 'off',
      TRUST_PROXY: 'false',
      BCRYPT_COST: '10',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const echo = process.env.SECURITY_SERVER_LOG ? (chunk: Buffer) => process.stderr.write(chunk) : () => {};
  child.stdout!.on('data', (chunk) => (output.push(String(chunk)), echo(chunk)));
  child.stderr!.on('data', (chunk) => (output.push(String(chunk)), echo(chunk)));
  // The first start initialises the embedded cluster (initdb): give it time.
  await waitForServer(url, child, output);
  return { url, child, output, dataDir, databaseUrl: env.DATABASE_URL ?? '' };
}

function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `druckpreis-${name}-`));
  // As root, the embedded cluster runs as the 'postgres' user, which must be able to enter the folder.
  fs.chmodSync(dir, 0o755);
  return dir;
}

function postmasterPid(pgDir: string): number {
  return Number(fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
}

async function signIn(app: App, databaseUrl: string): Promise<string> {
  const orm = await MikroORM.init(createOrmConfig(databaseUrl));
  const email = `neustart.${crypto.randomBytes(4).toString('hex')}@example.de`;
  try {
    const em = orm.em.fork();
    em.create(User, { email, password: await hashPassword('Neustart-Pw-99'), emailVerified: true, firstName: 'Nora', lastName: 'Neustart' });
    await em.flush();
  } finally {
    await orm.close(true);
  }
  const login = await fetch(`${app.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Neustart-Pw-99' }) });
  expect(login.status).toBe(200);
  return sessionCookieOf(login);
}

const status = async (url: string, init: RequestInit = {}) => {
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
};

/**
 * Kills the postmaster with SIGKILL, then polls until /healthz is 200 again.
 * Returns what /healthz and a visitor's /calculator answered meanwhile.
 */
/** The app's worker processes (in embedded mode the postmaster is a child of the primary too). */
function workerPids(app: App): string {
  return childPids(app.child.pid!)
    .filter((pid) => !/postgres/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8')))
    .sort()
    .join();
}

async function killAndWatch(app: App, pgDir: string, cookie: string, timeoutMs = 90_000) {
  const workers = workerPids(app);
  process.kill(postmasterPid(pgDir), 'SIGKILL');
  const killedAt = Date.now();
  const health: number[] = [];
  const calculator: number[] = [];
  const signedIn: number[] = [];
  let recoveredAfterMs = -1;
  while (Date.now() - killedAt < timeoutMs) {
    // A signed-in page needs the database: its failure puts the app into its outage mode, which
    // used to refuse the visitor's calculator too.
    signedIn.push(await status(`${app.url}/projects`, { headers: { Cookie: cookie } }));
    const [h, c] = await Promise.all([status(`${app.url}/healthz`), status(`${app.url}/calculator?filamentWeight=25`)]);
    health.push(h);
    calculator.push(c);
    if (h === 200 && health.includes(503)) {
      recoveredAfterMs = Date.now() - killedAt;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { health, calculator, signedIn, recoveredAfterMs, sameProcesses: app.child.exitCode === null && workers !== '' && workerPids(app) === workers };
}

describe('part 3: the embedded database is supervised (DATABASE_URL unset)', () => {
  let app: App;
  let pgPort: number;
  beforeAll(async () => {
    pgPort = await freePort();
    app = await startApp({ DATABASE_URL: '', EMBEDDED_POSTGRES_PORT: String(pgPort) }, tempDir('supervised'));
  }, 180_000);
  afterAll(async () => {
    if (app) {
      await stopProcess(app.child);
      fs.rmSync(app.dataDir, { recursive: true, force: true });
    }
  });

  it('restarts a killed postmaster with a logged back-off; /healthz goes 503 then 200 without an app restart, the visitor calculator answers throughout', async () => {
    const databaseUrl = `postgresql://postgres:postgres@127.0.0.1:${pgPort}/druckpreis`;
    const cookie = await signIn(app, databaseUrl);
    const pgDir = path.join(app.dataDir, 'postgres');
    const before = postmasterPid(pgDir);

    const watched = await killAndWatch(app, pgDir, cookie);
    console.log(`[supervisor] embedded: recovered after ${watched.recoveredAfterMs} ms; /healthz ${watched.health.join(',')}; /calculator ${watched.calculator.join(',')}`);
    expect(watched.health).toContain(503);
    expect(watched.signedIn).toContain(503);
    expect(watched.recoveredAfterMs).toBeGreaterThan(0);
    expect(watched.calculator.every((code) => code === 200), watched.calculator.join(',')).toBe(true);
    expect(watched.sameProcesses).toBe(true);
    expect(postmasterPid(pgDir)).not.toBe(before);
    const log = app.output.join('');
    expect(log).toMatch(/\[postgres\] exited unexpectedly \(SIGKILL\); restarting in 0\.5 s/);
    expect(log).toMatch(/\[postgres\] restarted on 127\.0\.0\.1:/);

    // The signed-in side is back too: the session (stored in the database) still counts.
    expect(await status(`${app.url}/projects`, { headers: { Cookie: cookie } })).toBe(200);
    expect(await status(`${app.url}/api/auth/user`, { headers: { Cookie: cookie } })).toBe(200);
  }, 150_000);

  it('keeps trying with a growing back-off while the database cannot start, and recovers once it can', async () => {
    const pgDir = path.join(app.dataDir, 'postgres');
    // Something else holds the port: every restart attempt fails until it is gone.
    const net = await import('node:net');
    // It hangs up on whoever connects (the app's pool tries to), so nobody waits on it.
    const squatter = net.createServer((socket) => socket.destroy());
    process.kill(postmasterPid(pgDir), 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await new Promise<void>((resolve, reject) => squatter.once('error', reject).listen(pgPort, '127.0.0.1', () => resolve()));
    const logged = app.output.length;
    const waits = () => [...app.output.slice(logged).join('').matchAll(/\[postgres\] restart failed; next attempt in ([\d.]+) s/g)].map((match) => Number(match[1]));
    const deadline = Date.now() + 40_000;
    while (waits().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    // Each failed attempt waits twice as long as the one before.
    const [first, second] = waits();
    expect(second).toBe(first * 2);
    expect(await status(`${app.url}/healthz`)).toBe(503);
    expect(await status(`${app.url}/calculator`)).toBe(200);
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
    const recoverBy = Date.now() + 60_000;
    let health = 0;
    while (health !== 200 && Date.now() < recoverBy) {
      health = await status(`${app.url}/healthz`);
      if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(health).toBe(200);
  }, 120_000);
});

describe('part 3: with DATABASE_URL the app reconnects by itself once the database is back', () => {
  let app: App;
  let database: RunningDatabase;
  let pgDir: string;
  let root: string;
  beforeAll(async () => {
    root = tempDir('external');
    pgDir = path.join(root, 'pg');
    const port = await freePort();
    // The database's own supervisor (systemd, a container runtime) is played by the same helper.
    database = await startEmbeddedPostgres({ dataDir: pgDir, port, database: 'extern', persistent: false, supervise: true });
    await runMigrations(database.url);
    app = await startApp({ DATABASE_URL: database.url }, path.join(root, 'data'));
  }, 180_000);
  afterAll(async () => {
    if (app) await stopProcess(app.child);
    await database?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers 503 while the database is gone and 200 after, with the same processes; a visitor calculator keeps answering', async () => {
    const cookie = await signIn(app, database.url);
    const watched = await killAndWatch(app, pgDir, cookie);
    console.log(`[supervisor] DATABASE_URL: recovered after ${watched.recoveredAfterMs} ms; /healthz ${watched.health.join(',')}; /calculator ${watched.calculator.join(',')}`);
    expect(watched.health).toContain(503);
    expect(watched.signedIn).toContain(503);
    expect(watched.recoveredAfterMs).toBeGreaterThan(0);
    expect(watched.calculator.every((code) => code === 200), watched.calculator.join(',')).toBe(true);
    expect(watched.sameProcesses).toBe(true);
    expect(await status(`${app.url}/projects`, { headers: { Cookie: cookie } })).toBe(200);
  }, 150_000);

  it('part 4: requests in flight when the database dies get the German 503 (pages and API), never a 500', async () => {
    const cookie = await signIn(app, database.url);
    const pageHeaders = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: app.url };
    const jsonHeaders = { 'Content-Type': 'application/json', Cookie: cookie };
    const created = await fetch(`${app.url}/api/projects`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ name: 'Vase', quantity: 1, filamentWeight: 25, printTime: 2 }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const kinds: [string, () => Promise<Response>][] = [
      ['POST /kontakt', () => fetch(`${app.url}/kontakt`, { method: 'POST', headers: pageHeaders, body: form({ name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: 'Hallo' }) })],
      ['POST /api/contact', () => fetch(`${app.url}/api/contact`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Anna', email: 'anna@example.de', subject: 'Frage', message: 'Hallo' }) })],
      ['POST /auth', () => fetch(`${app.url}/auth`, { method: 'POST', headers: pageHeaders, body: form({ intent: 'login', email: 'niemand@example.de', password: 'Falsch-Pw-1' }), redirect: 'manual' })],
      ['POST /api/projects', () => fetch(`${app.url}/api/projects`, { method: 'POST', headers: jsonHeaders, body: JSON.stringify({ name: 'Vase', quantity: 1, filamentWeight: 25, printTime: 2 }) })],
      ['PUT /api/projects/:id', () => fetch(`${app.url}/api/projects/${id}`, { method: 'PUT', headers: jsonHeaders, body: JSON.stringify({ name: 'Vase 2', quantity: 2 }) })],
      ['POST /calculator', () => fetch(`${app.url}/calculator`, { method: 'POST', headers: { ...pageHeaders, Cookie: cookie }, body: form({ intent: 'save', projectName: 'Becher', filamentWeight: '25' }), redirect: 'manual' })],
    ];
    // Waves of requests, the database killed while they run.
    const inFlight: Promise<[string, Response | Error]>[] = [];
    for (let wave = 0; wave < 6; wave++) for (const [label, send] of kinds) inFlight.push(send().then((response) => [label, response] as [string, Response], (error: Error) => [label, error]));
    await new Promise((resolve) => setTimeout(resolve, 60));
    process.kill(postmasterPid(pgDir), 'SIGKILL');
    const answers = await Promise.all(inFlight);
    const failures: string[] = [];
    let unavailable = 0;
    for (const [label, answer] of answers) {
      if (answer instanceof Error) {
        failures.push(`${label}: ${answer.message}`);
        continue;
      }
      const body = await answer.text();
      if (answer.status >= 500 && answer.status !== 503) failures.push(`${label}: ${answer.status} ${body.slice(0, 200)}`);
      if (answer.status === 503) {
        unavailable++;
        if (label.includes('/api/')) expect(JSON.parse(body), label).toEqual({ message: UNAVAILABLE });
        else if (label === 'POST /kontakt') expect(body, label).toContain('Die Nachricht konnte nicht gesendet werden');
        else expect(body, label).toContain('Vorübergehend nicht erreichbar');
      }
    }
    console.log(`[supervisor] in flight: ${answers.length} requests, ${unavailable} answered 503, ${failures.length} failures`);
    expect(failures).toEqual([]);
    expect(unavailable).toBeGreaterThan(0);
    // And it comes back.
    const recoverBy = Date.now() + 60_000;
    while ((await status(`${app.url}/healthz`)) !== 200 && Date.now() < recoverBy) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await status(`${app.url}/healthz`)).toBe(200);
  }, 150_000);
});
