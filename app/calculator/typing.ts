import { formatDecimalInput } from '../lib/number';
import { isNumberInProgress, parseGermanNumber } from '../lib/parse-number';
import { calculatorFields, lineBaseField, MAX_NUMBER, type CalculatorFieldName, type FieldSpec } from './fields';

/**
 * While someone types "0," on the way to "0,35" the field is briefly invalid.
 * True when more typing can still make `text` a valid value of `name`
 * (issue 8 §2): the calculator then keeps the last valid results and waits,
 * instead of flashing an error. False for text that no keystroke can repair
 * ("abc", "1,234.56", a value over the maximum, a negative value below the minimum).
 */
export function canStillBecomeValid(name: CalculatorFieldName, text: string): boolean {
  // A line 2… field (filamentWeight3) follows its line-1 field's spec.
  const spec = calculatorFields[lineBaseField(name) ?? name] as FieldSpec | undefined;
  if (!spec || spec.kind !== 'number') return false;
  if (isNumberInProgress(text)) return true;
  const parsed = parseGermanNumber(text);
  if (parsed.status !== 'ok') return false;
  const value = parsed.value;
  if (spec.integer && !Number.isInteger(value)) return false;
  if (value > (spec.max ?? Number.POSITIVE_INFINITY)) return false;
  // Below the minimum, appending digits ("0" → "0,5", "1" → "15") can still reach it; from a negative number it cannot.
  return value >= 0;
}

/**
 * The arrow keys step a number field by its table step, within its bounds
 * (the inputs are text so German commas work everywhere). Null for fields
 * that do not step.
 */
export function stepFieldText(name: string, text: string, direction: 1 | -1): string | null {
  const spec = (calculatorFields as Record<string, FieldSpec>)[lineBaseField(name) ?? name];
  if (!spec || spec.kind !== 'number') return null;
  const parsed = parseGermanNumber(text);
  const current = parsed.status === 'ok' ? parsed.value : 0;
  let next = Math.round((current + direction * spec.step) * 1e6) / 1e6;
  next = Math.min(spec.max ?? MAX_NUMBER, Math.max(spec.min, next));
  return formatDecimalInput(next);
}
