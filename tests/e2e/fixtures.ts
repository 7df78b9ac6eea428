import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { test as base, expect, type BrowserContext, type Page, type Response } from '@playwright/test';
import { createCookie } from '@remix-run/node';
import bcrypt from 'bcrypt';
import { SEED_BUNDLE } from './seed-bundle';
import { E2E_DATABASE_URL, E2E_SESSION_SECRET } from './server-env';

type SeedModule = typeof import('./seed/sign-in-seed');
let seedModule: Promise<SeedModule> | undefined;

/**
 * The seed module on the app's MikroORM entities, as bundled by
 * tests/e2e/global-setup.ts (Playwright cannot compile the entities' decorators itself).
 */
function seed(): Promise<SeedModule> {
  seedModule ??= import(pathToFileURL(SEED_BUNDLE).href) as Promise<SeedModule>;
  return seedModule;
}

type Options = {
  /** Start with a stored cookie choice so the consent dialog stays out of the way (default true). */
  withConsent: boolean;
};

export type SignedInUser = { id: string; email: string; password: string; firstName: string };
type Fixtures = {
  /**
   * Signs the page's browser context in as a new confirmed user, created with
   * its session directly in the database: no registration, no mail, no bcrypt
   * at the server's cost. The registration and sign-in flows keep their own
   * tests (accounts.spec.ts).
   */
  signIn: (options?: SignInOptions) => Promise<SignedInUser>;
};
export type SignInOptions = { firstName?: string; password?: string; isAdmin?: boolean; isPremium?: boolean };

/** The password of every fixture user (a real hash is stored, so the password forms work with it). */
export const FIXTURE_PASSWORD = 'Sicher-Passwort-42';

const sessionCookie = createCookie('__session', { secrets: [E2E_SESSION_SECRET], path: '/', httpOnly: true, sameSite: 'lax' });

/** Creates a confirmed user and a session row and puts the signed session cookie into `context`. */
export async function signInDirectly(
  context: BrowserContext,
  baseURL: string,
  { firstName = 'Erika', password = FIXTURE_PASSWORD, isAdmin = false, isPremium = false }: SignInOptions = {},
): Promise<SignedInUser> {
  const email = `fixture.${crypto.randomBytes(6).toString('hex')}@example.de`;
  const sid = crypto.randomBytes(32).toString('base64url');
  const { id } = await (await seed()).seedSignedInUser(E2E_DATABASE_URL, {
    email,
    // bcrypt's lowest cost: the stored hash only has to verify, not resist guessing.
    passwordHash: await bcrypt.hash(password, 4),
    firstName,
    isAdmin,
    isPremium,
    sid,
  });
  const header = await sessionCookie.serialize(sid);
  const value = header.slice('__session='.length, header.indexOf(';'));
  await context.addCookies([{ name: '__session', value, url: baseURL, httpOnly: true, sameSite: 'Lax' }]);
  return { id, email, password, firstName };
}

/** The `cookie_consent` cookie as the server writes it (Remix cookie: base64 JSON). */
export function consentCookieValue(preferences = { essential: true, analytics: false, marketing: false, payment: false }) {
  const record = { preferences, date: new Date().toISOString() };
  return encodeURIComponent(Buffer.from(JSON.stringify(record), 'utf8').toString('base64'));
}

/**
 * With JavaScript a page's scripts arrive after its first paint (issue 25,
 * server/deferred-scripts.server.ts), and until it has hydrated a click or a
 * keystroke does what it does without scripts (entry.client.tsx). That is on
 * purpose for people; a test that loads a page and acts at once would test the
 * no-JS path in the JS project. So `goto` and `reload` (waiting for 'load', the
 * default) also wait until the page says it has hydrated (`<html
 * data-hydrated>`), as someone does who sees the page settle. A test about the
 * moment before passes another `waitUntil`. A page that never hydrates (its
 * scripts failed on purpose) costs the wait's 10 s and goes on.
 */
function waitForHydrationAfterLoads(page: Page) {
  const settle = async (response: Response | null, options?: { waitUntil?: string }) => {
    if ((options?.waitUntil ?? 'load') !== 'load' || !response?.headers()['content-type']?.startsWith('text/html')) return;
    await page
      .waitForFunction(() => document.documentElement.hasAttribute('data-hydrated') || !document.getElementById('deferred-scripts'), null, { timeout: 10_000 })
      .catch(() => {});
  };
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await settle(response, options);
    return response;
  };
  const reload = page.reload.bind(page);
  page.reload = async (options) => {
    const response = await reload(options);
    await settle(response, options);
    return response;
  };
}

export const test = base.extend<Options & Fixtures, { closeSeedOrm: void }>({
  withConsent: [true, { option: true }],
  // Closes the worker's seed connection pool once its tests are done (opened only if a test signed in).
  closeSeedOrm: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      if (seedModule) await (await seedModule).closeSeed();
    },
    { scope: 'worker', auto: true },
  ],
  signIn: async ({ context, baseURL }, use) => {
    await use((options) => signInDirectly(context, baseURL!, options));
  },
  context: async ({ context, withConsent, baseURL, javaScriptEnabled }, use) => {
    if (withConsent) {
      await context.addCookies([{ name: 'cookie_consent', value: consentCookieValue(), url: baseURL! }]);
    }
    if (javaScriptEnabled) context.on('page', waitForHydrationAfterLoads);
    await use(context);
  },
});

export { expect };
