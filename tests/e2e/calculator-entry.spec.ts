import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Issue 8, calculator parts: numbers as Germans type them, the phone summary,
 * signed-in users, target price, toasts, export, cost sheet, chart and the
 * landing page's worked example. Both projects (`js`, `no-js`) unless skipped.
 */

const result = (page: Page, name: string) => page.locator(`[data-result="${name}"]`);
const field = (page: Page, name: string) => page.locator(`#calculator-form input[name="${name}"]`);
const fieldError = (page: Page, name: string) => page.locator(`[data-field-error="${name}"]`);

async function setFields(page: Page, javaScriptEnabled: boolean, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await field(page, name).fill(value);
  if (!javaScriptEnabled) {
    await page.getByRole('button', { name: 'Berechnen' }).click();
    await page.waitForLoadState('load');
  } else {
    // The error of a finished entry shows once the field is left.
    await page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' }).click();
  }
}

async function openCalculator(page: Page, javaScriptEnabled: boolean) {
  await page.goto('/');
  // With scripts, arrive the way a visitor does: by a link (client-side navigation).
  if (javaScriptEnabled) await page.locator('header').getByRole('link', { name: 'Rechner' }).first().click();
  else await page.goto('/calculator');
  await expect(page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' })).toBeVisible();
}

test.describe('Zahlen wie in Deutschland', () => {
  test('a dot before three digits is a thousands separator', async ({ page, javaScriptEnabled }) => {
    await openCalculator(page, javaScriptEnabled);
    // 1.200 € over 5.000 h × 3,5 h = 0,84 € (read as 1,20 € and 5 h it would be 0,84 € × 1000 / 1000… and 210 € for 5 h)
    await setFields(page, javaScriptEnabled, { printerCost: '1.200', printerLifetimeHours: '5.000' });
    await expect(result(page, 'depreciationCost')).toHaveText('0,84 €');
    // 1.200,50 €/kg × 25 g = 30,01 €; 0,35 €/kWh keeps its comma.
    await setFields(page, javaScriptEnabled, { filamentPricePerKg: '1.200,50', electricityRate: '0,35' });
    await expect(result(page, 'filamentCost')).toHaveText('30,01 €');
    await expect(fieldError(page, 'electricityRate')).toHaveCount(0);
  });

  test('an ambiguous number is named next to its field, never guessed', async ({ page, javaScriptEnabled }) => {
    await openCalculator(page, javaScriptEnabled);
    await setFields(page, javaScriptEnabled, { printerCost: '1,234.56' });
    await expect(fieldError(page, 'printerCost')).toHaveText(/nicht eindeutig.*1\.234,56/);
    await expect(field(page, 'printerCost')).toHaveAttribute('aria-invalid', 'true');
    // Without scripts there is no result to keep; with them the last valid one stays, dimmed (issue 24 §2).
    if (javaScriptEnabled) await expect(page.locator('[data-stale] [data-result="depreciationCost"]')).toBeVisible();
    else await expect(result(page, 'depreciationCost')).toHaveCount(0);
  });
});

test.describe('Eingabe mit JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'typing behaviour needs scripts');

  test('while a number is half typed the last results stay (dimmed), the error waits for leaving the field', async ({ page }) => {
    await openCalculator(page, true);
    await expect(result(page, 'minimumPriceWithVat')).toHaveText('20,67 €');
    const rate = field(page, 'electricityRate');
    await rate.fill('0,');
    await expect(page.locator('[data-stale]')).toBeVisible();
    await expect(result(page, 'minimumPriceWithVat')).toHaveText('20,67 €');
    await expect(page.locator('[data-typing-note]')).toContainText('Strompreis');
    await expect(page.locator('[data-field-hint="typing"]')).toContainText('0,35');
    await expect(fieldError(page, 'electricityRate')).toHaveCount(0);

    await rate.pressSequentially('5');
    await expect(page.locator('[data-stale]')).toHaveCount(0);
    await expect(result(page, 'minimumPriceWithVat')).not.toHaveText('20,67 €');

    const lastValid = await result(page, 'minimumPriceWithVat').innerText();
    // Left half typed: now it is an error; the last valid results stay, dimmed, under the hint
    // at the top of the column (issue 24 §2: the column used to empty).
    await rate.fill('0,');
    await rate.press('Tab');
    await expect(fieldError(page, 'electricityRate')).toHaveText('Bitte geben Sie eine Zahl ein');
    await expect(page.locator('[data-typing-note]')).toHaveCount(0);
    await expect(page.locator('[data-results-held]')).toHaveText('Bitte korrigieren Sie die markierten Eingaben, um das Ergebnis zu sehen.');
    await expect(page.locator('[data-stale] [data-result="minimumPriceWithVat"]')).toHaveText(lastValid);

    // Text no keystroke can repair is an error at once, even in the focused field.
    await rate.fill('abc');
    await expect(rate).toBeFocused();
    await expect(fieldError(page, 'electricityRate')).toHaveText('Bitte geben Sie eine Zahl ein');
    await expect(page.locator('[data-typing-note]')).toHaveCount(0);
    await expect(page.locator('[data-results-held]')).toBeVisible();
    // Corrected: the hint goes and the results are live again.
    await rate.fill('0,4');
    await expect(page.locator('[data-results-held]')).toHaveCount(0);
    await expect(page.locator('[data-stale]')).toHaveCount(0);
  });
});

test.describe('Telefon', () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test('a sticky summary shows the minimum price and jumps to the results', async ({ page, javaScriptEnabled }) => {
    // On a phone the header's links sit in the menu; the link-following path is covered above.
    await page.goto('/calculator');
    const summary = page.locator('[data-sticky-summary]');
    await expect(summary).toBeInViewport();
    await expect(summary.locator('[data-summary-price]')).toHaveText('20,67 €');
    if (javaScriptEnabled) {
      // Live: quantity 2 changes the price without a reload.
      await field(page, 'quantity').fill('2');
      await expect(summary.locator('[data-summary-price]')).not.toHaveText('20,67 €');
      await expect(summary.locator('[data-summary-price]')).toHaveText(await result(page, 'minimumPriceWithVat').innerText());
    }
    await summary.click();
    await expect(page).toHaveURL(/#ergebnis$/);
    await expect(page.getByRole('heading', { name: 'Mindestpreis', exact: true })).toBeInViewport();
  });

  test('without scripts "Berechnen" lands on the results', async ({ page, javaScriptEnabled }) => {
    test.skip(javaScriptEnabled, 'the submit button exists only without scripts');
    await page.goto('/calculator');
    await field(page, 'quantity').fill('3');
    await page.getByRole('button', { name: 'Berechnen' }).click();
    await expect(page).toHaveURL(/quantity=3.*#ergebnis$/);
    await expect(page.getByRole('heading', { name: 'Mindestpreis', exact: true })).toBeInViewport();
  });

  test('nothing scrolls sideways at 320 px', async ({ page, javaScriptEnabled }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/calculator?targetPrice=25');
    const main = page.locator('main');
    const overflow = await main.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.locator('[data-sticky-summary]')).toBeInViewport();
    void javaScriptEnabled;
  });

  test('on a desktop the summary is not shown', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/calculator');
    await expect(page.locator('[data-sticky-summary]')).toBeHidden();
  });
});

test.describe('Angemeldet', () => {
  test('on a 320 px phone the focused field scrolls into view above the price bar and the save button', async ({ page, signIn }) => {
    await page.setViewportSize({ width: 320, height: 568 });
    await signIn();
    await page.goto('/calculator');
    await field(page, 'quantity').focus();
    const hidden: string[] = [];
    // Moving from field to field (the keyboard's "Weiter"), as people fill the form on a phone.
    for (let step = 0; step < 14; step++) {
      await page.keyboard.press('Tab');
      const covered = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active || !active.matches('input:not([type=hidden]), select')) return null;
        const box = active.getBoundingClientRect();
        const overlays = [...document.querySelectorAll('[data-sticky-summary], [data-save-project-floating]')]
          .map((element) => element.getBoundingClientRect())
          .filter((other) => other.width > 0 && other.height > 0);
        const under = overlays.some((other) => box.left < other.right && box.right > other.left && box.top < other.bottom && box.bottom > other.top);
        return under || box.bottom > window.innerHeight ? (active as HTMLInputElement).name : null;
      });
      if (covered) hidden.push(covered);
    }
    expect(hidden).toEqual([]);
  });

  test('signed-in users get the save button, the image upload and the pickers, never a sign-in prompt', async ({ page, javaScriptEnabled, signIn }) => {
    await signIn();
    await page.goto('/profile');
    if (javaScriptEnabled) await page.getByRole('link', { name: 'Rechner' }).first().click();
    else await page.goto('/calculator');
    await expect(page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' })).toBeVisible();
    await expect(page.locator('main')).not.toContainText('Melden Sie sich an');
    await expect(page.locator('main').getByRole('link', { name: 'Anmelden' })).toHaveCount(0);
    // The placeholders of issue 8 are gone: projects (issue 12) and the library pickers (issue 11) are here.
    await expect(page.locator('[data-coming-soon]')).toHaveCount(0);
    await expect(page.locator('[data-save-project]')).toHaveText('Projekt speichern');
    await expect(page.locator('[data-product-image] input[type=file]')).toBeAttached();
    // An empty library points to where items are added.
    await expect(page.getByText('Keine aktiven Drucker verfügbar')).toBeVisible();
    await expect(page.getByText('Keine aktiven Marktplätze verfügbar')).toBeVisible();
  });

  test('the cost sheet names the seller from the profile', async ({ page, signIn }) => {
    // The fixture's user is Erika Muster.
    await signIn({ firstName: 'Erika' });
    await page.goto('/calculator?projectName=Vase');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('[data-print-seller]')).toHaveText('Erika Muster');
  });

  test('visitors are asked to sign in', async ({ page }) => {
    await page.goto('/calculator');
    await expect(page.getByText('Melden Sie sich an, um Projekte zu speichern.')).toBeVisible();
    await expect(page.locator('[data-coming-soon]')).toHaveCount(0);
  });
});

test.describe('Zielpreis', () => {
  test('the target price is net; the card shows the gross price and the fee rule', async ({ page, javaScriptEnabled }) => {
    await openCalculator(page, javaScriptEnabled);
    await expect(page.getByLabel('Zielpreis netto (ohne MwSt.)')).toBeVisible();
    await expect(page.locator('[data-target-fee-note]')).toContainText('ändert auch den angezeigten Mindestpreis');
    await setFields(page, javaScriptEnabled, { targetPrice: '25' });
    await expect(result(page, 'targetPrice')).toHaveText('25,00 €');
    // 25 € net + 19 % = 29,75 € a buyer pays; profit follows the spec: 25 − total costs.
    await expect(result(page, 'targetPriceGross')).toHaveText('29,75 €');
    await expect(page.getByText('Zielpreis brutto (inkl. 19 % MwSt.)')).toBeVisible();
  });

  test('the label does not wrap and its input lines up', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/calculator');
    const label = page.locator('label[for="field-targetPrice"]');
    const height = await label.evaluate((el) => el.getBoundingClientRect().height);
    const lineHeight = await label.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect(height).toBeLessThanOrEqual(lineHeight * 1.2);
    await page.setViewportSize({ width: 320, height: 640 });
    const narrow = await label.evaluate((el) => el.getBoundingClientRect().height);
    expect(narrow).toBeLessThanOrEqual(lineHeight * 1.2);
  });
});

test.describe('Rückmeldungen und Export', () => {
  test('reset shows "Formular zurückgesetzt"', async ({ page }) => {
    await page.goto('/calculator?filamentWeight=100');
    await page.getByRole('link', { name: 'Zurücksetzen' }).click();
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(page.locator('[data-toast]')).toContainText('Formular zurückgesetzt');
    await expect(field(page, 'filamentWeight')).toHaveValue('25');
  });

  test('with scripts the export is made in the browser, rounded, with a toast', async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, 'the no-JS export is covered in calculator.spec.ts');
    await page.goto('/calculator?filamentWeight=40');
    const serverCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/calculator/export')) serverCalls.push(request.url());
    });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportieren' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^druckpreis-kalkulation-\d{4}-\d{2}-\d{2}\.json$/);
    const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    const body = JSON.parse(text);
    expect(body.inputs.filamentWeight).toBe(40);
    expect(body.results.filamentCost).toBe(1);
    expect(body.results.powerCost).toBe(0.22); // 0.22400000000000003 unrounded
    expect(text).not.toMatch(/\d\.\d{7,}/);
    expect(serverCalls).toEqual([]);
    await expect(page.locator('[data-toast]')).toContainText('Export erfolgreich');
  });

  test('without scripts the export route rounds too', async ({ page, javaScriptEnabled }) => {
    test.skip(javaScriptEnabled, 'with scripts the browser builds the file');
    await page.goto('/calculator?filamentWeight=40');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportieren' }).click()]);
    const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8');
    expect(JSON.parse(text).results.powerCost).toBe(0.22);
    expect(text).not.toMatch(/\d\.\d{7,}/);
  });

  test('print shows "Drucken gestartet"', async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, 'the print button exists only with scripts');
    await page.goto('/calculator');
    await page.evaluate(() => {
      window.print = () => document.body.setAttribute('data-printed', '1');
    });
    await page.getByRole('button', { name: 'Drucken' }).click();
    await expect(page.locator('[data-toast]')).toContainText('Drucken gestartet');
    await expect(page.locator('body')).toHaveAttribute('data-printed', '1');
  });
});

test.describe('Kostenblatt', () => {
  test('inputs as money and units, no empty target card, caption in one piece', async ({ page }) => {
    await page.goto('/calculator?projectName=Vase&printerLifetimeHours=3.000');
    await page.emulateMedia({ media: 'print' });
    const input = (name: string) => page.locator(`[data-print-input="${name}"]`);
    await expect(input('packagingCost')).toHaveText('0,50 €');
    await expect(input('marketplaceFeeFixed')).toHaveText('0,30 €');
    await expect(input('printerLifetimeHours')).toHaveText('3.000 h');
    await expect(input('printTimeHours')).toHaveText('3 h 30 min');
    await expect(input('targetPrice')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Zielpreis-Analyse' })).toBeHidden();
    await expect(page.getByText('Geben Sie einen Zielpreis ein')).toBeHidden();
    const caption = page.locator('[data-minimum-price-caption] > span');
    await expect(caption).toHaveText(['Mindestpreis inkl. MwSt.', '· für 1 Stück']);
    for (const part of await caption.all()) {
      expect(await part.evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('nowrap');
    }
  });

  test('invalid input prints no figures', async ({ page }) => {
    await page.goto('/calculator?quantity=abc');
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('[data-print-sheet]')).toBeVisible();
    await expect(page.locator('[data-print-sheet]')).not.toContainText(/NaN|abc/);
    await expect(page.locator('[data-print-input]')).toHaveCount(0);
  });
});

test.describe('Kostendiagramm', () => {
  test('each bar has its label and amount as text', async ({ page }) => {
    await page.goto('/calculator');
    const bars = page.locator('[data-cost-bar]');
    await expect(bars).toHaveCount(6);
    await expect(page.locator('[data-cost-bar="labor"]')).toContainText('Arbeitszeit');
    await expect(page.locator('[data-cost-bar="labor"]')).toContainText('6,25 €');
    await expect(page.locator('[data-cost-bar="labor"]')).toContainText('45 % der Kosten');
    // Screen readers get name and amount as a term and its definition.
    await expect(page.getByRole('term').filter({ hasText: 'Arbeitszeit' }).first()).toBeVisible();
  });
});

test.describe('Rechenbeispiel der Startseite', () => {
  test('"Mit eigenen Werten berechnen" opens the calculator with the example', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('[data-example-assumptions]')).toContainText('Annahmen');
    await expect(page.locator('#beispiel')).toContainText('11,97 €');
    await page.getByRole('link', { name: 'Mit eigenen Werten berechnen' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' })).toBeVisible();
    // The landing page's figures, now in the calculator.
    await expect(result(page, 'targetPrice')).toHaveText('11,97 €');
    await expect(result(page, 'filamentCost')).toHaveText('0,45 €');
    await expect(result(page, 'laborCost')).toHaveText('2,50 €');
    await expect(result(page, 'shippingTotal')).toHaveText('5,35 €');
    await expect(field(page, 'printerLifetimeHours')).toHaveValue('8.000');
  });

  test('the fees-after-margin difference is said under the example and on the calculator opened from it (issue 24 §2)', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('#beispiel [data-example-fees-note]')).toHaveText(
      'Der Rechner nimmt die 10,5 % wie die Marktplätze vom Verkaufspreis und kommt mit denselben Werten auf 12,50 € netto.',
    );
    // The FAQ no longer promises a fee the example does not give.
    await expect(page.getByText('10,5 % vom Verkaufspreis')).toHaveCount(0);
    await page.getByRole('link', { name: 'Mit eigenen Werten berechnen' }).click();
    const note = page.locator('main [data-example-fees-note]');
    await expect(note).toContainText('Aus dem Rechenbeispiel');
    await expect(note).toContainText('11,97 €');
    // The note's figure is the calculator's own.
    await expect(result(page, 'minimumPrice')).toHaveText('12,50 €');
    await expect(result(page, 'minimumPriceWithVat')).toHaveText('14,88 €');
    // Only when opened from the example.
    await page.getByRole('banner').getByRole('link', { name: 'Rechner', exact: true }).click();
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(page.locator('main [data-example-fees-note]')).toHaveCount(0);
  });
});
