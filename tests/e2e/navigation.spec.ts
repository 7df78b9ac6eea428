import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { uniqueEmail, waitForLink } from './mailbox';

/*
 * The link crawl: from every public and signed-in page, follow every internal
 * link the way a person with JavaScript does (client-side navigation, no
 * document load) and check that the target renders its own texts: no error
 * page, no raw translation key, no console error. A route whose translations
 * are not there before it renders (the old "Fehler 500" on the way to the
 * calculator) fails here, whichever route it is.
 */

const NOT_FOUND = '/diese-seite-gibt-es-nicht';
const PUBLIC_PAGES = ['/', '/calculator', '/datenschutz', '/impressum', '/kontakt', '/auth', '/forgot-password', NOT_FOUND];
const SIGNED_IN_PAGES = ['/calculator', '/profile', '/kontakt', '/printers', '/filaments', '/packaging', '/shipping', '/marketplaces', '/projects', '/premium', '/admin'];
/** Links that leave the page on purpose: downloads, resource routes, sign-out. */
const SKIPPED_LINK = /^\/(calculator\/export|api\/|logout|images\/|uploads\/|sitemap)/;

/** Every key of every namespace ("help.title", "contact.title", ...), as a page would show it untranslated. */
const TRANSLATION_KEYS = (() => {
  const keys = new Set<string>();
  const dir = path.resolve('public/locales/de');
  const walk = (node: unknown, prefix: string) => {
    if (node && typeof node === 'object' && !Array.isArray(node)) {
      for (const [name, value] of Object.entries(node)) walk(value, prefix ? `${prefix}.${name}` : name);
    } else if (prefix.includes('.')) {
      keys.add(prefix.replace(/_(one|other|zero)$/, ''));
    }
  };
  for (const file of fs.readdirSync(dir)) walk(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), '');
  return keys;
})();

/** Words that look like keys but are not: domains and addresses in the legal texts. */
const NOT_A_KEY = /(@|\.(de|com|eu|org|net|io|example|invalid)$)/;

/** Visible text tokens that are raw translation keys (`[a-z]+\.[a-zA-Z.]+`). */
async function rawKeys(page: Page) {
  const text = await page.locator('body').innerText();
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[("„]+|[)"“:,;!?]+$/g, ''))
    .filter((word) => (/^[a-z]+\.[a-zA-Z.]+$/.test(word) && !NOT_A_KEY.test(word)) || TRANSLATION_KEYS.has(word));
}

async function internalLinks(page: Page) {
  const hrefs = await page.locator('a[href^="/"]:not([download]):not([target])').evaluateAll((links) =>
    links.map((link) => link.getAttribute('href')!),
  );
  return [...new Set(hrefs)].filter((href) => !SKIPPED_LINK.test(href));
}

type Router = { state: { navigation: { state: string } } };

/** Resolves once Remix is idle and no page data or translations are still loading. */
async function settled(page: Page, pending: () => number) {
  await page.waitForFunction(() => {
    const router = (window as unknown as { __remixRouter?: Router }).__remixRouter;
    return router !== undefined && router.state.navigation.state === 'idle';
  });
  await expect.poll(pending, { timeout: 10_000 }).toBe(0);
  // One frame for React to commit what arrived last.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** Loads `start`, then follows each of its links by client-side navigation, coming back with the browser's Back. */
async function crawlFrom(page: Page, start: string, expectedStatus = 200) {
  const problems: string[] = [];
  const startUrl = new URL(start, 'http://x').pathname;
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // A 404 or 403 page's own document load is reported by Chromium as a failed resource.
    const ownStatus = `status of ${expectedStatus}`;
    if (expectedStatus !== 200 && message.text().includes(ownStatus) && new URL(page.url()).pathname === startUrl) return;
    problems.push(`${page.url()}: console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  let inFlight = 0;
  const tracked = (url: string) => url.includes('/locales/') || url.includes('.data');
  page.on('request', (request) => tracked(request.url()) && inFlight++);
  page.on('requestfinished', (request) => tracked(request.url()) && inFlight--);
  page.on('requestfailed', (request) => tracked(request.url()) && inFlight--);

  const response = await page.goto(start);
  expect(response?.status()).toBe(expectedStatus);
  await settled(page, () => inFlight);
  const links = await internalLinks(page);
  expect(links.length, `${start} has internal links`).toBeGreaterThan(0);
  let clientSide = 0;

  for (const href of links) {
    // A marker on window survives a client-side navigation and is gone after a document load.
    await page.evaluate(() => ((window as unknown as { __crawl?: boolean }).__crawl = true));
    const before = page.url();
    const historyLength = await page.evaluate(() => history.length);
    // Links inside closed menus are not clickable by pointer; a DOM click runs the same handler.
    await page.locator(`a[href="${href}"]`).first().evaluate((link: HTMLElement) => link.click());
    await settled(page, () => inFlight);

    const label = `${start} → ${href} (${new URL(page.url()).pathname})`;
    if (await page.getByRole('heading', { name: /ein fehler ist aufgetreten/i }).count()) problems.push(`${label}: error page`);
    for (const key of await rawKeys(page)) problems.push(`${label}: raw key "${key}"`);
    if (await page.evaluate(() => (window as unknown as { __crawl?: boolean }).__crawl === true)) clientSide++;

    if (page.url() !== before) {
      if ((await page.evaluate(() => history.length)) > historyLength) {
        await page.goBack();
        // Back is a client-side navigation too: no load event to wait for.
        await page.waitForFunction((url) => window.location.href === url, before);
      } else {
        // A <Link replace> (the sign-in tabs) left nothing to go back to.
        await page.goto(before);
      }
      await settled(page, () => inFlight);
    }
  }
  expect(problems).toEqual([]);
  // The crawl must really exercise client-side navigation (app links are Remix <Link>s).
  expect(clientSide, `client-side navigations from ${start}`).toBeGreaterThan(0);
}

test.describe('Link crawl', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'client-side navigation needs JavaScript');

  for (const start of PUBLIC_PAGES) {
    test(`visitor: every link from ${start}`, async ({ page }) => {
      test.setTimeout(90_000);
      await crawlFrom(page, start, start === NOT_FOUND ? 404 : 200);
    });
  }

  test.describe('signed in', () => {
    test.describe.configure({ mode: 'serial' });
    const password = 'Kalkulation-2025!';
    const email = uniqueEmail('crawl');
    let registered = false;

    test.beforeEach(async ({ page }) => {
      if (!registered) {
        const response = await page.request.post('/api/auth/register', {
          data: { email, password, confirmPassword: password, firstName: 'Crawl', lastName: 'Test' },
        });
        expect(response.status()).toBe(200);
        expect((await page.request.get(await waitForLink(email, '/verify-email?token='))).status()).toBe(200);
        registered = true;
      }
      expect((await page.request.post('/api/auth/login', { data: { email, password } })).status()).toBe(200);
    });

    for (const start of SIGNED_IN_PAGES) {
      test(`user: every link from ${start}`, async ({ page }) => {
        test.setTimeout(90_000);
        // A user who is not an admin gets the 403 card at /admin.
        await crawlFrom(page, start, start === '/admin' ? 403 : 200);
      });
    }
  });
});

test('after signing in with the form, the calculator renders (redirect by client-side navigation)', async ({ page, javaScriptEnabled }) => {
  const password = 'Kalkulation-2025!';
  const email = uniqueEmail('crawl-login');
  const response = await page.request.post('/api/auth/register', {
    data: { email, password, confirmPassword: password, firstName: 'Erika', lastName: 'Muster' },
  });
  expect(response.status()).toBe(200);
  expect((await page.request.get(await waitForLink(email, '/verify-email?token='))).status()).toBe(200);

  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: 'Anmelden' }).first().click();
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/calculator/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /ein fehler ist aufgetreten/i })).toHaveCount(0);
  expect(await rawKeys(page)).toEqual([]);
  if (javaScriptEnabled) expect(errors).toEqual([]);
});

test('after a client-side navigation to sign-in, the form\'s own messages are German, not keys', async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'client-side navigation needs JavaScript');
  await page.goto('/calculator');
  await page.getByRole('banner').getByRole('link', { name: 'Anmelden' }).first().click();
  await expect(page).toHaveURL(/\/auth/);
  await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')).toBeVisible();
  expect(await rawKeys(page)).toEqual([]);
  await page.getByRole('main').getByRole('link', { name: 'Registrieren' }).first().click();
  await page.getByRole('main').getByRole('button', { name: /registrieren|konto erstellen/i }).last().click();
  await expect(page.getByText('Vorname ist erforderlich')).toBeVisible();
  expect(await rawKeys(page)).toEqual([]);
});
