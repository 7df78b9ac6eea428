import path from 'node:path';

/**
 * Where tests/e2e/global-setup.ts writes the bundled seed module
 * (tests/e2e/seed/sign-in-seed.ts) that the sign-in fixture imports.
 */
export const SEED_BUNDLE = path.resolve('tests/.tmp/e2e-seed/sign-in-seed.mjs');
