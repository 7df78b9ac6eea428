/**
 * What the Playwright web server is started with that the tests must know too
 * (playwright.config.ts and the sign-in fixture in fixtures.ts read it from here).
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_PG_PORT = Number(process.env.E2E_PG_PORT ?? 5460);
/** Fixed for the test server only, so the fixture can sign session cookies the server accepts. */
export const E2E_SESSION_SECRET = 'e2e-only-session-secret-0123456789abcdef';
/** The embedded PostgreSQL's database as scripts/lib/database.ts creates it (loopback only, fixed local password). */
export const E2E_DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${E2E_PG_PORT}/druckpreis`;

/** The fake Stripe API the e2e server talks to (tests/e2e/fake-stripe-server.ts), with keys fixed for the run. */
export const E2E_STRIPE_PORT = Number(process.env.E2E_STRIPE_PORT ?? E2E_PORT + 5);
export const E2E_STRIPE = {
  url: `http://127.0.0.1:${E2E_STRIPE_PORT}`,
  secretKey: 'sk_test_e2e_fake_0123456789',
  publishableKey: 'pk_test_e2e_fake_0123456789',
  webhookSecret: 'whsec_e2e_fake_0123456789abcdef',
};
