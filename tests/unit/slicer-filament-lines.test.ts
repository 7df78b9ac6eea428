import { describe, expect, it } from 'vitest';
import { rawValuesFromSearchParams, withLineTexts, defaultRawValues, lineTextsOf } from '~/calculator/fields';
import { evaluateCalculator } from '~/calculator/evaluate';
import { readSlicerSummary, type SlicerReadResult } from '~/slicer';
import {
  importedFieldValues,
  importedLineTexts,
  importInfoFromSummary,
  importNoticeFromParams,
  importNoticeToParams,
  type SlicerImportInfo,
} from '~/slicer/import-link';
import { buildImportView } from '~/slicer/import-view';
import { bambuGcode, bytes, curaGcode, modelFile, prusaGcode, sliceInfo, zip } from '../fixtures/slicer/make';

/*
 * Issue 23 §3: a file with several filaments fills one calculator line per filament
 * it used. The files are built by hand from each slicer's documented comment and
 * metadata lines (tests/fixtures/slicer/make.ts).
 */

function ok(result: SlicerReadResult) {
  if (!result.ok) throw new Error(`expected a summary, got ${JSON.stringify(result.error)}`);
  return result.summary;
}

/** The calculator after the import: line 1 from the imported fields, lines 2… with the form's price. */
function afterImport(info: SlicerImportInfo, price = '22,5') {
  const values = { ...defaultRawValues(), filamentPricePerKg: price, ...importedFieldValues(info) };
  const first = { grams: values.filamentWeight, pricePerKg: values.filamentPricePerKg, label: values.filamentLabel ?? '' };
  return withLineTexts(values, [first, ...importedLineTexts(info, (line) => (line === 1 ? price : undefined))]);
}

const files: Array<[string, () => Uint8Array, Array<[string, string]>]> = [
  ['PrusaSlicer MMU / XL G-code', () => bytes(prusaGcode({ grams: '12.50, 7.25, 0.00, 1.5', time: '2h 0m 0s', config: '; filament_type = PLA;PETG;PLA;TPU' })), [['12,5', 'PLA'], ['7,25', 'PETG'], ['1,5', 'TPU']]],
  ['OrcaSlicer G-code', () => bytes(prusaGcode({ generator: 'OrcaSlicer 2.2.0', grams: '20.3, 14.2', time: '2h 14m 0s', config: '; filament_type = PLA;PETG' })), [['20,3', 'PLA'], ['14,2', 'PETG']]],
  ['Bambu Studio G-code (AMS)', () => bytes(bambuGcode({ extra: '; filament used [g] = 10.00, 3.49\n; filament_type = PLA;PETG' })), [['10', 'PLA'], ['3,49', 'PETG']]],
  [
    'Bambu / Orca .gcode.3mf with several filaments on a plate',
    () =>
      zip([
        { name: '3D/3dmodel.model', data: modelFile('BambuStudio-01.09.00.70') },
        { name: 'Metadata/plate_1.gcode', data: bambuGcode() },
        { name: 'Metadata/slice_info.config', data: sliceInfo([{ index: 1, prediction: 3600, weight: 9, filaments: [{ id: 1, type: 'PLA', grams: 6 }, { id: 3, type: 'PETG', grams: 3 }] }]) },
      ]),
    [['6', 'PLA'], ['3', 'PETG']],
  ],
  ['Cura with two extruders (no material in the file: no label)', () => bytes(curaGcode({ filament: '2.5m, 1m' })), [['7,46', ''], ['2,98', '']]],
];

describe('slicer import with several filaments (issue 23 §3)', () => {
  for (const [name, file, expected] of files) {
    it(`${name}: one line per filament used, material as the label, the form's price on every line`, async () => {
      const info = importInfoFromSummary(ok(await readSlicerSummary(file())));
      const values = afterImport(info);
      expect(lineTextsOf(values).map((line) => [line.grams, line.label])).toEqual(expected);
      expect(lineTextsOf(values).every((line) => line.pricePerKg === '22,5')).toBe(true);
      // The lines together are the file's whole weight.
      const evaluation = evaluateCalculator(values);
      if (evaluation.status !== 'ok') throw new Error('expected a result');
      const grams = evaluation.input.filaments!.reduce((sum, line) => sum + line.grams, 0);
      expect(grams).toBeCloseTo(info.grams, 6);
    });
  }

  it('a one-filament file keeps one line (and a plate without per-filament figures its total)', async () => {
    const single = importInfoFromSummary(ok(await readSlicerSummary(bytes(prusaGcode({ grams: '3.68, 0.00', time: '1h' })))));
    expect(single.lines).toBeUndefined();
    expect(lineTextsOf(afterImport(single))).toEqual([{ grams: '3,68', pricePerKg: '22,5', label: '' }]);
    const info: SlicerImportInfo = {
      slicer: 'OrcaSlicer', version: null, grams: 15, seconds: 60, filaments: 2, warnings: [],
      plates: [{ index: 1, filamentGrams: 10, printSeconds: 30 }, { index: 2, filamentGrams: 5, printSeconds: 30 }],
      lines: [{ grams: 12, material: 'PLA' }, { grams: 3, material: 'PETG' }],
      plate: 2,
    };
    expect(lineTextsOf(afterImport(info))).toEqual([{ grams: '5', pricePerKg: '22,5', label: '' }]);
  });

  it('the lines travel in the import link and the notice names them and asks to check the prices', async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(bytes(prusaGcode({ grams: '12.50, 7.25', time: '2h', config: '; filament_type = PLA;PETG' })))));
    const params = importNoticeToParams({ kind: 'info', info }, new URLSearchParams());
    expect(params.get('slicerLines')).toBe('12.5:PLA;7.25:PETG');
    const back = importNoticeFromParams(params);
    expect(back?.kind === 'info' && back.info.lines).toEqual(info.lines);
    const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? JSON.stringify(options) : ''}`;
    expect(buildImportView(info, t, '').lines).toBe('filament-lines:slicerLines{"list":"PLA 12,5 g, PETG 7,25 g"}');
    // Hostile link values are cut and cleaned, never more than 16 lines.
    const hostile = importNoticeFromParams(new URLSearchParams({ slicer: 'X', slicerGrams: '1', slicerSeconds: '1', slicerLines: Array.from({ length: 40 }, () => '1:a\u0000b').join(';') }));
    expect(hostile?.kind === 'info' && hostile.info.lines).toHaveLength(16);
    expect(hostile?.kind === 'info' && hostile.info.lines![0]).toEqual({ grams: 1, material: 'ab' });
  });

  it("a plate choice's link carries that choice's lines, not the address's", () => {
    const info: SlicerImportInfo = {
      slicer: 'OrcaSlicer', version: null, grams: 15, seconds: 60, filaments: 2, warnings: [],
      plates: [{ index: 1, filamentGrams: 10, printSeconds: 30 }, { index: 2, filamentGrams: 5, printSeconds: 30 }],
      lines: [{ grams: 12, material: 'PLA' }, { grams: 3, material: 'PETG' }],
    };
    const t = (key: string) => key;
    const view = buildImportView(info, t, 'filamentPricePerKg=20&filamentWeight2=99&filamentPricePerKg2=31&filamentWeight3=1&filamentLabel=Alt');
    const [all, , plate2] = view.plates!.map((choice) => new URL(choice.href, 'http://x').searchParams);
    expect([all.get('filamentWeight'), all.get('filamentLabel'), all.get('filamentWeight2'), all.get('filamentPricePerKg2'), all.get('filamentWeight3')]).toEqual(['12', 'PLA', '3', '31', null]);
    expect([plate2.get('filamentWeight'), plate2.get('filamentWeight2'), plate2.get('filamentLabel')]).toEqual(['5', null, null]);
  });

  it('purge / wipe-tower grams the file reports are in the weight and named in the notice (PrusaSlicer MMU)', async () => {
    const file = prusaGcode({ grams: '12.50, 7.25', time: '2h', config: '; filament_type = PLA;PETG\n; total filament used for wipe tower [g] = 5.30' });
    const summary = ok(await readSlicerSummary(bytes(file)));
    expect(summary.purgeGrams).toBe(5.3);
    // PrusaSlicer's grams per extruder already hold the wipe tower: the total stays the file's.
    expect(summary.filamentGrams).toBe(19.75);
    const info = importInfoFromSummary(summary);
    const back = importNoticeFromParams(importNoticeToParams({ kind: 'info', info }, new URLSearchParams()));
    expect(back?.kind === 'info' && back.info.purge).toBe(5.3);
    const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? JSON.stringify(options) : ''}`;
    expect(buildImportView(info, t, '').purge).toBe('filament-lines:slicerPurge{"grams":"5,3"}');
    expect(buildImportView(importInfoFromSummary(ok(await readSlicerSummary(bytes(prusaGcode({ grams: '3', time: '1h' }))))), t, '').purge).toBeUndefined();
  });

  it('the no-JS import link opens the calculation with the lines', async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(bytes(prusaGcode({ grams: '12.50, 7.25', time: '2h', config: '; filament_type = PLA;PETG' })))));
    const values = afterImport(info, '30');
    const { rawValuesToSearchParams } = await import('~/calculator/fields');
    const reopened = rawValuesFromSearchParams(rawValuesToSearchParams(values));
    expect(lineTextsOf(reopened)).toEqual([
      { grams: '12,5', pricePerKg: '30', label: 'PLA' },
      { grams: '7,25', pricePerKg: '30', label: 'PETG' },
    ]);
  });
});
