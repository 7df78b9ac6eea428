import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Issue 24 §4 'Meine Standardwerte', in both projects (`js` and `no-js`): set on /profile
 * (German messages next to a bad field), and a new calculation starts from them;
 * a shared link and the visitor's calculator are unchanged.
 */

async function openProfile(page: Page) {
  await page.locator('[data-user-menu] > summary').click();
  await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil' }).click();
  await expect(page).toHaveURL(/\/profile$/);
}

test('set my defaults on the profile and start a new calculation from them', async ({ page, signIn, browser }) => {
  await signIn();
  expect((await page.request.post('/api/printers', { data: { name: 'Bambu Lab P1S', wattage: 110, cost: 699, lifetimeHours: 6000, electricityRate: 0.4 } })).status()).toBe(201);
  expect((await page.request.post('/api/filaments', { data: { name: 'PETG Weiß', material: 'PETG', pricePerKg: 19.9 } })).status()).toBe(201);

  await page.goto('/calculator');
  await openProfile(page);
  const card = page.locator('#standardwerte');
  await expect(card.getByRole('heading', { name: 'Meine Standardwerte' })).toBeVisible();

  // A bad value: the German message next to its field, nothing saved.
  await card.getByLabel('Stundensatz (€/h)').fill('viel');
  await card.getByLabel('Gewinnmarge (%)').fill('250');
  await card.getByRole('button', { name: 'Standardwerte speichern' }).click();
  await expect(card.getByText('Bitte geben Sie eine Zahl ein, z. B. 17,50.')).toBeVisible();
  await expect(card.getByText('Gewinnmarge muss zwischen 0 und 200% liegen')).toBeVisible();

  await card.getByLabel('Stundensatz (€/h)').fill('22,50');
  await card.getByLabel('Gewinnmarge (%)').fill('35');
  await card.getByLabel('Fehldruckrate (%)').fill('5');
  await card.getByLabel('Kleinunternehmer (§ 19 UStG)').check();
  await card.getByLabel('Standard-Drucker').selectOption({ label: 'Bambu Lab P1S' });
  await card.getByLabel('Standard-Filament').selectOption({ label: 'PETG Weiß' });
  await card.getByRole('button', { name: 'Standardwerte speichern' }).click();
  await expect(page.locator('[data-toast]')).toContainText('Standardwerte gespeichert');
  await expect(card.getByLabel('Stundensatz (€/h)')).toHaveValue('22,50');
  await expect(card.getByLabel('Standard-Drucker')).toHaveValue(/^[0-9a-f-]{36}$/);

  // A new calculation, reached by the header's link.
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Rechner' }).click();
  await expect(page).toHaveURL(/\/calculator$/);
  await expect(page.getByLabel('Stundensatz')).toHaveValue('22,50');
  await expect(page.getByLabel('Gewinnmarge')).toHaveValue('35');
  await expect(page.getByLabel('Fehldruckrate')).toHaveValue('5');
  await expect(page.getByLabel('Kleinunternehmer (§ 19 UStG)')).toBeChecked();
  await expect(page.getByLabel('Leistungsaufnahme')).toHaveValue('110');
  await expect(page.getByLabel('Strompreis')).toHaveValue('0,40');
  await expect(page.getByLabel('Filamentpreis')).toHaveValue('19,90');
  await expect(page.getByLabel('Drucker auswählen')).toHaveValue(/^[0-9a-f-]{36}$/);
  await expect(page.locator('[data-picker="filament"] select option:checked')).toHaveText('PETG Weiß');

  // A shared link keeps its own values.
  await page.goto('/calculator?hourlyRate=15&profitMargin=25');
  await expect(page.getByLabel('Stundensatz')).toHaveValue(/^15(,00)?$/);
  await expect(page.getByLabel('Leistungsaufnahme')).toHaveValue('200');

  // A visitor's calculator is the calculator's own.
  const visitor = await browser.newPage();
  await visitor.goto(page.url().replace(/\/calculator.*$/, '/calculator'));
  await expect(visitor.getByLabel('Stundensatz')).toHaveValue('15,00');
  await expect(visitor.getByLabel('Gewinnmarge')).toHaveValue('25');
  await visitor.close();
});
