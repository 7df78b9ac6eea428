import type { Page } from '@playwright/test';
import { consentCookieValue, expect, test } from './fixtures';

/*
 * Phones: nothing may scroll sideways at 320, 360 or 390 px, on any page, for
 * visitors and signed-in users (their headers differ), and the cookie
 * dialog's two main choices must be on screen without scrolling.
 *
 * "Every page" is read from the app's route manifest, so a page added later
 * is checked without touching this file: every route with a fixed path that
 * answers a GET with an HTML page (no redirect) for this visitor or user.
 * Routes with a parameter (`:id`, `*`) are covered by the 404 page and the
 * extra addresses below.
 *
 * The viewport is set without `isMobile`: a mobile browser zooms out to fit
 * an overflowing page, which would widen `innerWidth` and hide the very
 * overflow this test looks for, so it also checks that `innerWidth` is the
 * phone's width.
 */

const PHONES = [
  { width: 320, height: 568 },
  { width: 360, height: 640 },
  { width: 390, height: 844 },
];

/** Addresses a route table cannot list: states of a page behind a query, the 404 page. */
const EXTRA_PATHS = ['/auth?tab=register', '/reset-password?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/gibt-es-nicht'];

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean };

/** Every fixed page path of the app, from the client route manifest the pages load. */
async function routePaths(page: Page): Promise<string[]> {
  const html = await (await page.request.get('/impressum')).text();
  const manifestUrl = /\/assets\/manifest-[\w-]+\.js/.exec(html)?.[0];
  expect(manifestUrl, 'route manifest referenced by the page').toBeTruthy();
  const source = await (await page.request.get(manifestUrl!)).text();
  const { routes } = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as {
    routes: Record<string, ManifestRoute>;
  };
  const fullPath = (route: ManifestRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    const own = route.path ?? '';
    const base = parent ? fullPath(parent) : '';
    return [base, own].filter(Boolean).join('/');
  };
  const paths = new Set<string>();
  for (const route of Object.values(routes)) {
    if (route.id === 'root') continue;
    const path = `/${fullPath(route)}`;
    if (/[:*]/.test(path) || path.startsWith('/api/')) continue;
    paths.add(path);
  }
  return [...paths].sort();
}

/** The paths that are HTML pages for the current cookies (redirects and resource routes left out). */
async function pagePaths(page: Page): Promise<string[]> {
  const pages: string[] = [];
  for (const path of [...(await routePaths(page)), ...EXTRA_PATHS]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    if (response.status() >= 300 && response.status() < 400) continue;
    if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
    pages.push(path);
  }
  return pages;
}

/** One look at the page as it is shown now: widths, what sticks out, and where the cookie dialog's buttons are. */
async function layoutNow(page: Page) {
  return page.evaluate(() => {
    const rect = (element: Element | undefined) => {
      if (!element) return null;
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    };
    const dialogButtons = [...document.querySelectorAll('[data-cookie-consent] button')];
    const button = (name: string) =>
      dialogButtons.find((candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent ?? '').trim() === name);
    return {
      innerWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      // What sticks out (innermost elements), to make a failure readable.
      culprits: [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
        .filter((element, _index, all) => !all.some((other) => other !== element && element.contains(other)))
        .slice(0, 3)
        .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)} "${element.textContent?.slice(0, 30)}"`),
      dialog: rect(document.querySelector('[data-cookie-consent]') ?? undefined),
      necessaryOnly: rect(button('Nur notwendige')),
      acceptAll: rect(button('Alle akzeptieren')),
      close: rect(button('Schließen, ohne zu speichern')),
    };
  });
}

type Box = { x: number; y: number; width: number; height: number };

/** Asserts the element is fully inside the viewport as the page shows now (no scrolling). */
function expectOnScreen(page: Page, name: string, box: Box | null) {
  const viewport = page.viewportSize()!;
  expect(box, `${name} is rendered`).not.toBeNull();
  expect(box!.width * box!.height, `${name} has a size`).toBeGreaterThan(0);
  expect(box!.x, `${name}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${name}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${name}: right edge`).toBeLessThanOrEqual(viewport.width + 0.5);
  expect(box!.y + box!.height, `${name}: bottom edge`).toBeLessThanOrEqual(viewport.height + 0.5);
}

async function checkEveryWidth(page: Page, path: string, { cookieDialog }: { cookieDialog: boolean }) {
  for (const phone of PHONES) {
    await page.setViewportSize(phone);
    const layout = await layoutNow(page);
    const where = `${path} at ${phone.width} px`;
    expect(layout.innerWidth, `${where}: not zoomed out`).toBe(phone.width);
    expect(layout.scrollWidth, `${where} scrolls sideways: ${layout.culprits.join(', ')}`).toBeLessThanOrEqual(layout.innerWidth);
    if (cookieDialog) {
      expect(layout.dialog, `${where}: cookie dialog shown`).not.toBeNull();
      expectOnScreen(page, `${where}: "Nur notwendige"`, layout.necessaryOnly);
      expectOnScreen(page, `${where}: "Alle akzeptieren"`, layout.acceptAll);
      expectOnScreen(page, `${where}: close button`, layout.close);
    }
  }
}

test.describe('Kleine Bildschirme', () => {
  test.use({ withConsent: false });

  test('visitor pages: nothing scrolls sideways, the cookie dialog fits', async ({ page }) => {
    test.setTimeout(90_000);
    const paths = await pagePaths(page);
    // The manifest really was read: the pages every visitor reaches are among them.
    expect(paths).toEqual(expect.arrayContaining(['/', '/calculator', '/auth', '/datenschutz', '/impressum', '/kontakt', '/gibt-es-nicht']));
    for (const path of paths) {
      await page.goto(path);
      await checkEveryWidth(page, path, { cookieDialog: true });
    }
    // The dialog with its settings open (footer button, or ?cookie-settings=1 without scripts).
    await page.goto('/datenschutz?cookie-settings=1');
    await checkEveryWidth(page, '/datenschutz?cookie-settings=1', { cookieDialog: true });
  });

  test('signed-in pages and the user menu: nothing scrolls sideways', async ({ page, baseURL, signIn }) => {
    test.setTimeout(120_000);
    // A long first name: the header shows it.
    await signIn({ firstName: 'Maximiliane-Theodora' });
    // A stored choice: signed-in pages are checked without the dialog in the way.
    await page.context().addCookies([{ name: 'cookie_consent', value: consentCookieValue(), url: baseURL! }]);

    const paths = await pagePaths(page);
    expect(paths).toEqual(expect.arrayContaining(['/calculator', '/profile', '/projects', '/premium']));
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator('[data-user-menu]')).toBeVisible();
      await checkEveryWidth(page, path, { cookieDialog: false });
    }

    // The user menu holds every link on phones; open, it stays inside the screen.
    await page.goto('/profile');
    for (const phone of PHONES) {
      await page.setViewportSize(phone);
      const summary = page.locator('[data-user-menu] > summary');
      expectOnScreen(page, `user menu button at ${phone.width} px`, await summary.boundingBox());
      await summary.click();
      // The open panel fits below the header (it scrolls inside itself), so its last entry is never cut off.
      const panel = await page.locator('[data-user-menu-panel]').boundingBox();
      expect(panel!.y + panel!.height, `user menu panel bottom at ${phone.width}×${phone.height}`).toBeLessThanOrEqual(phone.height);
      const logout = page.locator('[data-user-menu]').getByRole('button', { name: 'Abmelden' });
      await logout.scrollIntoViewIfNeeded();
      expectOnScreen(page, `Abmelden at ${phone.width} px`, await logout.boundingBox());
      const { scrollWidth, culprits } = await layoutNow(page);
      expect(scrollWidth, `open user menu at ${phone.width} px: ${culprits.join(', ')}`).toBeLessThanOrEqual(phone.width);
      await summary.click();
    }
  });
});

test.describe('Kleine Bildschirme mit gespeicherter Cookie-Wahl', () => {
  test('the visitor menu opens inside the screen', async ({ page }) => {
    for (const phone of PHONES) {
      await page.setViewportSize(phone);
      await page.goto('/datenschutz');
      const header = page.getByRole('banner');
      expectOnScreen(page, `Anmelden at ${phone.width} px`, await header.getByRole('link', { name: 'Anmelden' }).boundingBox());
      const menuButton = header.locator('summary');
      expectOnScreen(page, `menu button at ${phone.width} px`, await menuButton.boundingBox());
      await menuButton.click();
      const calculator = header.getByRole('link', { name: 'Rechner' });
      await expect(calculator).toBeVisible();
      expectOnScreen(page, `Rechner in the open menu at ${phone.width} px`, await calculator.boundingBox());
      const { scrollWidth, culprits } = await layoutNow(page);
      expect(scrollWidth, `open menu at ${phone.width} px: ${culprits.join(', ')}`).toBeLessThanOrEqual(phone.width);
    }
  });
});
