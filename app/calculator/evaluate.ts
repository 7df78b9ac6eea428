import { calculate, type BaseCosts, type CalculationResult, type CalculatorInput } from './engine';
import {
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
