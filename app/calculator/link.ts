import type { CalculatorRawValues, FieldView } from './fields';

/** MAX_FILAMENT_LINES of ./fields.ts, repeated so the table stays out of the first visit (a unit test keeps them equal). */
const MAX_LINES = 16;

/**
 * The shared link's query (`/calculator?<fields>`) built from the field list
 * the page's loader sends, not from the field table: the same as
 * `rawValuesToSearchParams` (every visible field travels in the link, then the
 * filament lines 2… of issue 23, see tests/unit/calculator-fields.test.ts and
 * filament-lines.test.ts) without bringing the table into the first visit's JavaScript.
 */
export function linkQuery(fields: readonly FieldView[], values: CalculatorRawValues): URLSearchParams {
  const query = new URLSearchParams(fields.map(({ name }) => [name, values[name] ?? '']));
  const get = (name: string) => (values as Record<string, string | undefined>)[name];
  if (get('filamentLabel') !== undefined) query.append('filamentLabel', get('filamentLabel')!);
  for (let n = 2; n <= MAX_LINES; n++) {
    const grams = get(`filamentWeight${n}`);
    const price = get(`filamentPricePerKg${n}`);
    if (grams === undefined && price === undefined) break;
    query.append(`filamentWeight${n}`, grams ?? '');
    query.append(`filamentPricePerKg${n}`, price ?? '');
    const label = get(`filamentLabel${n}`);
    if (label !== undefined) query.append(`filamentLabel${n}`, label);
  }
  // LINE_COUNT_PARAM of ./fields.ts: how many lines the link describes (always, one included).
  query.append('filamentLines', String(filamentLineTexts(values).length));
  return query;
}

/**
 * The filament lines' texts of raw values, line 1 first (what ./fields.ts `lineTextsOf`
 * gives, without the table: the form's line list is part of the first visit).
 */
export function filamentLineTexts(values: CalculatorRawValues): Array<{ grams: string; pricePerKg: string; label: string }> {
  const get = (name: string) => (values as Record<string, string | undefined>)[name];
  const lines = [{ grams: values.filamentWeight, pricePerKg: values.filamentPricePerKg, label: get('filamentLabel') ?? '' }];
  for (let n = 2; n <= MAX_LINES; n++) {
    const grams = get(`filamentWeight${n}`);
    const pricePerKg = get(`filamentPricePerKg${n}`);
    if (grams === undefined && pricePerKg === undefined) break;
    lines.push({ grams: grams ?? '', pricePerKg: pricePerKg ?? '', label: get(`filamentLabel${n}`) ?? '' });
  }
  return lines;
}
