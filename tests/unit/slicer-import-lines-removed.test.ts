import { describe, expect, it } from 'vitest';
import { lineTextsOf, rawValuesFromSearchParams } from '../../app/calculator/fields';
import { getServerT } from '../../app/i18n.server';
import { importNoticeFromParams, importNoticeToParams, removedLineCount, withFormLines } from '../../app/slicer/import-link';
import { slicerNoticeView } from '../../app/slicer/import-view';
import type { SlicerSummary } from '../../app/slicer/types';
import { slicerImportRedirect } from '../../app/web/slicer-upload.server';

/*
 * Issue 23 leftover: a slicer file's lines replace the calculation's filament lines. When the file
 * fills fewer lines than the seller had (a one-filament file over three lines), the others are
 * removed; the import notice says so in German instead of dropping them without a word.
 */

const THREE_LINES = {
  projectName: 'Drache',
  filamentWeight: '30',
  filamentPricePerKg: '20',
  filamentLabel: 'Körper',
  filamentWeight2: '12,5',
  filamentPricePerKg2: '31,5',
  filamentLabel2: 'Rot',
  filamentWeight3: '4',
  filamentPricePerKg3: '40',
  filamentLabel3: 'Gold',
};

const summary = (grams: number[]): SlicerSummary => ({
  slicer: 'PrusaSlicer',
  slicerVersion: '2.8.1',
  filamentGrams: grams.reduce((sum, g) => sum + g, 0),
  printSeconds: 3600,
  perExtruder: grams.map((filamentGrams) => ({ filamentGrams })),
  warnings: [],
});

/** The no-JS import's answer (a visitor: no library) and the notice the calculator shows for it. */
async function importOver(fields: Record<string, string>, grams: number[]) {
  const response = await slicerImportRedirect({ status: 'ok', summary: summary(grams), fields }, { em: null as never, user: null });
  expect(response.status).toBe(303);
  const target = new URL(response.headers.get('Location')!, 'http://localhost');
  const t = await getServerT(['calculator', 'filament-lines']);
  const notice = slicerNoticeView(target.searchParams, t as never);
  if (notice?.kind !== 'info') throw new Error('no import notice');
  return { target, lines: lineTextsOf(rawValuesFromSearchParams(target.searchParams)), text: notice.view.lines ?? '' };
}

describe('a slicer import over more filament lines than the file fills', () => {
  it('a one-filament file over three lines: one line left, and the notice says the two others were removed', async () => {
    const { target, lines, text } = await importOver(THREE_LINES, [12.34]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ grams: '12,34', pricePerKg: '20' });
    expect(target.searchParams.get('slicerFormLines')).toBe('3');
    expect(text).toBe('Die Datei nennt ein Filament: Die 2 weiteren Filamentzeilen wurden entfernt.');
  });

  it('one further line removed: singular', async () => {
    const { filamentWeight3: _w, filamentPricePerKg3: _p, filamentLabel3: _l, ...twoLines } = THREE_LINES;
    const { lines, text } = await importOver(twoLines, [12.34]);
    expect(lines).toHaveLength(1);
    expect(text).toBe('Die Datei nennt ein Filament: Die weitere Filamentzeile wurde entfernt.');
  });

  it('a two-filament file over three lines names what the file has', async () => {
    const { lines, text } = await importOver(THREE_LINES, [10, 5]);
    expect(lines).toHaveLength(2);
    expect(text.split('\n')[0]).toBe('Die Datei nennt 2 Filamente: Die weitere Filamentzeile wurde entfernt.');
  });

  it('nothing removed, nothing said: one line before, or as many lines as the file', async () => {
    const one = await importOver({ filamentWeight: '30', filamentPricePerKg: '20' }, [12.34]);
    expect(one.target.searchParams.has('slicerFormLines')).toBe(false);
    expect(one.text).toBe('');
    const { filamentWeight3: _w, filamentPricePerKg3: _p, filamentLabel3: _l, ...twoLines } = THREE_LINES;
    const two = await importOver(twoLines, [10, 5]);
    expect(two.text).not.toContain('entfernt');
  });

  it('a plate chosen from a multi-plate project fills one line: said for the plate', async () => {
    const info = withFormLines(
      { slicer: 'BambuStudio', version: null, grams: 15.75, seconds: 5400, filaments: 2, plates: [{ index: 1, filamentGrams: 10.5, printSeconds: 3600 }, { index: 2, filamentGrams: 5.25, printSeconds: 1800 }], plate: 1, lines: [{ grams: 10, material: 'PLA' }, { grams: 5.75, material: 'PETG' }], warnings: [] },
      3,
    );
    expect(removedLineCount(info)).toBe(2);
    const t = await getServerT(['calculator', 'filament-lines']);
    const notice = slicerNoticeView(importNoticeToParams({ kind: 'info', info }, new URLSearchParams()), t as never);
    expect(notice?.kind === 'info' && notice.view.lines).toContain('Die gewählte Platte füllt eine Filamentzeile (mit ihrem Gesamtgewicht): Die 2 weiteren Filamentzeilen wurden entfernt.');
  });

  it('a link names 2…16 lines or none (a bad count is ignored)', () => {
    const read = (value: string) => {
      const notice = importNoticeFromParams(new URLSearchParams({ slicer: 'PrusaSlicer', slicerGrams: '5', slicerSeconds: '60', slicerFormLines: value }));
      return notice?.kind === 'info' ? notice.info.formLines : 'no notice';
    };
    expect(read('3')).toBe(3);
    expect(read('99')).toBe(16);
    expect(read('1')).toBeUndefined();
    expect(read('-4')).toBeUndefined();
    expect(read('drei')).toBeUndefined();
  });
});
