import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { prusaGcode } from '../fixtures/slicer/make';

/*
 * Several filaments in one print (issue 23), with JavaScript and without: add and
 * remove lines, a library filament per line, save and reopen, the cost overview /
 * print sheet with the lines, a 320 px phone.
 */

function lines(page: Page) {
  return page.locator('[data-filament-line]');
}

async function addLine(page: Page) {
  const before = await lines(page).count();
  await page.getByRole('button', { name: 'Filament hinzufügen' }).click();
  await expect(lines(page)).toHaveCount(before + 1);
}

/** Without JavaScript the results are the server's: submit the form. */
async function calculate(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Berechnen' }).click();
}

test.describe('Mehrere Filamente', () => {
  test('add, fill and remove lines; the filament cost covers every line and the overview lists them', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await expect(lines(page)).toHaveCount(0);
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,63 €');

    await addLine(page);
    await addLine(page);
    // Labels name their line (screen readers).
    await page.getByLabel('Bezeichnung (Filament 2)').fill('Flügel');
    await page.getByLabel('Gewicht pro Stück (Filament 2)').fill('15');
    await page.getByLabel('Preis pro kg (Filament 2)').fill('25');
    await page.getByLabel('Bezeichnung (Filament 3)').fill('Augen');
    await page.getByLabel('Gewicht pro Stück (Filament 3)').fill('2');
    await page.getByLabel('Preis pro kg (Filament 3)').fill('50');
    await page.getByLabel('Filament 1: Bezeichnung').fill('Körper');
    await calculate(page, javaScriptEnabled);
    // 25 g × 25 €/kg + 15 g × 25 €/kg + 2 g × 50 €/kg = 0,625 + 0,375 + 0,10
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('1,10 €');
    const costLines = page.locator('[data-filament-cost-line]');
    await expect(costLines).toHaveCount(3);
    await expect(costLines.nth(0)).toContainText('Körper · 25 g');
    await expect(costLines.nth(1)).toContainText('Flügel · 15 g');
    await expect(costLines.nth(1)).toContainText('0,38 €');
    await expect(costLines.nth(2)).toContainText('Augen · 2 g');

    // Remove line 2: line 3 moves up with what was typed, the figures follow.
    await page.getByRole('button', { name: 'Filament 2 entfernen' }).click();
    await expect(lines(page)).toHaveCount(1);
    await expect(page.getByLabel('Bezeichnung (Filament 2)')).toHaveValue('Augen');
    await expect(page.getByLabel('Gewicht pro Stück (Filament 2)')).toHaveValue('2');
    await expect(page.getByLabel('Filament 1: Bezeichnung')).toHaveValue('Körper');
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,73 €');

    // The address is the calculation: opened anew, the same lines.
    if (javaScriptEnabled) await expect(page).toHaveURL(/filamentWeight2=2/);
    await page.goto(page.url());
    await expect(page.getByLabel('Preis pro kg (Filament 2)')).toHaveValue('50');
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,73 €');

    // Line 1 has no remove button; the last extra line can go.
    await expect(page.getByRole('button', { name: 'Filament 1 entfernen' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Filament 2 entfernen' }).click();
    await expect(lines(page)).toHaveCount(0);
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,63 €');
    await expect(page.locator('[data-filament-cost-line]')).toHaveCount(0);
  });

  test('an invalid line shows its German message next to it', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await addLine(page);
    await page.getByLabel('Gewicht pro Stück (Filament 2)').fill('abc');
    await page.getByLabel('Projektname').click();
    await calculate(page, javaScriptEnabled);
    await expect(page.locator('[data-field-error="filamentWeight2"]')).toHaveText('Bitte geben Sie eine Zahl ein');
  });

  test('a library filament per line, save and reopen', async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    const created = await page.request.post('/api/filaments', { data: { name: 'PETG Rot', material: 'PETG', pricePerKg: 31.5 } });
    expect(created.status()).toBe(201);
    await page.goto('/calculator');
    await addLine(page);
    await page.getByLabel('Gewicht pro Stück (Filament 2)').fill('12');
    await page.getByLabel('Aus der Bibliothek (Filament 2)').selectOption({ label: 'PETG Rot' });
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Filament aus der Bibliothek für Filament 2 übernehmen' }).click();
    await expect(page.locator('[data-line-applied="2"]')).toContainText('Automatisch übernommen für Filament 2');
    await expect(page.locator('[data-line-applied="2"]')).toContainText('PETG Rot: 31,50 €/kg');
    await expect(page.getByLabel('Preis pro kg (Filament 2)')).toHaveValue('31,50');
    await expect(page.getByLabel('Gewicht pro Stück (Filament 2)')).toHaveValue('12');

    await page.getByLabel('Projektname').fill('Drache zweifarbig');
    await page.locator('[data-save-project]').click();
    await expect(page).toHaveURL(/\/calculator\?project=[0-9a-f-]{36}(#projekt-speichern)?$/);
    await expect(page.getByLabel('Gewicht pro Stück (Filament 2)')).toHaveValue('12');
    await expect(page.getByLabel('Preis pro kg (Filament 2)')).toHaveValue('31,50');
    await expect(page.getByLabel('Aus der Bibliothek (Filament 2)')).toHaveValue(((await created.json()) as { id: string }).id);
    const projects = (await (await page.request.get('/api/projects')).json()) as Array<{ filaments: unknown[]; filamentWeight: number }>;
    expect(projects[0].filaments).toHaveLength(2);
    expect(projects[0].filamentWeight).toBe(37);
  });

  test("a saved 3-line project taken back to one line: its link reopens one line, not the saved three", async ({ page, signIn }) => {
    await signIn();
    const created = await page.request.post('/api/projects', {
      data: {
        name: 'Drache dreifarbig',
        quantity: 1,
        printTime: 1,
        filaments: [
          // Line 1 without a label: then only the line count tells the address's one line from an old link.
          { grams: 30, pricePerKg: 20 },
          { label: 'Flügel', grams: 10, pricePerKg: 60 },
          { label: 'Augen', grams: 2, pricePerKg: 45 },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.goto(`/calculator?project=${id}`);
    await expect(lines(page)).toHaveCount(2);
    // 30 g × 20 €/kg + 10 g × 60 €/kg + 2 g × 45 €/kg
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('1,29 €');

    await page.getByRole('button', { name: 'Filament 3 entfernen' }).click();
    await expect(lines(page)).toHaveCount(1);
    await page.getByRole('button', { name: 'Filament 2 entfernen' }).click();
    await expect(lines(page)).toHaveCount(0);
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,60 €');
    // The address says "one line" (with JavaScript the live draft, without the answer to 'Entfernen').
    await expect(page).toHaveURL(new RegExp(`filamentLines=1.*project=${id}|project=${id}.*filamentLines=1`));

    // Reloaded, and followed in a new tab: one line, the saved lines stay out.
    await page.goto(page.url());
    await expect(page.getByLabel('Filament 1: Bezeichnung')).toHaveValue('');
    await expect(lines(page)).toHaveCount(0);
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,60 €');
    const other = await page.context().newPage();
    await other.goto(page.url());
    await expect(other.locator('[data-filament-line]')).toHaveCount(0);
    await expect(other.locator('[data-result="filamentCost"]')).toHaveText('0,60 €');
    await other.close();
    // The project itself is unchanged until it is saved.
    const saved = (await (await page.request.get(`/api/projects/${id}`)).json()) as { filaments: unknown[] };
    expect(saved.filaments).toHaveLength(3);
  });

  test('the print sheet lists the lines; a 320 px phone shows them without sideways scrolling', async ({ page }) => {
    const address = '/calculator?filamentWeight=20&filamentLabel=Weiß&filamentWeight2=5&filamentPricePerKg2=40&filamentLabel2=Seidenglanz%20Gold%20Kupfer';
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto(address);
    await expect(lines(page)).toHaveCount(1);
    const overflow = await page.locator('main').evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const line = await page.locator('[data-filament-line="2"]').boundingBox();
    expect(line!.x + line!.width).toBeLessThanOrEqual(320);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(address);
    await page.emulateMedia({ media: 'print' });
    const costLines = page.locator('[data-filament-cost-line]');
    await expect(costLines).toHaveCount(2);
    await expect(costLines.nth(1)).toBeVisible();
    await expect(costLines.nth(1)).toContainText('Seidenglanz Gold Kupfer · 5 g');
    await expect(page.locator('[data-filament-lines]')).toBeHidden();
  });

  test('a PrusaSlicer MMU file fills one line per filament, names the wipe tower and keeps the form\'s price', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator?filamentPricePerKg=21');
    const file = {
      name: 'drache-mmu.gcode',
      mimeType: 'text/x-gcode',
      buffer: Buffer.from(
        prusaGcode({ grams: '30.00, 0.00, 12.50, 2.25', time: '3h 0m 0s', config: '; filament_type = PLA;PLA;PETG;TPU\n; total filament used for wipe tower [g] = 4.10' }),
      ),
    };
    if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Übernehmen', exact: true })).toHaveCount(0);
    await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles(file);
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();
    await expect(lines(page)).toHaveCount(2);
    await expect(page.getByLabel('Filament 1: Bezeichnung')).toHaveValue('PLA');
    await expect(page.getByLabel('Gewicht pro Stück (Filament 2)')).toHaveValue('12,5');
    await expect(page.getByLabel('Bezeichnung (Filament 3)')).toHaveValue('TPU');
    await expect(page.getByLabel('Preis pro kg (Filament 3)')).toHaveValue('21');
    await expect(page.locator('[data-slicer-lines]')).toContainText('PLA 30 g, PETG 12,5 g, TPU 2,25 g');
    await expect(page.locator('[data-slicer-purge]')).toHaveText('Darin enthalten: 4,1 g für Reinigungsturm und Spülen (gekauftes Filament).');
    // 44,75 g × 21 €/kg
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,94 €');
    await expect(page.locator('[data-filament-cost-line]')).toHaveCount(3);
  });
});
