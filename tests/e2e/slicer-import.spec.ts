import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { PNG_BYTES, modelFile, prusaGcode, sliceInfo, zip } from '../fixtures/slicer/make';

const result = (page: Page, name: string) => page.locator(`[data-result="${name}"]`);
const field = (page: Page, name: string) => page.locator(`#calculator-form input[name="${name}"]`);

const ORCA_GCODE = {
  name: 'vase.gcode',
  mimeType: 'text/x-gcode',
  buffer: Buffer.from(prusaGcode({ generator: 'OrcaSlicer 2.2.0', grams: '20.3, 14.2', time: '2h 13m 30s', config: '; filament_type = PLA;PETG' })),
};
const TWO_PLATES = {
  name: 'halter.gcode.3mf',
  mimeType: 'application/octet-stream',
  buffer: Buffer.from(
    zip([
      { name: '3D/3dmodel.model', data: modelFile('BambuStudio-01.09.00.70') },
      {
        name: 'Metadata/slice_info.config',
        data: sliceInfo([
          { index: 1, prediction: 3600, weight: 10.5, filaments: [{ id: 1, type: 'PLA', grams: 10.5 }] },
          { index: 2, prediction: 1800, weight: 5.25, filaments: [{ id: 1, type: 'PLA', grams: 5.25 }] },
        ]),
      },
    ]),
  ),
};

/** Chooses the file; without scripts the import is a form post, so submit it. */
async function importFile(page: Page, javaScriptEnabled: boolean, file: { name: string; mimeType: string; buffer: Buffer }) {
  // Hydrated: the no-JS submit button is gone and choosing a file reads it in the browser.
  if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Übernehmen', exact: true })).toHaveCount(0);
  await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles(file);
  if (!javaScriptEnabled) {
    await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();
    await page.waitForLoadState('load');
  }
}

async function setFields(page: Page, javaScriptEnabled: boolean, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await field(page, name).fill(value);
  if (!javaScriptEnabled) {
    await page.getByRole('button', { name: 'Berechnen' }).click();
    await page.waitForLoadState('load');
  }
}

test.describe('Slicer-Import', () => {
  test('a G-code fills weight and print time, keeps the other inputs and the results change', async ({ page, javaScriptEnabled }) => {
    if (javaScriptEnabled) {
      await page.goto('/');
      await page.getByRole('banner').getByRole('link', { name: 'Rechner', exact: true }).click();
      await expect(page).toHaveURL(/\/calculator/);
    } else {
      await page.goto('/calculator');
    }
    await expect(result(page, 'filamentCost')).toHaveText('0,63 €');
    await setFields(page, javaScriptEnabled, { filamentPricePerKg: '20' });
    // Typed and not yet calculated: the import (a post of the calculator form without scripts) keeps it.
    await field(page, 'projectName').fill('Zahnrad');
    const posts: string[] = [];
    page.on('request', (request) => request.method() === 'POST' && posts.push(request.url()));
    await importFile(page, javaScriptEnabled, ORCA_GCODE);
    await expect(field(page, 'projectName')).toHaveValue('Zahnrad');

    await expect(page.locator('[data-slicer-info]')).toContainText('Aus Datei übernommen: OrcaSlicer 2.2.0 · 34,5 g · 2 h 14 min · 2 Filamente');
    // Issue 23: one line per filament the file used, each at the form's price (the notice asks to check it).
    await expect(field(page, 'filamentWeight')).toHaveValue('20,3');
    await expect(field(page, 'filamentLabel')).toHaveValue('PLA');
    await expect(field(page, 'filamentWeight2')).toHaveValue('14,2');
    await expect(field(page, 'filamentLabel2')).toHaveValue('PETG');
    await expect(field(page, 'filamentPricePerKg2')).toHaveValue('20');
    await expect(page.locator('[data-slicer-lines]')).toHaveText('Je Filament eine Zeile: PLA 20,3 g, PETG 14,2 g. Bitte prüfen Sie die Preise pro kg der Zeilen.');
    // 2 h 13 min 30 s is rounded up to the minute.
    await expect(field(page, 'printTimeHours')).toHaveValue('2');
    await expect(field(page, 'printTimeMinutes')).toHaveValue('14');
    await expect(field(page, 'filamentPricePerKg')).toHaveValue('20');
    // 34,5 g × 20 €/kg
    await expect(result(page, 'filamentCost')).toHaveText('0,69 €');
    // 2 h 14 min × 0,2 kW × 0,32 €/kWh = 0,143 €
    await expect(result(page, 'powerCost')).toHaveText('0,14 €');
    // With scripts the file is read in the browser, never uploaded; without, it is posted once.
    expect(posts).toHaveLength(javaScriptEnabled ? 0 : 1);
  });

  test('a .gcode.3mf with two plates sums them and lets one plate be chosen', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await importFile(page, javaScriptEnabled, TWO_PLATES);
    const info = page.locator('[data-slicer-info]');
    await expect(info).toContainText('Bambu Studio 1.9.0.70 · 15,75 g · 1 h 30 min');
    await expect(field(page, 'filamentWeight')).toHaveValue('15,75');
    await expect(field(page, 'printTimeHours')).toHaveValue('1');
    await expect(field(page, 'printTimeMinutes')).toHaveValue('30');
    await expect(result(page, 'filamentCost')).toHaveText('0,39 €'); // 15,75 g × 25 €/kg
    await expect(info.getByRole('link', { name: 'Alle Platten' })).toHaveAttribute('aria-current', 'true');

    await info.getByRole('link', { name: /^Platte 2/ }).click();
    await expect(field(page, 'filamentWeight')).toHaveValue('5,25');
    await expect(field(page, 'printTimeHours')).toHaveValue('0');
    await expect(field(page, 'printTimeMinutes')).toHaveValue('30');
    await expect(result(page, 'filamentCost')).toHaveText('0,13 €');
    await expect(page.locator('[data-slicer-info]').getByRole('link', { name: /^Platte 2/ })).toHaveAttribute('aria-current', 'true');
  });

  test('a .gcode.3mf with several filaments says in German that its purge is not included', async ({ page, javaScriptEnabled }) => {
    const ams = {
      name: 'drache.gcode.3mf',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(
        zip([
          { name: '3D/3dmodel.model', data: modelFile('BambuStudio-01.09.00.70') },
          {
            name: 'Metadata/slice_info.config',
            data: sliceInfo([{ index: 1, prediction: 3600, weight: 9, filaments: [{ id: 1, type: 'PLA', grams: 6, color: '#FFFFFF' }, { id: 2, type: 'PETG', grams: 3 }] }]),
          },
        ]),
      ),
    };
    await page.goto('/calculator');
    await importFile(page, javaScriptEnabled, ams);
    await expect(page.locator('[data-slicer-info]')).toContainText('9 g');
    await expect(page.locator('[data-filament-line]')).toHaveCount(1);
    await expect(page.locator('[data-slicer-purge]')).toHaveText(
      'Spülmenge nicht enthalten: Eine .gcode.3mf-Datei nennt keine Zahl der Filamentwechsel, daher lässt sich die Spülmenge beim Filamentwechsel für dieses Format nicht berechnen. Die Gewichte sind die der Datei – bitte vergleichen Sie sie mit der Anzeige Ihres Slicers und passen Sie sie bei Bedarf an.',
    );
    // The weights are the file's: 6 g + 3 g.
    await expect(field(page, 'filamentWeight')).toHaveValue('6');
    await expect(field(page, 'filamentWeight2')).toHaveValue('3');
  });

  test('a bad file shows the German message and changes nothing', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await importFile(page, javaScriptEnabled, { name: 'foto.gcode', mimeType: 'text/x-gcode', buffer: Buffer.from(PNG_BYTES) });
    await expect(page.locator('[data-slicer-error]')).toHaveText(/Das ist ein Bild, keine Slicer-Datei/);
    await expect(field(page, 'filamentWeight')).toHaveValue('25');
    await importFile(page, javaScriptEnabled, { name: 'leer.gcode', mimeType: 'text/x-gcode', buffer: Buffer.from('G28\nG1 X10 Y10 E1\n') });
    await expect(page.locator('[data-slicer-error]')).toHaveText(/fehlen Filamentmenge und Druckzeit/);
    await expect(result(page, 'filamentCost')).toHaveText('0,63 €');
  });

  test('a print time over 99 h 59 min fills the maximum and says so; the page still calculates', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    const long = { name: 'gross.gcode', mimeType: 'text/x-gcode', buffer: Buffer.from(prusaGcode({ grams: '480.5', time: '5d 2h 5m 0s' })) };
    await importFile(page, javaScriptEnabled, long);
    await expect(field(page, 'filamentWeight')).toHaveValue('480,5');
    await expect(field(page, 'printTimeHours')).toHaveValue('99');
    await expect(field(page, 'printTimeMinutes')).toHaveValue('59');
    await expect(page.locator('[data-slicer-time-capped]')).toHaveText(
      'Die Druckzeit laut Datei (122 h 5 min) ist länger als die höchstens möglichen 99 h 59 min. Eingetragen sind 99 h 59 min – Strom- und Verschleißkosten fallen damit zu niedrig aus. Bitte prüfen Sie die Druckzeit.',
    );
    // No range error in place of the results: 480,5 g × 25 €/kg.
    await expect(page.locator('[data-field-error="printTimeHours"]')).toHaveCount(0);
    await expect(result(page, 'filamentCost')).toHaveText('12,01 €');
  });
});

test.describe('POST /api/slicer/parse', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'an API call, the same in both projects');

  test('answers the summary, or 400 with a German message, and refuses GET', async ({ request }) => {
    const okResponse = await request.post('/api/slicer/parse', { multipart: { file: ORCA_GCODE } });
    expect(okResponse.status()).toBe(200);
    expect(await okResponse.json()).toMatchObject({ slicer: 'OrcaSlicer', slicerVersion: '2.2.0', filamentGrams: 34.5, printSeconds: 8010 });
    const bad = await request.post('/api/slicer/parse', { multipart: { file: { name: 'x.3mf', mimeType: 'application/zip', buffer: TWO_PLATES.buffer.subarray(0, 200) } } });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).message).toMatch(/unvollständig oder beschädigt/);
    const missing = await request.post('/api/slicer/parse', { multipart: { other: 'x' } });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).message).toBe('Bitte wählen Sie eine Slicer-Datei aus.');
    expect((await request.get('/api/slicer/parse')).status()).toBe(405);
  });
});

test.describe('Fehldruckrate und Kleinunternehmer', () => {
  test('the failure rate raises filament, power and wear; 100 % is refused', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await setFields(page, javaScriptEnabled, { failureRate: '20' });
    // Defaults ÷ 0,8: 0,625 € → 0,78 €, 0,224 € → 0,28 €, 0,35 € → 0,44 €
    await expect(result(page, 'filamentCost')).toHaveText('0,78 €');
    await expect(result(page, 'powerCost')).toHaveText('0,28 €');
    await expect(result(page, 'depreciationCost')).toHaveText('0,44 €');
    await expect(result(page, 'failureSurcharge')).toHaveText('0,30 €');
    await expect(page).toHaveURL(/failureRate=20/);
    await setFields(page, javaScriptEnabled, { failureRate: '100' });
    await expect(page.getByText('Die Fehldruckrate muss mindestens 0 % und kleiner als 100 % sein')).toBeVisible();
    // No result without scripts; with them the last valid one stays, dimmed, under the hint (issue 24 §2).
    if (javaScriptEnabled) await expect(page.locator('[data-results-held]')).toBeVisible();
    else await expect(result(page, 'minimumPrice')).toHaveCount(0);
  });

  test('§ 19 UStG: no VAT line, the legal note, the link and the export carry both fields', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator?failureRate=10');
    await expect(result(page, 'vatAmount')).toHaveText('3,33 €');
    await page.getByLabel('Kleinunternehmer (§ 19 UStG)').check();
    if (!javaScriptEnabled) {
      await page.getByRole('button', { name: 'Berechnen' }).click();
      await page.waitForLoadState('load');
    }
    await expect(result(page, 'vatAmount')).toHaveCount(0);
    await expect(page.getByText('Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.')).toBeVisible();
    await expect(result(page, 'minimumPriceWithVat')).toHaveText(await result(page, 'minimumPrice').innerText());
    await expect(page).toHaveURL(/failureRate=10.*smallBusiness=on|smallBusiness=on.*failureRate=10/);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportieren' }).click()]);
    const body = JSON.parse(Buffer.concat(await (await download.createReadStream()).toArray()).toString('utf8'));
    expect(body.inputs).toMatchObject({ failureRate: 10, smallBusiness: true });
    expect(body.results.vatAmount).toBe(0);

    // VAT quick choices: the browser's own list under the field, 19 % and 7 %.
    await expect(field(page, 'vatPercent')).toHaveAttribute('list', 'field-vatPercent-choices');
    await expect(page.locator('#field-vatPercent-choices option')).toHaveCount(2);
    expect(await page.locator('#field-vatPercent-choices option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['19', '7']);
    await page.getByLabel('Kleinunternehmer (§ 19 UStG)').uncheck();
    await setFields(page, javaScriptEnabled, { vatPercent: '7' });
    await expect(page.getByText('MwSt. (7\u00a0%)')).toBeVisible();
    await expect(page.getByText('Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.')).toHaveCount(0);
  });
});

test.describe('Slicer-Import auf dem Telefon', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('the drop zone, the notice and the plate choices fit 320 px', async ({ page, javaScriptEnabled }) => {
    await page.goto('/calculator');
    await importFile(page, javaScriptEnabled, TWO_PLATES);
    await expect(page.locator('[data-slicer-info]').getByRole('link', { name: /^Platte 2/ })).toBeVisible();
    await expect(page.getByLabel('Aus Slicer-Datei übernehmen')).toBeVisible();
    // The import's own boxes (the site header's menu is another matter).
    const rightEdges = await page.evaluate(() =>
      [...document.querySelectorAll('[data-slicer-import], [data-slicer-import] *')].map((element) => element.getBoundingClientRect().right),
    );
    expect(rightEdges.length).toBeGreaterThan(5);
    expect(Math.max(...rightEdges)).toBeLessThanOrEqual(320);
  });
});
