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
import { startHttpServer } from './lib/server';
import { onShutdown } from './lib/shutdown';

// The young generation's semi-space, per worker.
// A worker's scavenges copy what the requests in flight still hold; with 64 MB they came every
// ~300 ms and paused a worker for ~20 ms each, which set the signed-in pages' p99. Now that a
// request allocates little (docs/performance.md), 16 MB keeps each pause short: measured with
// `npm run bench`, signed-in p99 46–53 ms instead of 54–60 ms at the same CPU per request.
const WORKER_SEMI_SPACE_MB = 16;

async function startPrimary() {
  const env = parseEnv();
  buildIfNeeded();
  const db = await prepareDatabase(env);
  const workers = env.WEB_CONCURRENCY ?? Math.max(1, os.availableParallelism());
  let stopping = false;
  cluster.setupPrimary({ execArgv: [...process.execArgv, `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`] });
  const fork = () => cluster.fork({ DATABASE_URL: process.env.DATABASE_URL });
  for (let i = 0; i < workers; i++) fork();
  cluster.on('exit', (worker, code) => {
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
