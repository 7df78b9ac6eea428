import { build } from 'esbuild';
import { SEED_BUNDLE } from './seed-bundle';

/**
 * Compiles the sign-in fixture's seed module (MikroORM entities with legacy
 * decorators, which Playwright's own TypeScript transform cannot compile) with
 * esbuild (a devDependency of its own, pinned to the 0.17.6 @remix-run/dev brings,
 * so it is the one hoisted to node_modules/esbuild), into one .mjs the fixture
 * imports. Packages stay external: they are loaded from node_modules as the
 * server loads them.
 */
export default async function globalSetup() {
  await build({
    entryPoints: ['tests/e2e/seed/sign-in-seed.ts'],
    outfile: SEED_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    tsconfig: 'tsconfig.json',
    logLevel: 'warning',
  });
}
