import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { bambuGcode } from '../fixtures/slicer/make';

/*
 * Several filaments per print (issue 23), the library's part, with JavaScript and without:
 * a multi-filament slicer import takes the seller's one fitting library filament per line
 * and says where several or none fit; line 1's 'Automatisch übernommen' names its line;
 * the results and the print sheet name each line (by its library filament) and list them all.
 */

/**
 * By the header's link from another page, as a seller arrives; with scripts, until the page is hydrated.
 * Not from '/': a signed-in seller's '/' is the calculator already (a redirect), and the link then
 * reloads the same page while the test types.
 */
async function openCalculator(page: Page, javaScriptEnabled: boolean) {
  await page.goto('/impressum');
  // With scripts the click is a client-side navigation: a click before the router is there would be a full load.
  if (javaScriptEnabled) await page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter));
  await page.locator('header').getByRole('link', { name: 'Rechner', exact: true }).first().click();
  await expect(page).toHaveURL(/\/calculator$/);
  await expect(page.getByRole('heading', { level: 1, name: '3D-Druck Kostenrechner' })).toBeVisible();
  // The calculator renders the no-JS 'Berechnen' button only until it is hydrated.
  if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Berechnen' })).toHaveCount(0);
}

/** A new calculation by its address; with scripts, until the page is hydrated. */
async function openFresh(page: Page, javaScriptEnabled: boolean) {
  await page.goto('/calculator');
  if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Berechnen' })).toHaveCount(0);
}

async function createFilament(page: Page, data: Record<string, string | number>) {
  const response = await page.request.post('/api/filaments', { data });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A Bambu Studio AMS print: white PLA, red PETG, black TPU (the header and config lines the reader knows). */
const amsFile = {
  name: 'drache-ams.gcode',
  mimeType: 'text/x-gcode',
  buffer: Buffer.from(
    bambuGcode({
      extra: [
        '; CONFIG_BLOCK_START',
        '; filament used [g] = 20.00, 10.00, 4.00',
        '; filament_type = PLA;PETG;TPU',
        '; filament_colour = #FFFFFF;#C12E1F;#1A1A1A',
        '; filament_vendor = "Bambu Lab";Generic;Generic',
        '; CONFIG_BLOCK_END',
      ].join('\n'),
    }),
  ),
};

test.describe('Mehrere Filamente und die Bibliothek', () => {
  test('a multi-filament import chooses the one fitting library filament per line and says where several or none fit', async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    const white = await createFilament(page, { name: 'Jade White', brand: 'Bambu Lab', material: 'PLA', color: 'Weiß', pricePerKg: 24.99 });
    await createFilament(page, { name: 'PLA Schwarz', material: 'PLA', color: 'Schwarz', pricePerKg: 19.9 });
    await createFilament(page, { name: 'PETG Signalrot', material: 'PETG', color: 'Signalrot', pricePerKg: 22 });
    await createFilament(page, { name: 'PETG Rot günstig', material: 'PETG', color: 'Rot', pricePerKg: 18 });
    // Inactive filaments are never chosen: the TPU line finds none.
    await createFilament(page, { name: 'TPU alt', material: 'TPU', color: 'Schwarz', pricePerKg: 40, isActive: 0 });

    await openCalculator(page, javaScriptEnabled);
    await page.getByLabel('Filamentpreis', { exact: true }).fill('21');
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('21');
    await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles(amsFile);
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();

    await expect(page.locator('[data-filament-line]')).toHaveCount(2);
    // Line 1: the white PLA, its price and the picker set to it.
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('24,99');
    await expect(page.getByLabel('Filament auswählen')).toHaveValue(white);
    await expect(page.getByLabel('Filament 1: Bezeichnung')).toHaveValue('PLA Weiß');
    // Line 2: two red PETGs fit, none is chosen, the form's price stays; line 3: no active TPU.
    await expect(page.getByLabel('Preis pro kg (Filament 2)')).toHaveValue('21');
    await expect(page.getByLabel('Aus der Bibliothek (Filament 2)')).toHaveValue('');
    await expect(page.getByLabel('Bezeichnung (Filament 2)')).toHaveValue('PETG Rot');
    await expect(page.getByLabel('Preis pro kg (Filament 3)')).toHaveValue('21');

    // One text line per filament line.
    const notice = await page.locator('[data-slicer-lines]').innerText();
    expect(notice.split('\n')).toEqual([
      'Je Filament eine Zeile:',
      'Filament 1 (PLA, 20 g): „Jade White“ aus Ihrer Bibliothek gewählt, 24,99 € pro kg.',
      'Filament 2 (PETG, 10 g): 2 passende Filamente in Ihrer Bibliothek – bitte wählen Sie eines aus und prüfen Sie den Preis pro kg.',
      'Filament 3 (TPU, 4 g): kein passendes aktives Filament in Ihrer Bibliothek – bitte prüfen Sie den Preis pro kg.',
    ]);

    // 20 g × 24,99 + 10 g × 21 + 4 g × 21 = 0,4998 + 0,21 + 0,084
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,79 €');
    // The results name line 1 by its library filament (and the label the import gave it).
    await expect(page.locator('[data-filament-cost-line="1"]')).toContainText('Jade White (PLA Weiß) · 20 g');
    await expect(page.locator('[data-filament-cost-line="2"]')).toContainText('PETG Rot · 10 g');
  });

  test("line 1's library filament: 'Automatisch übernommen für Filament 1'; results and print sheet name every line", async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    await createFilament(page, { name: 'Prusament Galaxy Black', material: 'PLA', pricePerKg: 30 });
    await createFilament(page, { name: 'PETG Orange', material: 'PETG', pricePerKg: 20 });
    await openCalculator(page, javaScriptEnabled);

    await page.getByLabel('Filament auswählen').selectOption({ label: 'Prusament Galaxy Black' });
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Filament übernehmen' }).click();
    await expect(page.locator('[data-picker="filament"] [data-picker-applied]')).toContainText('Automatisch übernommen für Filament 1');
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('30,00');

    await page.getByRole('button', { name: 'Filament hinzufügen' }).click();
    await expect(page.locator('[data-filament-line]')).toHaveCount(1);
    await page.getByLabel('Gewicht pro Stück (Filament 2)').fill('10');
    await page.getByLabel('Aus der Bibliothek (Filament 2)').selectOption({ label: 'PETG Orange' });
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Filament aus der Bibliothek für Filament 2 übernehmen' }).click();
    await expect(page.getByLabel('Preis pro kg (Filament 2)')).toHaveValue('20,00');

    // Named by their library filaments, not 'Filament 1' / 'Filament 2'.
    await expect(page.locator('[data-filament-cost-line="1"]')).toContainText('Prusament Galaxy Black · 25 g');
    await expect(page.locator('[data-filament-cost-line="2"]')).toContainText('PETG Orange · 10 g');

    // The print sheet's inputs list every line (not only line 1's weight and price).
    await page.emulateMedia({ media: 'print' });
    const sheet = page.locator('[data-print-sheet]');
    await expect(sheet).toBeVisible();
    await expect(sheet.locator('[data-print-input="filamentWeight"]')).toHaveCount(0);
    await expect(sheet.locator('[data-print-filament-line]')).toHaveCount(2);
    await expect(sheet.locator('[data-print-filament-lines] dt')).toHaveText('Filament');
    await expect(sheet.locator('[data-print-filament-line="1"]')).toHaveText(/^Prusament Galaxy Black · 25 g\s*30,00\s€\/kg$/);
    await expect(sheet.locator('[data-print-filament-line="2"]')).toHaveText(/^PETG Orange · 10 g\s*20,00\s€\/kg$/);
    await expect(page.locator('[data-filament-cost-line="2"]')).toBeVisible();
  });

  test('a one-filament import chooses its one fitting library filament for line 1 and says so; otherwise as before', async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    const white = await createFilament(page, { name: 'Jade White', brand: 'Bambu Lab', material: 'PLA', color: 'Weiß', pricePerKg: 24.99 });
    await createFilament(page, { name: 'PLA Schwarz', material: 'PLA', color: 'Schwarz', pricePerKg: 19.9 });
    await createFilament(page, { name: 'PETG Signalrot', material: 'PETG', color: 'Signalrot', pricePerKg: 22 });
    await createFilament(page, { name: 'PETG Rot günstig', material: 'PETG', color: 'Rot', pricePerKg: 18 });
    const oneFilament = (type: string, colour: string) => ({
      name: `figur-${type}.gcode`,
      mimeType: 'text/x-gcode',
      buffer: Buffer.from(
        bambuGcode({
          extra: ['; CONFIG_BLOCK_START', '; filament used [g] = 12.50', `; filament_type = ${type}`, `; filament_colour = ${colour}`, '; CONFIG_BLOCK_END'].join('\n'),
        }),
      ),
    });

    await openFresh(page, javaScriptEnabled);
    await page.getByLabel('Filamentpreis', { exact: true }).fill('21');
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('21');
    await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles(oneFilament('PLA', '#FFFFFF'));
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();
    await expect(page.locator('[data-slicer-lines]')).toHaveText('Filament (PLA, 12,5 g): „Jade White“ aus Ihrer Bibliothek gewählt, 24,99 € pro kg.');
    await expect(page.locator('[data-filament-line]')).toHaveCount(0);
    await expect(page.getByLabel('Filamentgewicht', { exact: true })).toHaveValue('12,5');
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('24,99');
    await expect(page.getByLabel('Filament auswählen')).toHaveValue(white);
    // 12,5 g × 24,99 €/kg
    await expect(page.locator('[data-result="filamentCost"]')).toHaveText('0,31 €');

    // A new calculation, two red PETGs fit: nothing is chosen, the price stays, the notice is as before.
    await openFresh(page, javaScriptEnabled);
    await page.getByLabel('Filamentpreis', { exact: true }).fill('21');
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('21');
    await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles(oneFilament('PETG', '#C12E1F'));
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();
    await expect(page.locator('[data-slicer-info]')).toContainText('12,5 g');
    await expect(page.locator('[data-slicer-lines]')).toHaveCount(0);
    await expect(page.getByLabel('Filamentpreis', { exact: true })).toHaveValue('21');
    await expect(page.getByLabel('Filament auswählen')).toHaveValue('');
  });
});
