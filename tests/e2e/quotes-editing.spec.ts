import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Editing a quote (issue 26), with JavaScript and without: the totals are shown
 * before saving (live with scripts, from the submitted values on the server's
 * re-render without), a refused line value is marked on its own field, and the
 * quote's lines fit a 320 px phone without sideways scrolling.
 */

async function draftQuote(page: Page, projectName = 'Drachenfigur') {
  const project = await page.request.post('/api/projects', {
    data: { name: projectName, quantity: 2, filamentWeight: 120, printTime: 6, hourlyRate: 25, profitMargin: 30, marketplaceFeePercentage: 0 },
  });
  expect(project.status()).toBe(201);
  const { id: projectId } = (await project.json()) as { id: string };
  const created = await page.request.post('/api/quotes', { data: { projectId, customerName: 'Jörg Weiß' } });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: string; number: string };
}

/** Through the header menu, the way a seller gets there (a <details> menu below 768 px). */
async function openQuoteFromList(page: Page, number: string) {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  const menu = nav.getByLabel('Menü');
  if (await menu.isVisible()) await menu.click();
  await nav.getByRole('link', { name: 'Angebote' }).click();
  await expect(page).toHaveURL(/\/angebote$/);
  await page.getByTestId('quote-card').filter({ hasText: number }).getByRole('link', { name: /Bearbeiten|Ansehen/ }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: `Angebot ${number}` })).toBeVisible();
}

const unitPrice = (page: Page, line: number) => page.getByLabel('Einzelpreis (brutto, €)').nth(line);
const quantity = (page: Page, line: number) => page.getByLabel('Menge', { exact: true }).nth(line);
const totals = (page: Page) => page.getByTestId('live-totals');

test('totals show before saving; a refused line value is marked on its own field', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  const quote = await draftQuote(page);
  await openQuoteFromList(page, quote.number);

  // The saved figures are there at once, not only after a save.
  await expect(totals(page)).toContainText('Gesamtbetrag');
  await expect(totals(page)).not.toContainText('erscheinen');

  await page.getByRole('button', { name: 'Versand', exact: true }).click();
  await expect(page.getByTestId('quote-line')).toHaveCount(2);
  await quantity(page, 0).fill('2');
  await unitPrice(page, 0).fill('24,99');
  await unitPrice(page, 1).fill('5,49');
  if (javaScriptEnabled) {
    // 2 × 24,99 + 5,49 = 55,47 incl. 8,86 VAT (19/119), while typing.
    await expect(page.getByTestId('line-total').nth(0)).toHaveText('Gesamt: 49,98 €');
    await expect(totals(page)).toContainText('55,47');
    await expect(totals(page)).toContainText('zzgl. 19 % USt.8,86');
    await page.getByLabel('Rabatt (%)').fill('10');
    await expect(totals(page)).toContainText('49,92');
    await page.getByLabel('Rabatt (%)').fill('');
  }

  // A wrong price on line 2: marked there, and only there; the totals wait for it.
  await unitPrice(page, 1).fill('1e308');
  if (javaScriptEnabled) await expect(totals(page)).toContainText('Die Summen erscheinen, sobald');
  await page.getByRole('button', { name: 'Angebot speichern' }).click();
  await expect(unitPrice(page, 1)).toHaveAttribute('aria-invalid', 'true');
  await expect(unitPrice(page, 1)).toHaveAccessibleDescription('Der Preis muss zwischen 0 und 1.000.000 € liegen.');
  await expect(page.getByTestId('quote-line').nth(1)).toContainText('Der Preis muss zwischen 0 und 1.000.000 € liegen.');
  await expect(page.getByTestId('quote-line').nth(0)).not.toContainText('Der Preis muss');
  for (const field of [unitPrice(page, 0), quantity(page, 0), quantity(page, 1)]) await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await expect(unitPrice(page, 1)).toHaveValue('1e308');
  await expect(page.getByTestId('line-total').nth(0)).toHaveText('Gesamt: 49,98 €');
  await expect(page.getByTestId('line-total').nth(1)).toHaveText('Gesamt: –');
  await expect(totals(page)).toContainText('Die Summen erscheinen, sobald');

  // Lines right, the customer missing: the re-rendered page (the server's, without scripts) shows the typed figures.
  await unitPrice(page, 1).fill('5,49');
  await page.getByLabel('Kunde (Name oder Firma)').fill('');
  await page.getByRole('button', { name: 'Angebot speichern' }).click();
  await expect(page.getByLabel('Kunde (Name oder Firma)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Kunde (Name oder Firma)')).toHaveAccessibleDescription('Bitte ausfüllen.');
  await expect(unitPrice(page, 1)).not.toHaveAttribute('aria-invalid', 'true');
  await expect(totals(page)).toContainText('55,47');
  await expect(totals(page)).toContainText('8,86');

  await page.getByLabel('Kunde (Name oder Firma)').fill('Jörg Weiß');
  await page.getByRole('button', { name: 'Angebot speichern' }).click();
  await expect(page.locator('[data-toast]')).toContainText(`Angebot ${quote.number} gespeichert`);
  await expect(page.locator('[data-quote-totals]')).toContainText('55,47');
  await expect(totals(page)).toContainText('55,47');
});

test('a quote at 320 px: lines stacked, no sideways scrolling, every figure on screen', async ({ page, signIn }) => {
  await signIn();
  await page.setViewportSize({ width: 320, height: 640 });
  const quote = await draftQuote(page, 'Schlüsselanhänger mit sehr langem Namen für kleine Bildschirme');
  const body = {
    customerName: 'Erika Mustermann-Überlänge',
    quoteDate: '2026-11-26',
    validUntil: '2026-12-10',
    lines: [
      { kind: 'product', description: 'Schlüsselanhänger mit sehr langem Namen für kleine Bildschirme', quantity: 20, unitPrice: '79.999,99', vatRate: 19 },
      { kind: 'shipping', description: 'Versand', quantity: 1, unitPrice: '5,49', vatRate: 7 },
    ],
  };
  expect((await page.request.put(`/api/quotes/${quote.id}`, { data: body })).status()).toBe(200);
  await openQuoteFromList(page, quote.number);
  for (const path of [page.url(), `${page.url()}?druck`]) {
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
    const lines = page.locator('[data-quote-lines]');
    expect(await lines.evaluate((element) => element.scrollWidth - element.clientWidth), path).toBeLessThanOrEqual(0);
    // The largest figure, with its column name in front, fully inside the 320 px viewport.
    const total = page.locator('[data-quote-document] td', { hasText: '1.599.999,80' });
    await expect(total).toBeVisible();
    const box = (await total.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320);
    expect(await total.evaluate((element) => getComputedStyle(element, '::before').content)).toMatch(/^"Gesamt"/);
    // Still a table with its column names for screen readers.
    await expect(page.locator('[data-quote-document]').getByRole('columnheader', { name: 'Einzelpreis' })).toHaveCount(1);
    await expect(page.locator('[data-quote-document]').getByRole('cell', { name: '20', exact: true })).toHaveCount(1);
  }
  // Wider than a phone: the usual table.
  await page.setViewportSize({ width: 1024, height: 768 });
  expect(await page.locator('[data-quote-document] td', { hasText: '1.599.999,80' }).evaluate((element) => getComputedStyle(element).display)).toBe('table-cell');
  await expect(page.locator('[data-quote-document] thead')).toBeVisible();
});

test('a logo on the business details: refused when wrong or too large, shown on the quote and its PDF, removed', async ({ page, signIn }) => {
  const sharp = (await import('sharp')).default;
  await signIn();
  // Through the header's user menu, as a seller gets there (client-side navigation with scripts).
  await page.goto('/');
  await page.locator('[data-user-menu] > summary').click();
  await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
  const card = page.locator('#geschaeftsdaten');
  await expect(card).toContainText('Speichern Sie zuerst Ihre Geschäftsdaten; danach können Sie ein Logo hochladen.');
  await card.getByLabel('Firmen- oder Geschäftsname').fill('Müllers 3D-Druckerei');
  await card.getByLabel('Anschrift').fill('Werkstraße 5\n80331 München');
  await card.getByLabel('Mailadresse für Kunden').fill('angebote@mueller-3d.example');
  await card.getByRole('button', { name: 'Geschäftsdaten speichern' }).click();
  await expect(page.locator('[data-toast]')).toContainText('Geschäftsdaten gespeichert');

  const chooseAndUpload = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    await page.locator('#geschaeftsdaten').getByLabel(/Logo-Datei wählen|Anderes Logo wählen/).setInputFiles(file);
    await page.locator('#geschaeftsdaten').getByRole('button', { name: 'Logo hochladen' }).click();
  };
  await chooseAndUpload({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(64, 1)]) });
  await expect(page.locator('#geschaeftsdaten').getByRole('alert')).toHaveText('Bitte wählen Sie ein Logo als JPEG- oder PNG-Datei.');
  await expect(page.locator('#business-logo')).toHaveAttribute('aria-invalid', 'true');
  const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2 * 1024 * 1024 + 10, 7)]);
  await chooseAndUpload({ name: 'riesig.png', mimeType: 'image/png', buffer: big });
  await expect(page.locator('#geschaeftsdaten').getByRole('alert')).toHaveText('Das Logo ist zu groß. Bitte wählen Sie eine Datei bis 2 MB.');
  await expect(page.locator('[data-business-logo]')).toHaveCount(0);

  const png = await sharp({ create: { width: 900, height: 300, channels: 4, background: { r: 208, g: 2, b: 27, alpha: 1 } } }).png().toBuffer();
  await chooseAndUpload({ name: 'logo.png', mimeType: 'image/png', buffer: png });
  await expect(page.locator('[data-toast]')).toContainText('Logo gespeichert');
  const shown = page.locator('#geschaeftsdaten [data-business-logo]');
  await expect(shown).toBeVisible();
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);

  // A quote saved now shows it, on the page and in its PDF.
  const quote = await draftQuote(page);
  await openQuoteFromList(page, quote.number);
  const logo = page.locator('[data-quote-document] [data-quote-logo]');
  await expect(logo).toHaveAttribute('alt', 'Logo von Müllers 3D-Druckerei');
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
  const pdf = await page.request.get(`/angebote/${quote.id}.pdf`);
  expect((await pdf.body()).toString('latin1')).toContain('/Subtype /Image');

  // Removed: gone from the card; the quote saved with it keeps it. (The card's own address: a deep link.)
  await page.goto('/profile#geschaeftsdaten');
  await page.locator('#geschaeftsdaten').getByRole('button', { name: 'Logo entfernen' }).click();
  await expect(page.locator('[data-toast]')).toContainText('Logo entfernt');
  await expect(page.locator('[data-business-logo]')).toHaveCount(0);
  await page.goto(`/angebote/${quote.id}`);
  await expect.poll(() => page.locator('[data-quote-logo]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
});
