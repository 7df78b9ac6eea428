import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Angebote (issue 26), with JavaScript and without: business details on
 * /profile, a quote from a saved project, edit (lines, Versand, discount),
 * print view, PDF, send by mail, status, the list, and a 320 px phone.
 */

async function createProject(page: Page, name = 'Drachenfigur') {
  const response = await page.request.post('/api/projects', {
    data: { name, quantity: 2, filamentWeight: 120, printTime: 6, hourlyRate: 25, profitMargin: 30, marketplaceFeePercentage: 0 },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}

const toast = (page: Page) => page.locator('[data-toast]');

/** A page of the header menu, reached by clicking as a seller does (client-side navigation with scripts; the <details> menu on a phone). */
async function navigateTo(page: Page, name: 'Angebote' | 'Projekte', url: RegExp) {
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  const menu = nav.getByLabel('Menü');
  if (await menu.isVisible()) await menu.click();
  await nav.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(url);
}

/** /profile through the header's user menu, as a seller gets there (client-side navigation with scripts). */
async function openProfile(page: Page) {
  await page.goto('/');
  await page.locator('[data-user-menu] > summary').click();
  await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil', exact: true }).click();
  await expect(page).toHaveURL(/\/profile$/);
}

async function fillBusinessDetails(page: Page) {
  await openProfile(page);
  const card = page.locator('#geschaeftsdaten');
  await card.getByLabel('Firmen- oder Geschäftsname').fill('Müllers 3D-Druckerei');
  await card.getByLabel('Anschrift').fill('Werkstraße 5\n80331 München');
  await card.getByLabel('Mailadresse für Kunden').fill('keine-adresse');
  await card.getByRole('button', { name: 'Geschäftsdaten speichern' }).click();
  await expect(card.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
  await card.getByLabel('Mailadresse für Kunden').fill('angebote@mueller-3d.example');
  await card.getByLabel('Steuernummer oder USt-IdNr. (optional)').fill('DE123456789');
  await card.getByRole('button', { name: 'Geschäftsdaten speichern' }).click();
  await expect(toast(page)).toContainText('Geschäftsdaten gespeichert');
  await expect(page.locator('#geschaeftsdaten').getByLabel('Firmen- oder Geschäftsname')).toHaveValue('Müllers 3D-Druckerei');
}

test.describe('Angebote', () => {
  test('business details, a quote from a project, edit, print view, PDF, send, status, list', async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    await fillBusinessDetails(page);
    const project = await createProject(page);

    // From the project card.
    await navigateTo(page, 'Projekte', /\/projects$/);
    await page.getByRole('link', { name: `Angebot aus ${project.name} erstellen` }).click();
    await expect(page).toHaveURL(new RegExp(`/angebote/neu\\?project=${project.id}$`));
    await page.getByRole('button', { name: 'Angebot erstellen' }).click();
    if (javaScriptEnabled) await expect(page.getByText('Bitte ausfüllen.')).toBeVisible();
    await page.getByLabel('Kunde (Name oder Firma)').fill('Jörg Weiß');
    await page.getByLabel('Anschrift des Kunden (optional)').fill('Hauptstraße 1\n12345 Musterstadt');
    await page.getByRole('button', { name: 'Angebot erstellen' }).click();
    const year = new Date().getFullYear();
    await expect(page.getByRole('heading', { level: 1, name: `Angebot A-${year}-0001` })).toBeVisible();
    await expect(page.getByText('Entwurf').first()).toBeVisible();
    const url = page.url();

    // Edit: a price, a shipping line, a discount.
    await page.getByLabel('Artikel – Beschreibung').fill('Drachenfigur groß, rot');
    await page.getByLabel('Einzelpreis (brutto, €)').first().fill('24,99');
    await page.getByRole('button', { name: 'Versand', exact: true }).click();
    await expect(page.locator('[data-testid="quote-line"]')).toHaveCount(2);
    await page.getByLabel('Einzelpreis (brutto, €)').nth(1).fill('5,49');
    await page.getByLabel('Rabatt (%)').fill('10');
    if (javaScriptEnabled) await expect(page.getByTestId('live-totals')).toContainText('49,92');
    await page.getByRole('button', { name: 'Angebot speichern' }).click();
    await expect(toast(page)).toContainText(`Angebot A-${year}-0001 gespeichert`);
    const preview = page.locator('[data-quote-document]');
    await expect(preview).toContainText('Drachenfigur groß, rot');
    await expect(preview).toContainText('Versand');
    // (2 × 24,99 + 5,49) − 10 % = 49,92; VAT 19/119 = 7,97.
    await expect(preview.locator('[data-quote-totals]')).toContainText('49,92');
    await expect(preview.locator('[data-quote-totals]')).toContainText('7,97');
    await expect(preview).toContainText('Müllers 3D-Druckerei');
    await expect(preview).toContainText('Erstellt mit Druckpreis');

    // A bad value is refused next to its field, nothing saved.
    await page.getByLabel('Menge').first().fill('0');
    await page.getByRole('button', { name: 'Angebot speichern' }).click();
    await expect(page.getByText('Die Menge muss eine ganze Zahl zwischen 1 und 100.000 sein.')).toBeVisible();
    // Back through the list, which shows the draft as saved.
    await page.getByRole('link', { name: 'Zurück zu den Angeboten' }).click();
    await expect(page).toHaveURL(/\/angebote$/);
    await page.getByTestId('quote-card').getByRole('link', { name: 'Bearbeiten' }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByLabel('Menge', { exact: true }).first()).toHaveValue('2');

    // Print view: only the document when printed.
    await page.getByRole('link', { name: 'Druckansicht' }).click();
    await expect(page.locator('[data-quote-document]')).toContainText('Jörg Weiß');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('header[data-site-header]')).toBeHidden();
    await expect(page.getByRole('link', { name: 'Zurück zum Angebot' })).toBeHidden();
    await page.emulateMedia({ media: 'screen' });

    // PDF.
    const pdf = await page.request.get(`${url}.pdf`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Send.
    await page.getByRole('link', { name: 'Zurück zum Angebot' }).click();
    await expect(page).toHaveURL(url);
    await page.locator('#send-to').fill('joerg@kunde.example');
    await expect(page.locator('#send-message')).toHaveValue(/Guten Tag Jörg Weiß/);
    await page.getByRole('button', { name: 'Angebot senden' }).click();
    await expect(toast(page)).toContainText(`Angebot A-${year}-0001 versendet`);
    await expect(page.getByText('Dieses Angebot wurde versendet')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Angebot speichern' })).toHaveCount(0);

    // Status.
    await page.getByRole('button', { name: 'Angenommen' }).click();
    await expect(toast(page)).toContainText('Status: Angenommen');

    // List: search and filter.
    await navigateTo(page, 'Angebote', /\/angebote$/);
    await expect(page.getByTestId('quote-card')).toHaveCount(1);
    await page.getByLabel('Suche nach Nummer oder Kunde').fill('Weiß');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page.getByTestId('quote-card')).toContainText(`A-${year}-0001`);
    await page.getByLabel('Status').selectOption('draft');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page.getByTestId('quotes-empty')).toContainText('Keine Angebote passen');

    // Copy the accepted quote: a new draft with the next number.
    await navigateTo(page, 'Angebote', /\/angebote$/);
    await page.getByRole('button', { name: 'Kopieren' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Angebot A-${year}-0002` })).toBeVisible();
  });

  test('an empty list and a 320 px phone', async ({ page, signIn }) => {
    await signIn();
    await page.setViewportSize({ width: 320, height: 568 });
    await page.goto('/');
    await navigateTo(page, 'Angebote', /\/angebote$/);
    await expect(page.getByTestId('quotes-empty')).toContainText('Noch keine Angebote.');
    const project = await createProject(page, 'Schlüsselanhänger mit sehr langem Namen für kleine Bildschirme');
    await navigateTo(page, 'Projekte', /\/projects$/);
    await page.getByRole('link', { name: `Angebot aus ${project.name} erstellen` }).click();
    await expect(page).toHaveURL(new RegExp(`/angebote/neu\\?project=${project.id}$`));
    await page.getByLabel('Kunde (Name oder Firma)').fill('Erika Mustermann');
    await page.getByRole('button', { name: 'Angebot erstellen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Angebot A-');
    for (const path of [page.url(), '/angebote', `${page.url()}?druck`]) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test("someone else's quote is not found", async ({ page, signIn, browser, baseURL }) => {
    await signIn();
    const project = await createProject(page);
    const created = await page.request.post('/api/quotes', { data: { projectId: project.id, customerName: 'Erika' } });
    const quote = (await created.json()) as { id: string };
    const other = await browser.newContext({ baseURL });
    const { signInDirectly } = await import('./fixtures');
    await signInDirectly(other, baseURL!);
    const stranger = await other.newPage();
    expect((await stranger.request.get(`/angebote/${quote.id}`)).status()).toBe(404);
    expect((await stranger.request.get(`/angebote/${quote.id}.pdf`)).status()).toBe(404);
    expect((await stranger.request.get(`/api/quotes/${quote.id}`)).status()).toBe(404);
    await other.close();
  });
});

test('the quote pages have no serious or critical axe violations', async ({ page, signIn, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'axe runs as a script in the page');
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  await signIn();
  await fillBusinessDetails(page);
  const project = await createProject(page);
  const created = await page.request.post('/api/quotes', { data: { projectId: project.id, customerName: 'Erika' } });
  const quote = (await created.json()) as { id: string };
  for (const path of ['/angebote', `/angebote/neu?project=${project.id}`, `/angebote/${quote.id}`, `/angebote/${quote.id}?druck`, '/profile']) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(severe.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), path).toEqual([]);
  }
});
