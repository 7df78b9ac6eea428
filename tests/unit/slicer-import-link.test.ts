import { describe, expect, it } from 'vitest';
import { evaluateCalculator } from '~/calculator/evaluate';
import { calculatorFields, defaultRawValues } from '~/calculator/fields';
import { getServerT } from '~/i18n.server';
import { readSlicerSummary } from '~/slicer';
import {
  importedFieldValues,
  importInfoFromSummary,
  importNoticeFromParams,
  importNoticeToParams,
  MAX_PRINT_MINUTES,
  type SlicerImportInfo,
} from '~/slicer/import-link';
import { buildImportView } from '~/slicer/import-view';
import { bytes, prusaGcode } from '../fixtures/slicer/make';

async function infoOf(time: string, grams = '480.5') {
  const result = await readSlicerSummary(bytes(prusaGcode({ grams, time })));
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return importInfoFromSummary(result.summary);
}

const CAPPED_TEXT =
  'Die Druckzeit laut Datei (122 h 5 min) ist länger als die höchstens möglichen 99 h 59 min. Eingetragen sind 99 h 59 min – Strom- und Verschleißkosten fallen damit zu niedrig aus. Bitte prüfen Sie die Druckzeit.';

describe('a print time over the calculator’s 99 h 59 min', () => {
  it('is the maximum of the field table (kept apart so the reader chunk does not carry the table)', () => {
    expect(MAX_PRINT_MINUTES).toBe(calculatorFields.printTimeHours.max * 60 + calculatorFields.printTimeMinutes.max);
  });

  it('fills the grams and the maximum time, so the page calculates, and the notice says so in German', async () => {
    const info = await infoOf('5d 2h 5m 0s');
    const values = importedFieldValues(info);
    expect(values).toEqual({ filamentWeight: '480,5', printTimeHours: '99', printTimeMinutes: '59' });
    // The form with these values is valid: no range error instead of results.
    expect(evaluateCalculator({ ...defaultRawValues(), ...values }).status).toBe('ok');
    const t = await getServerT('calculator');
    const view = buildImportView(info, t, '');
    expect(view.timeCapped).toBe(CAPPED_TEXT);
    // The file's own time stays in the summary line.
    expect(view.message).toContain('122 h 5 min');
  });

  it('says the same after the no-JS redirect (the notice read back from the link)', async () => {
    const info = await infoOf('5d 2h 5m 0s');
    const params = importNoticeToParams({ kind: 'info', info }, new URLSearchParams());
    const notice = importNoticeFromParams(new URLSearchParams(params.toString()));
    expect(notice?.kind).toBe('info');
    const t = await getServerT('calculator');
    expect(buildImportView((notice as { info: SlicerImportInfo }).info, t, `?${params}`).timeCapped).toBe(CAPPED_TEXT);
  });

  it('counts the rounding up: 99 h 59 min 30 s is capped, 99 h 59 min is not', async () => {
    const t = await getServerT('calculator');
    const over = await infoOf('4d 3h 59m 30s');
    expect(importedFieldValues(over)).toMatchObject({ printTimeHours: '99', printTimeMinutes: '59' });
    expect(buildImportView(over, t, '').timeCapped).toContain('(100 h 0 min)');
    const exact = await infoOf('4d 3h 59m 0s');
    expect(importedFieldValues(exact)).toMatchObject({ printTimeHours: '99', printTimeMinutes: '59' });
    expect(buildImportView(exact, t, '').timeCapped).toBeUndefined();
  });

  it('follows the chosen plate: a plate within the range fills its own time without the message', async () => {
    const t = await getServerT('calculator');
    const info: SlicerImportInfo = {
      slicer: 'Bambu Studio',
      version: null,
      grams: 300,
      seconds: 130 * 3600,
      filaments: 1,
      plates: [
        { index: 1, filamentGrams: 200, printSeconds: 110 * 3600 },
        { index: 2, filamentGrams: 100, printSeconds: 20 * 3600 },
      ],
      warnings: [],
    };
    expect(buildImportView(info, t, '').timeCapped).toContain('(130 h 0 min)');
    expect(buildImportView({ ...info, plate: 1 }, t, '').timeCapped).toContain('(110 h 0 min)');
    expect(importedFieldValues({ ...info, plate: 2 })).toMatchObject({ filamentWeight: '100', printTimeHours: '20', printTimeMinutes: '0' });
    expect(buildImportView({ ...info, plate: 2 }, t, '').timeCapped).toBeUndefined();
  });
});
