/**
 * `npm start`: validate env, build if needed, start the embedded PostgreSQL
 * unless DATABASE_URL is set, apply migrations, then serve the production
 * build from one worker process per CPU core (Node's cluster shares the port).
 */
process.env.NODE_ENV ??= 'production';

import cluster from 'node:cluster';
import os from 'node:os';
import { parseEnv } from '../app/lib/env.server';
import { buildIfNeeded } from './lib/build-if-needed';
import { prepareDatabase } from './lib/database';
import { sharedStateWarnings } from './lib/shared-state-warnings';
import { startHttpServer } from './lib/server';
import { onShutdown } from './lib/shutdown';

// The young generation's semi-space, per worker.
// A worker's scavenges copy what the requests in flight still hold; with 64 MB they came every
// ~300 ms and paused a worker for ~20 ms each, which set the signed-in pages' p99. Now that a
// request allocates little (docs/performance.md), 16 MB keeps each pause short: measured with
// `npm run bench`, signed-in p99 46–53 ms instead of 54–60 ms at the same CPU per request.
const WORKER_SEMI_SPACE_MB = 16;

// A worker whose event loop has not answered for this long is replaced (issue 18 §1): a safety net
// for any future bug that holds a worker (a pattern that backtracks, a loop over a stranger's
// input), so that its siblings and its replacement serve on. Each worker beats once a second from
// the moment it listens (loading the build may hold a starting worker for seconds on a busy
// machine; that is not a hang); a busy but healthy worker still beats between requests. 10 s is
// far above any pause a healthy worker shows, even with two CPU-bound neighbours on two cores.
const HEARTBEAT_MS = 1_000;
const WATCHDOG_MS = Number(process.env.WORKER_WATCHDOG_MS ?? 10_000);

async function startPrimary() {
  const env = parseEnv();
  for (const warning of sharedStateWarnings(env)) console.warn(`[start] ${warning}`);
  buildIfNeeded();
  const db = await prepareDatabase(env, { supervise: true });
  const workers = env.WEB_CONCURRENCY ?? Math.max(1, os.availableParallelism());
  let stopping = false;
  cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`] });
  const fork = () => cluster.fork({ DATABASE_URL: process.env.DATABASE_URL });
  for (let i = 0; i < workers; i++) fork();
  const lastBeat = new Map<number, number>();
  cluster.on('message', (worker, message: { heartbeat?: boolean }) => {
    if (message?.heartbeat) lastBeat.set(worker.id, Date.now());
  });
  // Watched from its first beat on: a worker still loading the build is not blocked.
  setInterval(() => {
    if (stopping) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      const beat = worker && lastBeat.get(worker.id);
      if (!worker || !beat || Date.now() - beat <= WATCHDOG_MS) continue;
      console.error(`[start] worker ${worker.process.pid} has not answered for ${Math.round((Date.now() - beat) / 1000)} s; replacing it`);
      lastBeat.delete(worker.id);
      worker.process.kill('SIGKILL');
    }
  }, HEARTBEAT_MS).unref();
  cluster.on('exit', (worker, code) => {
    lastBeat.delete(worker.id);
    if (stopping) return;
    console.error(`[start] worker ${worker.process.pid} exited (${code}); starting a new one`);
    fork();
  });
  let announced = false;
  cluster.on('listening', () => {
    if (announced) return;
    announced = true;
    console.log(`[start] Druckpreis läuft auf http://${env.HOST}:${env.PORT} (${workers} Worker)`);
  });
  onShutdown(async () => {
    stopping = true;
    await Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (worker) => new Promise((resolve) => (worker!.once('exit', resolve), worker!.kill('SIGTERM'))),
      ),
    );
    await db.stop();
  });
}

async function startWorker() {
  const env = parseEnv();
  const server = await startHttpServer({
    port: env.PORT,
    host: env.HOST,
    mode: 'production',
    logRequests: env.LOG_REQUESTS === 'true',
  });
  const beat = () => process.send?.({ heartbeat: true });
  beat();
  setInterval(beat, HEARTBEAT_MS).unref();
  onShutdown(async () => {
    await new Promise((resolve) => server.close(resolve));
    const { closeOrm } = await import('../app/services/db.server');
    await closeOrm();
  });
}

(cluster.isPrimary ? startPrimary() : startWorker()).catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
