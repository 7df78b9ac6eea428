import { describe, expect, it } from 'vitest';
import { filamentLineCosts } from '~/calculator/breakdown';
import { calculate, filamentCostPerPiece, type CalculatorInput } from '~/calculator/engine';
import { evaluateCalculator } from '~/calculator/evaluate';
import { buildCalculatorExport } from '~/calculator/export';
import {
  defaultRawValues,
  fieldViews,
  filamentLinesOf,
  filamentTotals,
  lineBaseField,
  lineFieldName,
  lineTextsOf,
  MAX_FILAMENT_LINES,
  rawValuesFromSearchParams,
  rawValuesToSearchParams,
  toEngineInput,
  withLineTexts,
  type CalculatorRawValues,
} from '~/calculator/fields';
import { linkQuery } from '~/calculator/link';
import { calculatorSchema } from '~/calculator/schema';
import { canStillBecomeValid, stepFieldText } from '~/calculator/typing';

function okResult(values: CalculatorRawValues) {
  const evaluation = evaluateCalculator(values);
  if (evaluation.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(evaluation)}`);
  return evaluation;
}

function linesLink(lines: Array<[string, string, string?]>): URLSearchParams {
  const params = new URLSearchParams();
  lines.forEach(([grams, price, label], index) => {
    params.set(lineFieldName('grams', index), grams);
    params.set(lineFieldName('pricePerKg', index), price);
    if (label !== undefined) params.set(lineFieldName('label', index), label);
  });
  return params;
}

describe('filament lines: the engine', () => {
  it('one line is the calculation as before: no list reaches the engine, the same figures come out', () => {
    const values = rawValuesFromSearchParams(new URLSearchParams('filamentWeight=40&filamentPricePerKg=19,99&quantity=3&failureRate=5'));
    const evaluation = okResult(values);
    expect(evaluation.input).not.toHaveProperty('filaments');
    // Today's rule, written out: grams / 1000 × €/kg × quantity / (1 − failure rate).
    expect(evaluation.result.filamentCost).toBe(((40 / 1000) * 19.99 * 3) / (1 - 5 / 100));
    // The same input as an explicit one-element list gives the very same numbers.
    const asList = calculate({ ...evaluation.input, filaments: [{ grams: 40, pricePerKg: 19.99 }] });
    expect(asList.ok && asList.result).toEqual(evaluation.result);
  });

  it('two lines: Σ grams / 1000 × €/kg, times quantity, with the failure surcharge', () => {
    const params = linesLink([['30', '20', 'Weiß'], ['12,5', '45', 'Seide Gold']]);
    params.set('quantity', '4');
    params.set('failureRate', '10');
    const evaluation = okResult(rawValuesFromSearchParams(params));
    expect(evaluation.input.filaments).toEqual([
      { grams: 30, pricePerKg: 20 },
      { grams: 12.5, pricePerKg: 45 },
    ]);
    const perPiece = (30 / 1000) * 20 + (12.5 / 1000) * 45;
    expect(evaluation.result.filamentCost).toBeCloseTo((perPiece * 4) / 0.9, 12);
    // The other costs do not depend on the lines.
    const single = okResult(rawValuesFromSearchParams(new URLSearchParams('quantity=4&failureRate=10')));
    expect(evaluation.result.powerCost).toBe(single.result.powerCost);
    expect(evaluation.result.laborCost).toBe(single.result.laborCost);
    // Each line's share, as the cost overview lists them, adds up to the filament cost.
    const shares = filamentLineCosts(evaluation.input.filaments!, 4, 10);
    expect(shares[0]).toBeCloseTo((0.6 * 4) / 0.9, 12);
    expect(shares[0] + shares[1]).toBeCloseTo(evaluation.result.filamentCost, 12);
    // A more expensive second filament makes the whole price higher.
    expect(evaluation.result.minimumPriceWithVat).toBeGreaterThan(single.result.minimumPriceWithVat);
  });

  it('16 lines are calculated; a 17th in a link is not a line', () => {
    const lines = Array.from({ length: MAX_FILAMENT_LINES }, (_, i) => [String(i + 1), String(10 + i)] as [string, string]);
    const params = linesLink(lines);
    params.set('filamentWeight17', '999');
    const values = rawValuesFromSearchParams(params);
    expect(values).not.toHaveProperty('filamentWeight17');
    const evaluation = okResult(values);
    expect(evaluation.input.filaments).toHaveLength(16);
    const expected = lines.reduce((sum, [g, p]) => sum + (Number(g) / 1000) * Number(p), 0);
    expect(evaluation.result.filamentCost).toBeCloseTo(expected, 12);
    expect(filamentCostPerPiece(evaluation.input)).toBeCloseTo(expected, 12);
  });

  it('refuses a line list that cannot be calculated instead of answering NaN', () => {
    const input = { ...okResult(defaultRawValues()).input } as CalculatorInput;
    expect(() => calculate({ ...input, filaments: [] })).toThrow(RangeError);
    expect(() => calculate({ ...input, filaments: [{ grams: Number.NaN, pricePerKg: 20 }] })).toThrow(RangeError);
  });

  it('the weighted average: total grams and € per kg weighted by grams (spec §7 answers)', () => {
    expect(filamentTotals([{ grams: 25, pricePerKg: 25 }])).toEqual({ grams: 25, pricePerKg: 25 });
    const totals = filamentTotals([
      { grams: 30, pricePerKg: 20 },
      { grams: 10, pricePerKg: 60 },
    ]);
    expect(totals.grams).toBe(40);
    expect(totals.pricePerKg).toBeCloseTo(30, 12); // (30 × 20 + 10 × 60) / 40
    // Total × average is the lines' cost.
    expect((totals.grams / 1000) * totals.pricePerKg).toBeCloseTo(0.6 + 0.6, 12);
  });
});

describe('filament lines: the field table', () => {
  it('lines 2… repeat the line-1 fields by name, with their bounds and German message keys', () => {
    expect(lineFieldName('grams', 0)).toBe('filamentWeight');
    expect(lineFieldName('pricePerKg', 2)).toBe('filamentPricePerKg3');
    expect(lineFieldName('filamentId', 15)).toBe('selectedFilament16');
    expect(lineBaseField('filamentWeight16')).toBe('filamentWeight');
    expect(lineBaseField('filamentWeight17')).toBeNull();
    expect(lineBaseField('filamentWeight1')).toBeNull();
    const parsed = calculatorSchema.safeParse({ filamentWeight3: '0,05', filamentPricePerKg3: '', filamentLabel2: 'x'.repeat(61) });
    expect(parsed.success).toBe(false);
    const messages = Object.fromEntries(parsed.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(messages).toEqual({
      filamentWeight3: 'calculator:errors.filamentWeightMin',
      filamentPricePerKg3: 'calculator:errors.required',
      filamentLabel2: 'calculator:errors.filamentLabelTooLong',
    });
    // The live form: typing "0," into line 5's grams can still become valid, and the arrows step it by 0,1.
    expect(canStillBecomeValid('filamentWeight5' as never, '0,')).toBe(true);
    expect(stepFieldText('filamentWeight5', '2', 1)).toBe('2,1');
  });

  it('an old link opens as one line; a link with lines reads back the same texts and the same link', () => {
    const old = rawValuesFromSearchParams(new URLSearchParams('filamentWeight=50&filamentPricePerKg=22'));
    expect(lineTextsOf(old)).toEqual([{ grams: '50', pricePerKg: '22', label: '' }]);
    expect(filamentLinesOf(calculatorSchema.parse(old) as Record<string, unknown>)).toEqual([{ grams: 50, pricePerKg: 22 }]);
    expect(rawValuesToSearchParams(old).toString()).not.toMatch(/filamentWeight2|filamentLabel/);
    // A link written now says how many lines it describes, one included.
    expect(rawValuesToSearchParams(old).get('filamentLines')).toBe('1');

    const values = withLineTexts(defaultRawValues(), [
      { grams: '20', pricePerKg: '25', label: 'Schwarz' },
      { grams: '5,5', pricePerKg: '30', label: 'Rot & Blau' },
      { grams: '1', pricePerKg: '80', label: '' },
    ]);
    const link = rawValuesToSearchParams(values);
    expect(link.get('filamentWeight2')).toBe('5,5');
    expect(link.get('filamentLabel2')).toBe('Rot & Blau');
    const back = rawValuesFromSearchParams(link);
    expect(back).toEqual(values);
    expect(lineTextsOf(back)).toHaveLength(3);
    // The page's own link (without the table) is the same address.
    expect(linkQuery(fieldViews, back).toString()).toBe(link.toString());
  });

  it('the line count of a link is the most lines it describes: a draft back to one line says one line', () => {
    const three = withLineTexts(defaultRawValues(), [
      { grams: '20', pricePerKg: '25', label: 'Schwarz' },
      { grams: '5', pricePerKg: '30', label: 'Rot' },
      { grams: '1', pricePerKg: '80', label: '' },
    ]);
    expect(rawValuesToSearchParams(three).get('filamentLines')).toBe('3');
    // The form after removing lines 2 and 3 (line 1's label field is always there, empty).
    const form = new FormData();
    for (const [name, value] of rawValuesToSearchParams(three)) if (!/[23]$|^filamentLines$/.test(name)) form.set(name, value);
    form.set('filamentLabel', '');
    const one = rawValuesToSearchParams(rawValuesFromSearchParams(form));
    expect(one.get('filamentLines')).toBe('1');
    expect(one.has('filamentWeight2')).toBe(false);
    expect(linkQuery(fieldViews, rawValuesFromSearchParams(form)).toString()).toBe(one.toString());
    // One line without a label: the count alone describes it.
    const withoutLabel = withLineTexts(defaultRawValues(), [{ grams: '20', pricePerKg: '25', label: '' }]);
    expect(rawValuesToSearchParams(withoutLabel).toString()).toMatch(/(^|&)filamentLines=1$/);
    // More line fields than the count: the count wins; a broken count is ignored (the fields count).
    const cut = rawValuesFromSearchParams(new URLSearchParams('filamentWeight=9&filamentWeight2=5&filamentWeight3=1&filamentLines=2'));
    expect(lineTextsOf(cut).map((line) => line.grams)).toEqual(['9', '5']);
    for (const broken of ['0', '17', 'x', '-1', '']) {
      const read = rawValuesFromSearchParams(new URLSearchParams(`filamentWeight=9&filamentWeight2=5&filamentLines=${broken}`));
      expect(lineTextsOf(read)).toHaveLength(2);
    }
  });

  it('lines with a gap are renumbered; a line with only a label is none', () => {
    const values = rawValuesFromSearchParams(new URLSearchParams('filamentWeight4=7&filamentLabel3=Leer&filamentPricePerKg9=33'));
    expect(lineTextsOf(values)).toEqual([
      // The default price is money, written with two decimals (issue 24 §1).
      { grams: '25', pricePerKg: '25,00', label: '' },
      { grams: '7', pricePerKg: '25,00', label: '' },
      { grams: '25', pricePerKg: '33', label: '' },
    ]);
  });

  it('the live calculation of 16 lines fits in one frame', () => {
    const values = withLineTexts(
      defaultRawValues(),
      Array.from({ length: 16 }, (_, i) => ({ grams: `${i + 1},5`, pricePerKg: `${20 + i}`, label: `Farbe ${i + 1}` })),
    );
    for (let i = 0; i < 20; i++) evaluateCalculator(values); // warm up
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      const data = new FormData();
      for (const [name, value] of rawValuesToSearchParams(values)) data.set(name, value);
      evaluateCalculator(rawValuesFromSearchParams(data));
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[25];
    console.log(`16 lines: read + validate + calculate, median ${median.toFixed(3)} ms, max ${times[49].toFixed(3)} ms`);
    expect(median).toBeLessThan(16);
  });

  it('the export carries the lines when there are several (line 1 stays filamentWeight/filamentPricePerKg)', () => {
    const single = buildCalculatorExport(defaultRawValues(), new Date('2026-11-26T10:00:00Z'))!;
    expect(single.inputs).not.toHaveProperty('filaments');
    const values = withLineTexts(defaultRawValues(), [
      { grams: '20', pricePerKg: '25', label: 'Schwarz' },
      { grams: '5,5', pricePerKg: '30', label: '' },
    ]);
    const body = buildCalculatorExport(values, new Date('2026-11-26T10:00:00Z'))!;
    expect(body.inputs.filamentWeight).toBe(20);
    expect(body.inputs.filaments).toEqual([
      { label: 'Schwarz', grams: 20, pricePerKg: 25 },
      { grams: 5.5, pricePerKg: 30 },
    ]);
    expect(body.results!.filamentCost).toBe(Math.round((0.5 + 0.165) * 100) / 100);
  });

  it('the engine input of parsed values lists the lines only when there are several', () => {
    const parsed = calculatorSchema.parse({ filamentWeight2: '3' });
    expect(toEngineInput(parsed).filaments).toEqual([
      { grams: 25, pricePerKg: 25 },
      { grams: 3, pricePerKg: 25 },
    ]);
  });
});

describe('filament lines without JavaScript: the line buttons', () => {
  it("keep every picker's 'Automatisch übernommen' box (the form's applied inputs travel on)", async () => {
    const { lineActionRedirect } = await import('~/calculator/filament-line-actions');
    const params = new URLSearchParams([
      ['filamentWeight', '25'],
      ['applied', 'printer'],
      ['applied', 'packaging'],
      ['filamentZeile', 'hinzufuegen'],
    ]);
    const target = new URL(lineActionRedirect(params, null)!, 'http://localhost');
    expect(target.searchParams.getAll('applied')).toEqual(['printer', 'packaging']);
    expect(target.searchParams.get('filamentWeight2')).not.toBeNull();
    expect(target.searchParams.has('filamentZeile')).toBe(false);
  });
});
