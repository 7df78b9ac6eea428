import { calculate, type BaseCosts, type CalculationResult, type CalculatorInput } from './engine';
import {
  lineFieldName,
  MAX_FILAMENT_LINES,
  rawValuesFromSearchParams,
  rawValuesToSearchParams,
  type CalculatorFieldName,
  type CalculatorRawValues,
} from './fields';
import { calculatorSchema, toCalculatorInput } from './schema';
import { canStillBecomeValid, stepFieldText } from './typing';

// Re-exported so the lazily loaded live chunk carries everything the form needs.
export { canStillBecomeValid, rawValuesFromSearchParams, rawValuesToSearchParams, stepFieldText };

export type CalculatorEvaluation =
  | { status: 'invalid'; errors: Partial<Record<CalculatorFieldName, string>> }
  | { status: 'impossible'; input: CalculatorInput; partial: BaseCosts }
  | { status: 'ok'; input: CalculatorInput; result: CalculationResult };

/**
 * Validates the texts with the shared schema and runs the engine. Server render,
 * browser (on every keystroke) and the export route all go through here.
 * Error values are i18n keys.
 */
export function evaluateCalculator(values: CalculatorRawValues): CalculatorEvaluation {
  const parsed = calculatorSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<CalculatorFieldName, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as CalculatorFieldName;
      errors[field] ??= issue.message;
    }
    return { status: 'invalid', errors };
  }
  const input = toCalculatorInput(parsed.data);
  const outcome = calculate(input);
  return outcome.ok
    ? { status: 'ok', input, result: outcome.result }
    : { status: 'impossible', input, partial: outcome.partial };
}

/**
 * Issue 23: each line's library filament as the form holds it (selectedFilament,
 * selectedFilament2…; '' = entered by hand), so the results name a line by it. Line 1's
 * select comes with the lazily loaded pickers: until it is there, `first` stays.
 */
export function filamentLineIds(data: FormData, first: string): string[] {
  return Array.from({ length: MAX_FILAMENT_LINES }, (_, index) => {
    const id = data.get(lineFieldName('filamentId', index));
    return typeof id === 'string' ? id : index === 0 ? first : '';
  });
}
