import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

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

/** Text tokens that are raw translation keys (`[a-z]+\.[a-zA-Z.]+`). */
function rawKeysIn(text: string) {
  return text
    .split(/\s+/)
    .map((word) => word.replace(/^[("„]+|[)"“:,;!?]+$/g, ''))
    .filter((word) => (/^[a-z]+\.[a-zA-Z.]+$/.test(word) && !NOT_A_KEY.test(word)) || TRANSLATION_KEYS.has(word));
}

/** Visible text tokens of the page that are raw translation keys. */
async function rawKeys(page: Page) {
  return rawKeysIn(await page.locator('body').innerText());
}

async function internalLinks(page: Page) {
  const hrefs = await page.locator('a[href^="/"]:not([download]):not([target])').evaluateAll((links) =>
    links.map((link) => link.getAttribute('href')!),
  );
  return [...new Set(hrefs)].filter((href) => !SKIPPED_LINK.test(href));
}

/**
 * Runs in the page before its own scripts (and again after every document
 * load): counts the page-data (`.data`) and translation (`/locales/`) requests
 * still loading, bodies included, so the crawl can tell in the page itself
 * when a navigation has settled instead of asking from the test process.
 */
function trackPendingRequests() {
  const w = window as unknown as { __crawlPending: number };
  w.__crawlPending = 0;
  const original = window.fetch;
  window.fetch = function (...args: Parameters<typeof fetch>) {
    const [input] = args;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const response = original.apply(this, args);
    if (url.includes('/locales/') || url.includes('.data')) {
      w.__crawlPending++;
      response
        .then((answer) => answer.clone().arrayBuffer())
        .catch(() => undefined)
        .finally(() => w.__crawlPending--);
    }
    return response;
  };
}

type Inspection = {
  before: string;
  url: string;
  /** Whether the window survived: a client-side navigation, not a document load. */
  clientSide: boolean;
  errorPage: boolean;
  text: string;
  wentBack: boolean;
  replaced: boolean;
};

/**
 * In the page, in one round trip: clicks the link, waits until Remix is idle
 * and no page data or translations are loading (plus two frames for React to
 * commit), reads what the target shows, then comes back with the browser's
 * Back (also client-side) and waits again. A document load in between ends
 * the evaluation; the caller handles that case.
 */
async function followInPage(href: string): Promise<Inspection> {
  type Location = object;
  type Router = {
    state: { location: Location; navigation: { state: string } };
    subscribe: (listener: () => void) => () => void;
  };
  const w = window as unknown as { __remixRouter?: Router; __crawlPending: number; __crawl?: boolean };
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  // React renders a navigation as a transition, in slices between which the browser is not idle:
  // an idle period means the render has been committed.
  const reactDone = () => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 }));
  const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
  /** Waits for the navigation that `act` starts to finish and everything it loads to arrive. */
  const navigate = async (what: string, act: () => void) => {
    const router = w.__remixRouter;
    if (!router) throw new Error(`${what}: Remix is not running`);
    const from = router.state.location;
    let notified = false;
    const unsubscribe = router.subscribe(() => (notified = true));
    try {
      act();
      // A link may lead nowhere new (the page itself): then the router still runs a navigation,
      // which notifies; a click that started nothing at all is given 3 s.
      const started = performance.now();
      while (!notified && router.state.location === from) {
        if (performance.now() - started > 3_000) return false;
        await tick();
      }
      const deadline = performance.now() + 10_000;
      while (router.state.navigation.state !== 'idle' || w.__crawlPending > 0) {
        if (performance.now() > deadline) throw new Error(`${what}: not settled after 10 s (${router.state.navigation.state}, ${w.__crawlPending} requests)`);
        await tick();
      }
      await reactDone();
      await frame();
      return true;
    } finally {
      unsubscribe();
    }
  };

  // A marker on window survives a client-side navigation and is gone after a document load.
  w.__crawl = true;
  const before = window.location.href;
  // React Router numbers its history entries: a push raises the index, a replace keeps it. (The
  // length of the history does not tell: after a Back, a push replaces the entry ahead.)
  const entry = () => (history.state as { idx?: number } | null)?.idx ?? -1;
  const startEntry = entry();
  // Links inside closed menus are not clickable by pointer; a DOM click runs the same handler.
  const selector = `a[href="${CSS.escape(href)}"]`;
  const seenUntil = performance.now() + 5_000;
  while (!document.querySelector(selector) && performance.now() < seenUntil) await tick();
  const link = document.querySelector<HTMLAnchorElement>(selector);
  if (!link) throw new Error(`no link ${href} on ${before}`);
  await navigate(`→ ${href}`, () => link.click());
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')];
  const inspection: Inspection = {
    before,
    url: window.location.href,
    clientSide: w.__crawl === true,
    errorPage: headings.some((heading) => /ein fehler ist aufgetreten/i.test(heading.textContent ?? '')),
    text: document.body.innerText,
    wentBack: false,
    replaced: false,
  };
  if (inspection.url !== before) {
    if (entry() > startEntry) {
      await navigate(`back from ${href}`, () => history.back());
      if (window.location.href !== before) throw new Error(`Back from ${href} led to ${window.location.href}, not ${before}`);
      inspection.wentBack = true;
    } else {
      // A <Link replace> (the sign-in tabs) left nothing to go back to: the caller loads the start page again.
      inspection.replaced = true;
    }
  }
  return inspection;
}

/** Resolves once Remix is idle and no page data or translations are still loading (after a document load). */
async function settled(page: Page) {
  await page.waitForFunction(() => {
    const w = window as unknown as { __remixRouter?: { state: { navigation: { state: string } } }; __crawlPending: number };
    return w.__remixRouter !== undefined && w.__remixRouter.state.navigation.state === 'idle' && w.__crawlPending === 0;
  });
  // Hydration runs as a transition too: wait for an idle period, then a frame for the last commit.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 2_000 }));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
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
  await page.addInitScript(trackPendingRequests);

  const response = await page.goto(start);
  expect(response?.status()).toBe(expectedStatus);
  await settled(page);
  const links = await internalLinks(page);
  expect(links.length, `${start} has internal links`).toBeGreaterThan(0);
  let clientSide = 0;

  for (const href of links) {
    const before = page.url();
    let seen: Inspection;
    try {
      seen = await page.evaluate(followInPage, href);
    } catch (error) {
      // A document load ended the evaluation: look at the loaded page from here.
      if (!/Execution context was destroyed/.test(String(error))) throw error;
      await page.waitForLoadState();
      await settled(page);
      const errorPage = (await page.getByRole('heading', { name: /ein fehler ist aufgetreten/i }).count()) > 0;
      seen = { before, url: page.url(), clientSide: false, errorPage, text: await page.locator('body').innerText(), wentBack: false, replaced: false };
    }

    const label = `${start} → ${href} (${new URL(seen.url).pathname})`;
    if (seen.errorPage) problems.push(`${label}: error page`);
    for (const key of rawKeysIn(seen.text)) problems.push(`${label}: raw key "${key}"`);
    if (seen.clientSide) clientSide++;

    if (seen.url !== seen.before && !seen.wentBack) {
      // A document load or a replaced entry: load the start page again.
      await page.goto(before);
      await settled(page);
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

  for (const start of SIGNED_IN_PAGES) {
    test(`user: every link from ${start}`, async ({ page, signIn }) => {
      test.setTimeout(90_000);
      await signIn({ firstName: 'Crawl' });
      // A user who is not an admin gets the 403 card at /admin.
      await crawlFrom(page, start, start === '/admin' ? 403 : 200);
    });
  }
});

test('after signing in with the form, the calculator renders (redirect by client-side navigation)', async ({ page, javaScriptEnabled, signIn }) => {
  // A confirmed account without a session: the sign-in itself happens through the form.
  const { email, password } = await signIn();
  await page.context().clearCookies({ name: '__session' });

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
