/** `npm run dev`: the same server as start, with Vite's dev middleware and HMR. */
process.env.NODE_ENV ??= 'development';

import { parseEnv } from '../app/lib/env.server';
import { prepareDatabase } from './lib/database';
import { startHttpServer } from './lib/server';
import { onShutdown } from './lib/shutdown';

async function main() {
  const env = parseEnv();
  const db = await prepareDatabase(env, { supervise: true });
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true } });
  const server = await startHttpServer({ port: env.PORT, host: env.HOST, mode: 'development', logRequests: true, vite });
  console.log(`[dev] http://${env.HOST}:${env.PORT}`);
  onShutdown(async () => {
    await new Promise((resolve) => server.close(resolve));
    await vite.close();
    await db.stop();
  });
}

main().catch((error) => {
  console.error(`[dev] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
