/**
 * `npm start`: validate env, build if needed, start the embedded PostgreSQL
 * unless DATABASE_URL is set, apply migrations, serve the production build.
 */
process.env.NODE_ENV ??= 'production';

import { parseEnv } from '../app/utils/env.server';
import { buildIfNeeded } from './lib/build-if-needed';
import { prepareDatabase } from './lib/database';
import { startHttpServer } from './lib/server';
import { onShutdown } from './lib/shutdown';

async function main() {
  const env = parseEnv();
  buildIfNeeded();
  const db = await prepareDatabase(env);
  const server = await startHttpServer({
    port: env.PORT,
    host: env.HOST,
    mode: 'production',
    logRequests: env.LOG_REQUESTS === 'true',
  });
  console.log(`[start] Druckpreis läuft auf http://${env.HOST}:${env.PORT}`);
  onShutdown(async () => {
    await new Promise((resolve) => server.close(resolve));
    const { closeOrm } = await import('../app/services/db.server');
    await closeOrm();
    await db.stop();
  });
}

main().catch((error) => {
  console.error(`[start] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
