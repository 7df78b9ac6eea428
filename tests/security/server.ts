import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from '../../mikro-orm.config';
import { buildIfNeeded } from '../../scripts/lib/build-if-needed';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';

/**
 * The real server for the security suite: `scripts/start.ts` (Express with
 * the request guard, one worker, production build) against a database of its
 * own. Tests talk to it over HTTP, as an attacker would.
 */
export type TestServer = {
  url: string;
  port: number;
  orm: MikroORM;
  dataDir: string;
  /** Worker process ids (for memory measurements). */
  workerPids: () => number[];
  /** What the server wrote to stdout and stderr so far. */
  log: () => string;
  /** Drops the database under the running server (outage tests). */
  dropDatabase: () => Promise<void>;
  stop: () => Promise<void>;
};

/** `databaseUrl`: run on an existing (migrated) database, e.g. a second instance; the caller drops it. */
export async function startTestServer(prefix: string, env: Record<string, string> = {}, { databaseUrl }: { databaseUrl?: string } = {}): Promise<TestServer> {
  await buildOnce();
  const database = databaseUrl ? { url: databaseUrl, drop: async () => {} } : await createTestDatabase(prefix);
  if (!databaseUrl) await runMigrations(database.url);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `druckpreis-sec-${prefix}-`));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: url,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      WEB_CONCURRENCY: '1',
      LOG_REQUESTS: 'false',
      MAIL_WORKER: 'off',
      RATE_LIMIT_FACTOR: '1',
      TRUST_PROXY: 'false',
      // Production requires at least 10 (Vitest hashes at 4 in-process).
      BCRYPT_COST: '10',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  // SECURITY_SERVER_LOG=1 shows the server's log while debugging a test.
  const echo = process.env.SECURITY_SERVER_LOG ? (chunk: Buffer) => process.stderr.write(chunk) : () => {};
  child.stdout!.on('data', (chunk) => (output.push(String(chunk)), echo(chunk)));
  child.stderr!.on('data', (chunk) => (output.push(String(chunk)), echo(chunk)));
  await waitForServer(url, child, output);
  const orm = await MikroORM.init(createOrmConfig(database.url));
  let dropped = false;
  return {
    url,
    port,
    orm,
    dataDir,
    workerPids: () => childPids(child.pid!),
    log: () => output.join(''),
    dropDatabase: async () => {
      dropped = true;
      await orm.close(true);
      await database.drop();
    },
    stop: async () => {
      await stopProcess(child);
      if (!dropped) {
        await orm.close(true);
        await database.drop();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Several test files start servers at once: one of them builds, the others wait. */
export async function buildOnce() {
  const lock = path.resolve('build/.security-build-lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock older than 5 minutes belongs to a run that died.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    buildIfNeeded();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function waitForServer(url: string, child: ChildProcess, output: string[]) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output.join('')}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server did not start:\n${output.join('')}`);
}

export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function childPids(parent: number): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) pids.push(Number(entry));
    } catch {
      // process ended meanwhile
    }
  }
  return pids;
}

/** Resident memory of a process in MB (from /proc). */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Same-origin headers a browser form post would carry. */
export function sameOrigin(server: TestServer): Record<string, string> {
  return { Origin: server.url };
}

export function form(fields: Record<string, string>): URLSearchParams {
  return new URLSearchParams(fields);
}

/** The `__session=...` pair of a response (for the next request's Cookie header). */
export function sessionCookieOf(response: Response): string {
  const match = /(?:^|,\s*)(__session=[^;]*)/.exec(response.headers.get('set-cookie') ?? '');
  if (!match) throw new Error('no session cookie');
  return match[1];
}
