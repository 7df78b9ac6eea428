import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Issue 24 §4 "The print sheet names what was used", in both projects (`js` and `no-js`):
 * the product image and the printer, filament, packaging, shipping provider and
 * marketplace chosen in the pickers, by name, on the printed cost sheet.
 */

// 1×1 PNG, red pixel.
const PNG_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

const LIBRARY: Array<{ api: string; picker: string; label: string; name: string }> = [
  { api: '/api/printers', picker: 'printer', label: 'Drucker auswählen', name: 'Bambu Lab X1 Carbon' },
  { api: '/api/filaments', picker: 'filament', label: 'Filament auswählen', name: 'PLA Galaxy Schwarz' },
  { api: '/api/packaging', picker: 'packaging', label: 'Verpackung auswählen', name: 'Karton S' },
  { api: '/api/shipping-providers', picker: 'shipping', label: 'Versanddienstleister auswählen', name: 'DHL Paket 2 kg' },
  { api: '/api/marketplaces', picker: 'marketplace', label: 'Marktplatz auswählen', name: 'Etsy' },
];

async function choose(page: Page, javaScriptEnabled: boolean, label: string, name: string) {
  const select = page.getByLabel(label);
  await select.selectOption({ label: name });
  // Without JavaScript 'Übernehmen' takes the choice over (the loader fills the values).
  if (!javaScriptEnabled) await select.locator('xpath=following-sibling::button').click();
}

test('the printed sheet shows the product image and names the chosen library items', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  for (const item of LIBRARY) expect((await page.request.post(item.api, { data: { name: item.name } })).status()).toBe(201);

  // From the projects (a signed-in seller's '/' is the calculator already: the link would reload it while the test types).
  await page.goto('/projects');
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Rechner' }).click();
  await expect(page).toHaveURL(/\/calculator$/);
  await page.getByLabel('Projektname').fill('Drache');
  // Before any choice the sheet names nothing.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('[data-print-sheet]')).toBeVisible();
  await expect(page.locator('[data-print-used]')).toHaveCount(0);
  await page.emulateMedia({ media: 'screen' });

  for (const item of LIBRARY) await choose(page, javaScriptEnabled, item.label, item.name);
  await page.locator('input[type=file][name=image]').setInputFiles({ name: 'drache.png', mimeType: 'image/png', buffer: PNG_PIXEL });
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Bild hochladen' }).click();
  await expect(page.locator('[data-product-image-preview]')).toBeVisible();

  await page.emulateMedia({ media: 'print' });
  const sheet = page.locator('[data-print-sheet]');
  await expect(sheet.getByRole('heading', { name: 'Verwendet' })).toBeVisible();
  for (const item of LIBRARY) await expect(sheet.locator(`[data-print-used-item="${item.picker}"]`)).toHaveText(item.name);
  const image = sheet.locator('[data-print-image]');
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('alt', /^Produktbild von /);
  await expect(sheet.getByRole('heading', { level: 1 })).toHaveText('Kostenkalkulation: Drache');
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  // Saved and reopened, the sheet still names them.
  await page.emulateMedia({ media: 'screen' });
  await page.locator('[data-save-project]').click();
  await expect(page.locator('[data-toast]')).toContainText('Projekt gespeichert');
  const address = page.url().replace(/#.*$/, '');
  await page.goto('/calculator');
  await page.goto(address);
  await page.emulateMedia({ media: 'print' });
  for (const item of LIBRARY) await expect(sheet.locator(`[data-print-used-item="${item.picker}"]`)).toHaveText(item.name);
  await expect(sheet.locator('[data-print-image]')).toBeVisible();

  if (javaScriptEnabled) {
    // A choice changed with scripts is on the sheet at once ('Manuell eingeben' names nothing).
    await page.emulateMedia({ media: 'screen' });
    await page.getByLabel('Drucker auswählen').selectOption({ label: 'Manuell eingeben' });
    await page.emulateMedia({ media: 'print' });
    await expect(sheet.locator('[data-print-used-item="printer"]')).toHaveCount(0);
    await expect(sheet.locator('[data-print-used-item="marketplace"]')).toHaveText('Etsy');
  }
});

/*
 * After the new-user review: with several filament lines (issue 23) 'Verwendet' names every
 * line's filament (library name or label, grams), not line 1's picker alone; and the sheet's
 * header names the seller's business (Geschäftsdaten) when there is one, else the person.
 */
test('with several filament lines the sheet names every line\'s filament under Verwendet', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  for (const data of [{ name: 'Prusament Galaxy Black', material: 'PLA', pricePerKg: 30 }, { name: 'PETG Orange', material: 'PETG', pricePerKg: 20 }]) {
    expect((await page.request.post('/api/filaments', { data })).status()).toBe(201);
  }
  await page.goto('/calculator');
  if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Berechnen' })).toHaveCount(0);
  await page.getByLabel('Projektname').fill('Drache');
  await choose(page, javaScriptEnabled, 'Filament auswählen', 'Prusament Galaxy Black');
  await page.getByRole('button', { name: 'Filament hinzufügen' }).click();
  await page.getByLabel('Gewicht pro Stück (Filament 2)').fill('10');
  await page.getByLabel('Aus der Bibliothek (Filament 2)').selectOption({ label: 'PETG Orange' });
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Filament aus der Bibliothek für Filament 2 übernehmen' }).click();
  await expect(page.getByLabel('Preis pro kg (Filament 2)')).toHaveValue('20,00');
  // Line 3 typed by hand: named by its label.
  await page.getByRole('button', { name: 'Filament hinzufügen' }).click();
  await page.getByLabel('Bezeichnung (Filament 3)').fill('Stützmaterial');
  await page.getByLabel('Gewicht pro Stück (Filament 3)').fill('4');
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Berechnen' }).first().click();
  await expect(page.locator('[data-filament-cost-line="3"]')).toContainText('Stützmaterial · 4 g');

  await page.emulateMedia({ media: 'print' });
  const sheet = page.locator('[data-print-sheet]');
  await expect(sheet.getByRole('heading', { name: 'Verwendet' })).toBeVisible();
  await expect(sheet.locator('[data-print-used-filament-line]')).toHaveText(['Prusament Galaxy Black · 25\u00A0g', 'PETG Orange · 10\u00A0g', 'Stützmaterial · 4\u00A0g']);
  await expect(sheet.locator('[data-print-used] dt')).toHaveText(['Filament 1', 'Filament 2', 'Filament 3']);
  // Line 1's picker is not named a second time.
  await expect(sheet.locator('[data-print-used-item="filament"]')).toHaveCount(0);
});

test('the sheet names the business of the Geschäftsdaten, else the person', async ({ page, signIn }) => {
  await signIn({ firstName: 'Toni' });
  await page.goto('/calculator');
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('[data-print-seller]')).toHaveText('Toni Muster');
  await page.emulateMedia({ media: 'screen' });

  await page.goto('/profile');
  const card = page.locator('#geschaeftsdaten');
  await card.getByLabel('Firmen- oder Geschäftsname').fill('Müllers 3D-Druckerei');
  await card.getByLabel('Anschrift').fill('Werkstraße 5\n80331 München');
  await card.getByLabel('Mailadresse für Kunden').fill('angebote@mueller-3d.example');
  await card.getByRole('button', { name: 'Geschäftsdaten speichern' }).click();
  await expect(page.locator('[data-toast]')).toContainText('Geschäftsdaten gespeichert');

  await page.goto('/calculator');
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('[data-print-seller]')).toHaveText('Müllers 3D-Druckerei');
});
