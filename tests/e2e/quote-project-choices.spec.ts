import { expect, test } from './fixtures';

/*
 * Security review: /angebote/neu offers the newest projects and a name search instead of
 * every project of the account. The search is a GET form: the same with JavaScript and without.
 */

test('a quote’s project is found by the search on /angebote/neu', async ({ page, signIn }) => {
  await signIn();
  for (const name of ['Drachenfigur', 'Vase Welle', 'Lampe']) {
    const response = await page.request.post('/api/projects', {
      data: { name, quantity: 1, filamentWeight: 40, printTime: 2, hourlyRate: 20, profitMargin: 30, marketplaceFeePercentage: 0 },
    });
    expect(response.status()).toBe(201);
  }
  // From the quote list's 'Neues Angebot', as a seller gets there.
  await page.goto('/angebote');
  await page.getByRole('link', { name: 'Neues Angebot' }).click();
  await expect(page).toHaveURL(/\/angebote\/neu$/);
  const select = page.getByLabel('Projekt', { exact: true });
  await expect(select.locator('option')).toHaveText(['Lampe', 'Vase Welle', 'Drachenfigur']);

  await page.getByLabel('Projekt suchen').fill('vase');
  await page.getByRole('button', { name: 'Suchen' }).click();
  await expect(page).toHaveURL(/\/angebote\/neu\?q=vase$/);
  await expect(select.locator('option')).toHaveText(['Vase Welle']);

  await page.getByLabel('Projekt suchen').fill('Tasse');
  await page.getByRole('button', { name: 'Suchen' }).click();
  await expect(page.getByText('Kein Projekt passt zu „Tasse“.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Angebot erstellen' })).toHaveCount(0);

  await page.getByLabel('Projekt suchen').fill('vase');
  await page.getByRole('button', { name: 'Suchen' }).click();
  await page.getByLabel('Kunde (Name oder Firma)').fill('Jörg Weiß');
  await page.getByRole('button', { name: 'Angebot erstellen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Angebot A-\d{4}-0001$/ })).toBeVisible();
  await expect(page.getByText('Vase Welle').first()).toBeVisible();
});
