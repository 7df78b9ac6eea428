import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { browserProjects } from './tests/e2e/projects';
import { E2E_PG_PORT, E2E_PORT, E2E_SESSION_SECRET, E2E_STRIPE } from './tests/e2e/server-env';

const PORT = E2E_PORT;
const baseURL = `http://localhost:${PORT}`;

/**
 * Debian's headless shell (package chromium-headless-shell, the same Chromium
 * release) is what Playwright itself runs headless tests in; it needs about a
 * third less CPU than the full browser in headless mode. The full browser when
 * the shell is missing, or for a visible window (--headed, --debug, --ui).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const visible = process.argv.some((arg) => ['--headed', '--debug', '--ui'].includes(arg)) || Boolean(process.env.PWDEBUG);
const chromium = process.env.CHROMIUM_PATH ?? (!visible && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/**
 * End-to-end tests against the production build served by `scripts/start.ts`
 * on a fresh embedded PostgreSQL, driving Debian's Chromium (no browser
 * download). Every core flow runs twice: with JavaScript and without.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  // Bundles the sign-in fixture's seed module (MikroORM entities) with esbuild.
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  // No retries, in CI either: a flaky test shows as a failure instead of passing on its second run.
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and a screenshot;
    // the trace's screencast is left out: it cost a quarter of the run's CPU.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: browserProjects,
  webServer: [
  {
    // A fake Stripe API (customers, prices, subscriptions, Checkout, portal) and a stub Stripe.js (issue 21).
    command: 'npx tsx tests/e2e/fake-stripe-server.ts',
    url: `${E2E_STRIPE.url}/stripe.js`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
  {
    command: 'rm -rf tests/.tmp/e2e && npx tsx scripts/start.ts',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      EMBEDDED_POSTGRES_PORT: String(E2E_PG_PORT),
      // Known to the sign-in fixture (tests/e2e/fixtures.ts), which writes sessions straight into the database.
      SESSION_SECRET: E2E_SESSION_SECRET,
      DATA_DIR: 'tests/.tmp/e2e',
      APP_URL: baseURL,
      LOG_REQUESTS: 'false',
      // Many sign-ins and registrations from one IP in one run: raise the limits (configuration only).
      RATE_LIMIT_FACTOR: '1000',
      // The production floor (the server runs as in production); the default 12 costs 4x the time per sign-in.
      BCRYPT_COST: '10',
      // Payments against the fake Stripe API (STRIPE_API_BASE and STRIPE_JS_URL are for tests and local fakes only).
      STRIPE_SECRET_KEY: E2E_STRIPE.secretKey,
      STRIPE_PUBLISHABLE_KEY: E2E_STRIPE.publishableKey,
      STRIPE_WEBHOOK_SECRET: E2E_STRIPE.webhookSecret,
      STRIPE_API_BASE: E2E_STRIPE.url,
      STRIPE_JS_URL: `${E2E_STRIPE.url}/stripe.js`,
      // Ads as placeholder cards (test mode): no ad network in tests.
      GOOGLE_ADS_TEST_MODE: 'true',
    },
  },
  ],
});
