import { describe, expect, it } from 'vitest';
import { calculatorDefaults } from '~/calculator/defaults';
import { failureSurcharge } from '~/calculator/breakdown';
import { calculate, type CalculationResult, type CalculatorInput } from '~/calculator/engine';
import { evaluateCalculator } from '~/calculator/evaluate';
import { buildCalculatorExport } from '~/calculator/export';
import { defaultRawValues, rawValuesFromSearchParams, rawValuesToSearchParams } from '~/calculator/fields';

const { projectName: _n, printTimeHours: _h, printTimeMinutes: _m, ...defaults } = calculatorDefaults;

function ok(input: CalculatorInput): CalculationResult {
  const outcome = calculate(input);
  if (!outcome.ok) throw new Error('expected a result');
  return outcome.result;
}

describe('Fehldruckrate (failureRate)', () => {
  it('at 0 leaves every figure exactly as without the field', () => {
    const { failureRate: _f, smallBusiness: _s, ...withoutNewFields } = defaults;
    expect(ok({ ...defaults, failureRate: 0, smallBusiness: false })).toEqual(ok(withoutNewFields));
  });

  it('divides filament, power and wear by (1 − rate), nothing else', () => {
    const plain = ok({ ...defaults, failureRate: 0 });
    const r = ok({ ...defaults, failureRate: 20 });
    // Defaults: 0,625 € filament, 0,224 € power, 0,35 € wear; ÷ 0,8
    expect(r.filamentCost).toBeCloseTo(0.78125, 10);
    expect(r.powerCost).toBeCloseTo(0.28, 10);
    expect(r.depreciationCost).toBeCloseTo(0.4375, 10);
    expect(r.laborCost).toBe(plain.laborCost);
    expect(r.shippingTotal).toBe(plain.shippingTotal);
    expect(r.minimumPriceWithVat).toBeGreaterThan(plain.minimumPriceWithVat);
    // The surcharge is what the failed prints add: (0,78125 + 0,28 + 0,4375) × 20 %
    expect(failureSurcharge(r, 20)).toBeCloseTo(0.78125 + 0.28 + 0.4375 - (0.625 + 0.224 + 0.35), 10);
  });

  it('refuses 100 % in the engine and with a German message in the schema', () => {
    expect(() => calculate({ ...defaults, failureRate: 100 })).toThrow(RangeError);
    const evaluation = evaluateCalculator({ ...defaultRawValues(), failureRate: '100' });
    expect(evaluation).toEqual({ status: 'invalid', errors: { failureRate: 'calculator:errors.failureRateRange' } });
    expect(evaluateCalculator({ ...defaultRawValues(), failureRate: '-1' }).status).toBe('invalid');
    expect(evaluateCalculator({ ...defaultRawValues(), failureRate: '12,5' })).toMatchObject({ status: 'ok', input: { failureRate: 12.5 } });
  });
});

describe('Kleinunternehmer (smallBusiness, § 19 UStG)', () => {
  it('charges no VAT whatever the VAT field says, batch prices included', () => {
    const regular = ok(defaults);
    const small = ok({ ...defaults, smallBusiness: true });
    expect(small.vatAmount).toBe(0);
    expect(small.minimumPriceWithVat).toBe(small.minimumPrice);
    expect(small.minimumPrice).toBe(regular.minimumPrice);
    expect(small.priceForFive).toBeCloseTo(regular.priceForFive / 1.19, 10);
  });

  it('travels in the link as smallBusiness=on and reads back', () => {
    const params = new URLSearchParams('smallBusiness=on&failureRate=5');
    const values = rawValuesFromSearchParams(params);
    expect(evaluateCalculator(values)).toMatchObject({ status: 'ok', input: { smallBusiness: true, failureRate: 5 } });
    const link = rawValuesToSearchParams(values);
    expect(link.get('smallBusiness')).toBe('on');
    expect(link.get('failureRate')).toBe('5');
    expect(evaluateCalculator(rawValuesFromSearchParams(new URLSearchParams('failureRate=5')))).toMatchObject({ input: { smallBusiness: false } });
  });

  it('both are in the JSON export', () => {
    const body = buildCalculatorExport({ ...defaultRawValues(), smallBusiness: 'on', failureRate: '10' }, new Date('2026-11-23T10:00:00Z'))!;
    expect(body.inputs).toMatchObject({ smallBusiness: true, failureRate: 10 });
    expect(body.results!.vatAmount).toBe(0);
    const plain = buildCalculatorExport(defaultRawValues(), new Date('2026-11-23T10:00:00Z'))!;
    expect(plain.inputs).toMatchObject({ smallBusiness: false, failureRate: 0 });
  });
});
