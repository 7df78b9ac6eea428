import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const result = (page: Page, name: string) => page.locator(`[data-result="${name}"]`);
const field = (page: Page, name: string) => page.locator(`#calculator-form input[name="${name}"]`);

/**
 * Applies new field values the way the current mode allows: typing (live
 * recalculation with JS) or typing and submitting the GET form (without JS).
 */
async function setFields(page: Page, javaScriptEnabled: boolean, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await field(page, name).fill(value);
  if (!javaScriptEnabled) {
    await page.getByRole('button', { name: 'Berechnen' }).click();
    await page.waitForLoadState('load');
  }
}

test.describe('Kostenrechner', () => {
  test('defaults give the expected figures', async ({ page }) => {
    await page.goto('/calculator');
    await expect(page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' })).toBeVisible();
    // Hand-worked in tests/unit/calculator-engine.test.ts (spec §9 defaults).
    await expect(result(page, 'filamentCost')).toHaveText('0,63 €');
    await expect(result(page, 'powerCost')).toHaveText('0,22 €');
    await expect(result(page, 'depreciationCost')).toHaveText('0,35 €');
    await expect(result(page, 'laborCost')).toHaveText('6,25 €');
    await expect(result(page, 'shippingTotal')).toHaveText('5,45 €');
    await expect(result(page, 'marketplaceFees')).toHaveText('0,99 €');
    await expect(result(page, 'totalCosts')).toHaveText('13,89 €');
    await expect(result(page, 'minimumPrice')).toHaveText('17,37 €');
    await expect(result(page, 'vatAmount')).toHaveText('3,30 €');
    await expect(result(page, 'minimumPriceWithVat')).toHaveText('20,67 €');
    await expect(result(page, 'breakEven')).toHaveText('13,89 €');
    await expect(result(page, 'profit')).toHaveText('3,47 €');
    await expect(result(page, 'priceForFive')).toHaveText('8,77 €');
    await expect(result(page, 'priceForTen')).toHaveText('7,28 €');
    await expect(result(page, 'priceForTwenty')).toHaveText('6,54 €');
    await expect(page.locator('[data-detailed-sum]')).toHaveText('6,65 €');
  });

  test('changing inputs updates the results', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    // 100 g at 20 €/kg = 2,00 € filament (German decimal comma).
    await setFields(page, javaScriptEnabled, { filamentWeight: '100', filamentPricePerKg: '20,0' });
    await expect(result(page, 'filamentCost')).toHaveText('2,00 €');
    // Target price 30 €: profit = 30 − total costs.
    await setFields(page, javaScriptEnabled, { targetPrice: '30' });
    await expect(result(page, 'targetPriceProfit')).not.toHaveText('0,00 €');
    const total = await result(page, 'totalCosts').innerText();
    const profit = await result(page, 'targetPriceProfit').innerText();
    const euros = (text: string) => Number(text.replace(/[^\d,-]/g, '').replace(',', '.'));
    expect(euros(profit)).toBeCloseTo(30 - euros(total), 2);
    // The address describes the calculation, so it can be bookmarked and shared. With scripts it
    // follows the typing after a short delay, so wait for all three values: an address with only
    // the first (written between two fields) would reopen as 100 g at the default 25 €/kg.
    await expect(page).toHaveURL((url) => {
      const query = url.searchParams;
      return query.get('filamentWeight') === '100' && query.get('filamentPricePerKg') === '20,0' && query.get('targetPrice') === '30';
    });
    const shared = page.url();
    await page.goto(shared);
    await expect(result(page, 'filamentCost')).toHaveText('2,00 €');
  });

  test('invalid input shows the German message and no results', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await setFields(page, javaScriptEnabled, { marketplaceFeePercent: '150' });
    await expect(page.getByText('Gebühr muss zwischen 0 und 100% liegen')).toBeVisible();
    await expect(field(page, 'marketplaceFeePercent')).toHaveAttribute('aria-invalid', 'true');
    // No result without scripts; with them the last valid one stays, dimmed, under the hint (issue 24 §2).
    if (javaScriptEnabled) await expect(page.locator('[data-results-held]')).toBeVisible();
    else await expect(result(page, 'minimumPrice')).toHaveCount(0);
    await setFields(page, javaScriptEnabled, { marketplaceFeePercent: '5', printTimeMinutes: '75' });
    await expect(page.getByText('Minuten müssen zwischen 0 und 59 liegen')).toBeVisible();
  });

  test('a 100 % marketplace fee explains that no price is possible', async ({ page }) => {
    const response = await page.goto('/calculator?marketplaceFeePercent=100');
    expect(response?.status()).toBe(200);
    await expect(page.locator('[data-result-impossible]')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(/NaN|Infinity/);
  });

  test('a target price below break-even is clearly marked', async ({ page }) => {
    // Defaults cost 13,89 €; at 10 € the seller loses 3,89 €.
    await page.goto('/calculator?targetPrice=10');
    await expect(page.locator('[data-below-break-even]')).toBeVisible();
    await expect(result(page, 'targetPriceProfit')).toHaveText(/^-\s?\d/);
    await page.goto('/calculator?targetPrice=40');
    await expect(page.locator('[data-below-break-even]')).toHaveCount(0);
  });

  test('a shared link renders the result on the server', async ({ page }) => {
    const response = await page.goto('/calculator?quantity=2&filamentWeight=50&filamentPricePerKg=20');
    expect(response?.status()).toBe(200);
    // 50 g × 20 €/kg × 2 = 2,00 €
    await expect(result(page, 'filamentCost')).toHaveText('2,00 €');
    await expect(field(page, 'quantity')).toHaveValue('2');
  });

  test('invalid query values re-render the form with messages, status 200', async ({ page }) => {
    const response = await page.goto('/calculator?filamentWeight=abc&profitMargin=500');
    expect(response?.status()).toBe(200);
    await expect(page.getByText('Bitte geben Sie eine Zahl ein')).toBeVisible();
    await expect(page.getByText('Gewinnmarge muss zwischen 0 und 200% liegen')).toBeVisible();
    await expect(result(page, 'minimumPrice')).toHaveCount(0);
  });

  test('reset returns to the defaults', async ({ page }) => {
    await page.goto('/calculator?filamentWeight=100');
    await expect(result(page, 'filamentCost')).toHaveText('2,50 €');
    await page.getByRole('link', { name: 'Zurücksetzen' }).click();
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(field(page, 'filamentWeight')).toHaveValue('25');
    await expect(result(page, 'filamentCost')).toHaveText('0,63 €');
  });

  test('export downloads a JSON file with inputs, results and timestamp', async ({ page }) => {
    await page.goto('/calculator?filamentWeight=40');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Exportieren' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^druckpreis-kalkulation-\d{4}-\d{2}-\d{2}\.json$/);
    const body = JSON.parse(await (await download.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8')));
    expect(body.inputs.filamentWeight).toBe(40);
    expect(body.results.filamentCost).toBeCloseTo(1, 6); // 40 g × 25 €/kg
    expect(new Date(body.exportedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  test('print view shows a clean cost sheet', async ({ page }) => {
    await page.goto('/calculator?projectName=Vase');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: 'Kostenkalkulation: Vase' })).toBeVisible();
    await expect(page.locator('header[data-site-header]')).toBeHidden();
    await expect(page.locator('footer[data-site-footer]')).toBeHidden();
    await expect(page.getByRole('link', { name: 'Zurücksetzen' })).toBeHidden();
    await expect(field(page, 'filamentWeight')).toBeHidden();
    await expect(result(page, 'minimumPriceWithVat')).toBeVisible();
    const pdf = await page.pdf({ format: 'A4' });
    // One page: a PDF's page count is the number of /Type /Page objects.
    expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)?.length).toBe(1);
  });
});

test.describe('Kostenrechner mit JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'live behaviour needs scripts');

  test('recalculates on every keystroke and keeps the URL in step without history entries', async ({ page }) => {
    await page.goto('/calculator');
    const historyLength = await page.evaluate(() => history.length);
    await field(page, 'quantity').fill('3');
    // 25 g × 25 €/kg × 3 = 1,88 €
    await expect(result(page, 'filamentCost')).toHaveText('1,88 €');
    await expect(page).toHaveURL(/quantity=3/);
    expect(await page.evaluate(() => history.length)).toBe(historyLength);
    await field(page, 'quantity').press('ArrowUp');
    await expect(field(page, 'quantity')).toHaveValue('4');
    await expect(result(page, 'filamentCost')).toHaveText('2,50 €');
  });

  test('reset right after typing is not undone by the pending address update', async ({ page }) => {
    // The page's timers on a fake clock: the debounced address update (200 ms) fires only when the test says.
    await page.clock.install();
    await page.goto('/calculator');
    await field(page, 'filamentWeight').fill('80');
    // The input has been handled (live result), so the address update is scheduled and pending.
    await expect(result(page, 'filamentCost')).not.toHaveText('0,63 €');
    await page.getByRole('link', { name: 'Zurücksetzen' }).click();
    await expect(page).toHaveURL(/\/calculator$/);
    // Well past the debounce: a pending update that had survived the reset would now put the 80 back.
    await page.clock.runFor(1_000);
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(field(page, 'filamentWeight')).toHaveValue('25');
  });
});
