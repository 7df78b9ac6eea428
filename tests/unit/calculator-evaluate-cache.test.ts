import { describe, expect, it } from 'vitest';
import { evaluateCalculator } from '../../app/calculator/evaluate';
import { evaluateCalculatorCached } from '../../app/calculator/evaluate-cache.server';
import { defaultRawValues } from '../../app/calculator/fields';

describe('evaluateCalculatorCached', () => {
  it('gives what evaluateCalculator gives, for valid, invalid and changed texts', () => {
    const valid = defaultRawValues();
    const invalid = { ...defaultRawValues(), filamentWeight: 'viel' };
    const changed = { ...defaultRawValues(), filamentWeight: '62,5' };
    for (const values of [valid, invalid, changed, valid, invalid]) {
      expect(evaluateCalculatorCached(values)).toEqual(evaluateCalculator(values));
    }
    expect(evaluateCalculatorCached(changed)).not.toEqual(evaluateCalculatorCached(valid));
  });

  it('hands out a frozen evaluation, so no request can change another one', () => {
    const evaluation = evaluateCalculatorCached(defaultRawValues());
    expect(evaluateCalculatorCached({ ...defaultRawValues() })).toBe(evaluation);
    expect(Object.isFrozen(evaluation)).toBe(true);
    if (evaluation.status !== 'ok') throw new Error('expected a result');
    expect(Object.isFrozen(evaluation.result)).toBe(true);
  });
});
