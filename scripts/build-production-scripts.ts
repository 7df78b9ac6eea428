/**
 * `npm run build:scripts`: compiles what a production server runs besides the
 * Remix build to plain JavaScript, so the image (Dockerfile) starts with
 * `node` and ships no TypeScript runner:
 * - build/scripts/start.js, migrate.js, user-admin.js and the slicer summary's
 *   worker thread slicer-summary-worker.js (dependencies stay imports of node_modules);
 * - build/migrations/*.js, one file per migration in prisma-free-migrations/
 *   (the Dockerfile puts them where the migrator looks, instead of the .ts files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, transformWithEsbuild } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';

await build({
  configFile: false,
  logLevel: 'warn',
  plugins: [tsconfigPaths()],
  publicDir: false,
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'build/scripts',
    emptyOutDir: true,
    minify: false,
    rollupOptions: {
      input: {
        start: 'scripts/start.ts',
        migrate: 'scripts/migrate.ts',
        'user-admin': 'scripts/user-admin.ts',
        // The slicer summary's worker thread (app/services/slicer-summary.server.ts finds it here).
        'slicer-summary-worker': 'app/services/slicer-summary.worker.ts',
      },
      output: { format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'lib/[name]-[hash].js' },
    },
  },
});

const source = 'prisma-free-migrations';
const target = 'build/migrations';
fs.rmSync(target, { recursive: true, force: true });
fs.mkdirSync(target, { recursive: true });
for (const name of fs.readdirSync(source).filter((file) => /^Migration\d{14}_\w+\.ts$/.test(file))) {
  const file = path.join(source, name);
  const { code } = await transformWithEsbuild(fs.readFileSync(file, 'utf8'), file, { loader: 'ts', format: 'esm', target: 'node20' });
  fs.writeFileSync(path.join(target, name.replace(/\.ts$/, '.js')), code);
}
fs.copyFileSync(path.join(source, '.snapshot-druckpreis.json'), path.join(target, '.snapshot-druckpreis.json'));
console.log(`[build:scripts] build/scripts/{start,migrate,user-admin,slicer-summary-worker}.js and ${fs.readdirSync(target).length - 1} migrations in ${target}/`);
