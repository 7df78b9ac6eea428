import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * After the new-user review (issue 26): with JavaScript the quote's preview follows the edit form
 * while typing (customer, lines, closing text), keeping its last valid state while a field is
 * wrong; without JavaScript it shows the saved quote and follows after 'Angebot speichern'.
 */

async function draftQuote(page: Page) {
  const project = await page.request.post('/api/projects', { data: { name: 'Drachenfigur', quantity: 2, filamentWeight: 40, printTime: 3 } });
  expect(project.status()).toBe(201);
  const { id: projectId } = (await project.json()) as { id: string };
  const created = await page.request.post('/api/quotes', { data: { projectId, customerName: 'Jörg Weiß' } });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: string };
}

test('the quote preview follows the form while typing with JavaScript, after saving without', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  const quote = await draftQuote(page);
  // From the quote list, as a seller opens a quote.
  await page.goto('/angebote');
  await page.locator(`a[href="/angebote/${quote.id}"]`).first().click();
  await expect(page).toHaveURL(new RegExp(`/angebote/${quote.id}`));
  const preview = page.locator('[data-quote-preview] [data-quote-document]');
  await expect(preview).toContainText('Jörg Weiß');
  // Typing before React took over the form would not reach it: wait for hydration (React's props on the form).
  if (javaScriptEnabled) await page.waitForFunction(() => Object.keys(document.querySelector('#quote-edit') ?? {}).some((key) => key.startsWith('__react')));

  await page.getByLabel('Kunde (Name oder Firma)').fill('Neue Kundin');
  await page.getByLabel(/– Beschreibung$/).first().fill('Drache, bemalt');
  await page.getByLabel('Menge', { exact: true }).first().fill('3');
  await page.getByLabel('Einzelpreis (brutto, €)').first().fill('10,00');
  await page.getByLabel('Schlusstext').fill('Danke für Ihr Vertrauen!');

  if (javaScriptEnabled) {
    await expect(page.locator('[data-quote-preview]')).toHaveAttribute('data-quote-preview', 'live');
    await expect(preview).toContainText('Neue Kundin');
    await expect(preview).not.toContainText('Jörg Weiß');
    await expect(preview.locator('[data-quote-lines]')).toContainText('Drache, bemalt');
    await expect(preview.locator('[data-quote-totals]')).toContainText('30,00');
    await expect(preview).toContainText('Danke für Ihr Vertrauen!');
    // A wrong price: the preview keeps its last valid figures.
    await page.getByLabel('Einzelpreis (brutto, €)').first().fill('1e308');
    await page.getByLabel('Kunde (Name oder Firma)').fill('Neue Kundin GmbH');
    await expect(preview.locator('[data-quote-totals]')).toContainText('30,00');
    await expect(preview).not.toContainText('Neue Kundin GmbH');
    await page.getByLabel('Einzelpreis (brutto, €)').first().fill('10,00');
    await expect(preview).toContainText('Neue Kundin GmbH');
  } else {
    // Without scripts: the saved quote until it is saved.
    await expect(preview).toContainText('Jörg Weiß');
    await expect(preview).not.toContainText('Neue Kundin');
  }

  await page.getByRole('button', { name: 'Angebot speichern' }).click();
  await expect(page.locator('[data-toast]')).toContainText('gespeichert');
  await expect(page.locator('[data-quote-preview]')).toHaveAttribute('data-quote-preview', 'saved');
  await expect(preview).toContainText('Neue Kundin');
  await expect(preview.locator('[data-quote-lines]')).toContainText('Drache, bemalt');
  await expect(preview.locator('[data-quote-totals]')).toContainText('30,00');
});
