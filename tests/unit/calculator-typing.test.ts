import { describe, expect, it } from 'vitest';
import { evaluateCalculator } from '~/calculator/evaluate';
import { defaultRawValues } from '~/calculator/fields';
import { canStillBecomeValid } from '~/calculator/typing';
import { workedExampleHref, workedExampleValues } from '~/calculator/worked-example';

describe('canStillBecomeValid (typing keeps the last results)', () => {
  it.each([
    ['electricityRate', '0,'], // on the way to 0,35
    ['electricityRate', ''],
    ['electricityRate', '0'], // below the minimum 0,01, but "0,35" is coming
    ['printerCost', '1.'],
    ['quantity', '-'],
    ['filamentWeight', ','],
  ] as const)('%s = %j may still become valid', (name, text) => {
    expect(canStillBecomeValid(name, text)).toBe(true);
  });

  it.each([
    ['electricityRate', 'abc'],
    ['printerCost', '1,234.56'], // ambiguous: no keystroke repairs it
    ['marketplaceFeePercent', '150'], // over the maximum; more digits only grow
    ['printTimeMinutes', '75'],
    ['quantity', '1,5'], // not an integer
    ['packagingCost', '-1'],
    ['projectName', 'x'],
  ] as const)('%s = %j is an error at once', (name, text) => {
    expect(canStillBecomeValid(name, text)).toBe(false);
  });
});

describe('the landing page worked example in the calculator', () => {
  it('gives the landing page figures', () => {
    const evaluation = evaluateCalculator({ ...defaultRawValues(), ...workedExampleValues });
    expect(evaluation.status).toBe('ok');
    if (evaluation.status !== 'ok') return;
    const r = evaluation.result;
    expect(evaluation.input.targetPrice).toBe(11.97);
    expect(r.filamentCost).toBeCloseTo(0.45, 10); // 25 g at 18 €/kg
    expect(r.laborCost).toBeCloseTo(2.5, 10); // 10 min at 15 €/h
    expect(r.shippingTotal).toBeCloseTo(5.35, 10);
    // 250 W × 1 h × 0,35 €/kWh + 450 € / 8.000 h: 0,14375 € (the landing page rounds it to 0,15 €)
    expect(r.powerCost + r.depreciationCost).toBeCloseTo(0.14375, 10);
    expect(workedExampleHref()).toMatch(/^\/calculator\?.*targetPrice=11%2C97/);
  });
});
