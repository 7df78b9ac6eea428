import type { CalculatorRawValues, FieldView } from './fields';

/**
 * The shared link's query (`/calculator?<fields>`) built from the field list
 * the page's loader sends, not from the field table: the same as
 * `rawValuesToSearchParams` (every visible field travels in the link, see
 * tests/unit/calculator-fields.test.ts) without bringing the table into the
 * first visit's JavaScript.
 */
export function linkQuery(fields: readonly FieldView[], values: CalculatorRawValues): URLSearchParams {
  return new URLSearchParams(fields.map(({ name }) => [name, values[name] ?? '']));
}
