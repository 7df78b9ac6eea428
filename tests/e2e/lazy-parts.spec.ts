import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { preloadHints } from './page-scripts';

/*
 * Issue 2's JavaScript budget: the calculator's and the header's signed-in
 * parts are chunks of their own (app/lib/lazy-part.ts). A visitor never
 * downloads them; a signed-in page hydrates them from the server's markup
 * without a hydration error, and they work afterwards. Without scripts the
 * server renders them in full (projects.spec.ts and library.spec.ts use them
 * in the no-js project).
 */

/** Markers only the signed-in parts' code contains (data attributes no other code names). */
const SIGNED_IN_MARKERS = ['data-save-project-floating', 'data-picker-applied', 'data-product-image-preview', 'data-management-menu', 'data-premium-crown'];

/** Every console error and uncaught error of the page (React reports a hydration mismatch as one). */
function collectErrors(page: Page) {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return errors;
}

/** The scripts the page downloads, by address, with their text. */
function collectScripts(page: Page) {
  const scripts = new Map<string, Promise<string>>();
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) scripts.set(new URL(response.url()).pathname, response.text());
  });
  return scripts;
}

/** Hydrated: the no-JS "Berechnen" button is gone (the calculator renders it only before hydration). */
async function hydrated(page: Page) {
  await expect(page.getByRole('button', { name: 'Berechnen' })).toHaveCount(0);
}

test.describe('Signed-in parts load apart', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'about the JavaScript the browser downloads');

  test('a visitor on /calculator never downloads them and hydrates without errors', async ({ page }) => {
    const errors = collectErrors(page);
    const scripts = collectScripts(page);
    await page.goto('/calculator');
    await hydrated(page);
    // The ad slots' content (placeholder cards, after the cookie answer, which this visitor gave) is a lazy
    // part of its own (issue 21), named with the page's scripts since hydration waits for it.
    // The page names its own scripts (fetched after the first paint, issue 25), never a signed-in part.
    const hints = await preloadHints(page);
    expect(hints.filter((href) => /signed-in-parts|site-header-user/.test(href))).toEqual([]);
    expect(hints.filter((href) => href.includes('/ad-content'))).toHaveLength(1);
    // Using the form loads the live-calculation chunk: still none of them.
    await page.locator('#calculator-form input[name="filamentWeight"]').fill('40');
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('1,00 €');
    expect(scripts.size).toBeGreaterThan(0);
    for (const [url, text] of scripts) {
      const body = await text;
      for (const marker of SIGNED_IN_MARKERS) expect(body.includes(marker), `${url} contains ${marker}`).toBe(false);
    }
    expect(errors).toEqual([]);
  });

  test('a signed-in page hydrates them from the server markup, without errors, and they work', async ({ page, signIn }) => {
    await signIn({ firstName: 'Lena' });
    await page.request.post('/api/printers', { data: { name: 'Stromfresser', wattage: 1200, cost: 2000, lifetimeHours: 1000, electricityRate: 0.5 } });
    const errors = collectErrors(page);
    const scripts = collectScripts(page);
    await page.goto('/calculator');
    await hydrated(page);
    // The picker's no-JS "Übernehmen" button goes once its chunk has hydrated; choosing fills the fields at once.
    await expect(page.getByRole('button', { name: 'Drucker übernehmen' })).toHaveCount(0);
    await page.getByLabel('Drucker auswählen').selectOption({ label: 'Stromfresser' });
    await expect(page.getByLabel('Leistungsaufnahme', { exact: true })).toHaveValue('1200');
    // Both chunks are named with the page's scripts, so they load with them.
    const hints = await preloadHints(page);
    expect(hints).toEqual(expect.arrayContaining([expect.stringMatching(/signed-in-parts/), expect.stringMatching(/site-header-user/)]));
    const loaded = await Promise.all([...scripts.values()]);
    expect(loaded.some((body) => body.includes('data-save-project-floating'))).toBe(true);
    expect(loaded.some((body) => body.includes('data-management-menu'))).toBe(true);
    // The header's user menu is live: Escape closes it (a listener of the lazily loaded menu).
    await page.locator('[data-user-menu] > summary').click();
    await expect(page.locator('[data-user-menu]')).toHaveAttribute('open', '');
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-user-menu]')).not.toHaveAttribute('open', '');
    // The save panel is live: a save goes through fetch and comes back as the saved project.
    await page.locator('#calculator-form input[name="projectName"]').fill('Lazy Vase');
    await page.locator('[data-save-project]').click();
    await expect(page).toHaveURL(/project=/);
    await expect(page.locator('[data-project-saved]')).toBeVisible();
    expect(errors).toEqual([]);
  });

  // Library and project pages show the header's signed-in menus (and hydrated with a mismatch while they suspended hydration).
  for (const path of ['/printers', '/projects']) {
    test(`${path} hydrates the header's signed-in menus without errors`, async ({ page, signIn }) => {
      await signIn();
      const errors = collectErrors(page);
      await page.goto(path);
      await page.locator('[data-management-menu] > summary').click();
      await page.keyboard.press('Escape');
      await expect(page.locator('[data-management-menu]')).not.toHaveAttribute('open', '');
      expect(errors).toEqual([]);
    });
  }

  test('a client-side navigation to the calculator shows them without errors', async ({ page, signIn }) => {
    await signIn();
    const errors = collectErrors(page);
    await page.goto('/projects');
    await page.locator('header').getByRole('link', { name: 'Rechner' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' })).toBeVisible();
    await expect(page.locator('[data-save-project]')).toHaveText('Projekt speichern');
    await expect(page.getByText('Keine aktiven Drucker verfügbar')).toBeVisible();
    expect(errors).toEqual([]);
  });
});
