import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { prusaGcode } from '../fixtures/slicer/make';

/*
 * Issue 23 leftover, in both projects: a calculation with three filament lines takes a
 * one-filament G-code; the file's one line replaces them, and the notice says in German
 * that the further lines were removed.
 */

const field = (page: Page, name: string) => page.locator(`#calculator-form input[name="${name}"]`);

const ONE_FILAMENT = {
  name: 'haken.gcode',
  mimeType: 'text/x-gcode',
  buffer: Buffer.from(prusaGcode({ grams: '12.34', time: '1h 2m 3s' })),
};

/** Chooses the file; with scripts it is read in the browser, without the calculator form is posted with it. */
async function importOneFilament(page: Page, javaScriptEnabled: boolean) {
  // Hydrated: the no-JS submit button is gone and choosing a file reads it in the browser.
  if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Übernehmen', exact: true })).toHaveCount(0);
  await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles(ONE_FILAMENT);
  if (!javaScriptEnabled) {
    await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();
    await page.waitForLoadState('load');
  }
}

test('a one-filament file over three filament lines says the two others were removed', async ({ page, javaScriptEnabled }) => {
  await page.goto('/calculator?filamentWeight=30&filamentPricePerKg=20&filamentWeight2=12,5&filamentPricePerKg2=31,5&filamentWeight3=4&filamentPricePerKg3=40&filamentLines=3');
  await expect(field(page, 'filamentWeight3')).toHaveValue('4');
  await importOneFilament(page, javaScriptEnabled);

  await expect(page.locator('[data-slicer-info]')).toContainText('Aus Datei übernommen: PrusaSlicer 2.7.1 · 12,34 g · 1 h 3 min · 1 Filament');
  await expect(page.locator('[data-slicer-lines]')).toHaveText('Die Datei nennt ein Filament: Die 2 weiteren Filamentzeilen wurden entfernt.');
  await expect(page.locator('[data-slicer-info]')).toHaveAttribute('role', 'status');
  await expect(field(page, 'filamentWeight')).toHaveValue('12,34');
  await expect(field(page, 'filamentPricePerKg')).toHaveValue('20');
  await expect(field(page, 'filamentWeight2')).toHaveCount(0);
  await expect(field(page, 'filamentWeight3')).toHaveCount(0);
});

test('a one-filament file over one line says nothing about lines', async ({ page, javaScriptEnabled }) => {
  await page.goto('/calculator?filamentWeight=30&filamentPricePerKg=20');
  await importOneFilament(page, javaScriptEnabled);
  await expect(page.locator('[data-slicer-info]')).toContainText('Aus Datei übernommen: PrusaSlicer 2.7.1 · 12,34 g · 1 h 3 min · 1 Filament');
  await expect(page.locator('[data-slicer-lines]')).toHaveCount(0);
});
