import { startFakeStripe } from '../setup/fake-stripe';
import { E2E_PORT, E2E_STRIPE, E2E_STRIPE_PORT } from './server-env';

/**
 * The fake Stripe API as its own process for Playwright (a second web server
 * in playwright.config.ts): the app's SDK calls it, its Checkout page sends
 * the signed webhooks to the e2e server, and it serves the stub Stripe.js.
 */
const fake = await startFakeStripe({
  port: E2E_STRIPE_PORT,
  secretKey: E2E_STRIPE.secretKey,
  publishableKey: E2E_STRIPE.publishableKey,
  webhookSecret: E2E_STRIPE.webhookSecret,
  webhookUrl: `http://127.0.0.1:${E2E_PORT}/api/stripe/webhook`,
});
fake.holdWebhooks = false;
console.log(`fake Stripe on ${fake.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void fake.close().then(() => process.exit(0)));
