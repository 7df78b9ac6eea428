import { evaluateCalculator, type CalculatorEvaluation } from './evaluate';
import type { CalculatorRawValues } from './fields';

/**
 * `evaluateCalculator` for the server's page loads, remembered per input texts.
 *
 * Most calculator pages are the same few calculations (a signed-in seller's
 * '/calculator' starts from the same defaults on every load), and validating
 * the texts with the zod schema was most of the loader's own CPU time. The
 * engine is pure, so equal texts give an equal evaluation; the remembered one is
 * frozen, since every request that asks gets the same object. Bounded: the
 * oldest of 500 calculations is dropped first.
 */
const MAX_ENTRIES = 500;
const remembered = new Map<string, CalculatorEvaluation>();

export function evaluateCalculatorCached(values: CalculatorRawValues): CalculatorEvaluation {
  const key = JSON.stringify(values);
  const hit = remembered.get(key);
  if (hit) return hit;
  const evaluation = deepFreeze(evaluateCalculator(values));
  if (remembered.size >= MAX_ENTRIES) remembered.delete(remembered.keys().next().value!);
  remembered.set(key, evaluation);
  return evaluation;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
