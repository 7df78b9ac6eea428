import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Issue 24 §4, in both projects (`js` and `no-js`): the project list sorted by name,
 * last change and price (kept in the address and by the list's own forms), and the
 * 'Als CSV exportieren' download of the seller's projects.
 */

async function createThroughApi(page: Page, name: string, extra: Record<string, unknown> = {}) {
  const response = await page.request.post('/api/projects', { data: { name, quantity: 1, filamentWeight: 25, printTime: 2, ...extra } });
  expect(response.status()).toBe(201);
}

test('sort the project list by price and name, keep the order after a delete, and download the CSV', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn({ isPremium: true });
  await createThroughApi(page, 'Brosche', { filamentWeight: 5, printTime: 0.5 });
  await createThroughApi(page, 'Zierteller', { filamentWeight: 400, printTime: 12, marketplacePlatform: 'Etsy' });
  await createThroughApi(page, 'Anhänger', { filamentWeight: 60, printTime: 3 });

  await page.goto('/calculator');
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Projekte' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  const names = page.locator('[data-project-card] h2');
  await expect(names).toHaveText(['Anhänger', 'Zierteller', 'Brosche']);

  const sortBy = async (label: string) => {
    await page.getByLabel('Sortieren nach').selectOption({ label });
    // Without JavaScript the search form's button applies the order.
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Suchen' }).click();
  };
  await sortBy('Preis (niedrigster zuerst)');
  await expect(page).toHaveURL(/[?&]sort=price(&|$)/);
  await expect(names).toHaveText(['Brosche', 'Anhänger', 'Zierteller']);
  await sortBy('Preis (höchster zuerst)');
  await expect(page).toHaveURL(/sort=price-desc/);
  await expect(names).toHaveText(['Zierteller', 'Anhänger', 'Brosche']);
  await sortBy('Name (A–Z)');
  await expect(page).toHaveURL(/sort=name/);
  await expect(names).toHaveText(['Anhänger', 'Brosche', 'Zierteller']);
  await expect(page.getByLabel('Sortieren nach')).toHaveValue('name');

  // A delete comes back to the list in the same order.
  await page.getByRole('link', { name: 'Brosche löschen' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(page.locator('[data-toast]')).toContainText('Projekt gelöscht');
  await expect(page).toHaveURL(/sort=name/);
  await expect(names).toHaveText(['Anhänger', 'Zierteller']);

  // The CSV download: German spreadsheet format, the seller's projects with their minimum prices.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Als CSV exportieren' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^druckpreis-projekte-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.subarray(3).toString('utf8').split('\r\n');
  expect(lines[0]).toMatch(/^Projektname;Anzahl \(Stück\);.*;Mindestpreis netto \(€\);Mindestpreis inkl\. MwSt\. \(€\);Zuletzt geändert$/);
  expect(lines.filter((line) => line !== '').map((line) => line.split(';')[0])).toEqual(['Projektname', 'Anhänger', 'Zierteller']);
  expect(lines[2]).toContain(';Etsy;');
  // The CSV's price is the card's price.
  const cardPrice = (await page.locator('[data-project-card]').filter({ hasText: 'Zierteller' }).locator('[data-min-price]').innerText()).replace(/\s*€$/, '');
  expect(lines[2].split(';').at(-2)).toBe(cardPrice.replace(/\./g, ''));
});
