import { describe, expect, it } from 'vitest';
import { calculatorDefaults } from '~/calculator/defaults';
import { costBreakdown, sumDetailedCosts } from '~/calculator/breakdown';
import { calculate, minimumPriceWithVat, type CalculationResult, type CalculatorInput } from '~/calculator/engine';

const defaults: CalculatorInput = {
  quantity: calculatorDefaults.quantity,
  filamentWeight: calculatorDefaults.filamentWeight,
  filamentPricePerKg: calculatorDefaults.filamentPricePerKg,
  printTime: calculatorDefaults.printTime,
  printerWattage: calculatorDefaults.printerWattage,
  electricityRate: calculatorDefaults.electricityRate,
  preparationTime: calculatorDefaults.preparationTime,
  postProcessingTime: calculatorDefaults.postProcessingTime,
  hourlyRate: calculatorDefaults.hourlyRate,
  packagingCost: calculatorDefaults.packagingCost,
  shippingCost: calculatorDefaults.shippingCost,
  marketplaceFeePercent: calculatorDefaults.marketplaceFeePercent,
  marketplaceFeeFixed: calculatorDefaults.marketplaceFeeFixed,
  profitMargin: calculatorDefaults.profitMargin,
  targetPrice: calculatorDefaults.targetPrice,
  printerCost: calculatorDefaults.printerCost,
  printerLifetimeHours: calculatorDefaults.printerLifetimeHours,
  vatPercent: calculatorDefaults.vatPercent,
};

function ok(input: CalculatorInput): CalculationResult {
  const outcome = calculate(input);
  if (!outcome.ok) throw new Error(`expected ok, got ${outcome.reason}`);
  return outcome.result;
}

const DIGITS = 9;

describe('calculate – spec defaults', () => {
  it('matches the spec defaults', () => {
    expect(defaults).toEqual({
      quantity: 1,
      filamentWeight: 25,
      filamentPricePerKg: 25,
      printTime: 3.5,
      printerWattage: 200,
      electricityRate: 0.32,
      preparationTime: 15,
      postProcessingTime: 10,
      hourlyRate: 15,
      packagingCost: 0.5,
      shippingCost: 4.95,
      marketplaceFeePercent: 5,
      marketplaceFeeFixed: 0.3,
      profitMargin: 25,
      targetPrice: 0,
      printerCost: 300,
      printerLifetimeHours: 3000,
      vatPercent: 19,
    });
    expect(calculatorDefaults.printTimeHours + calculatorDefaults.printTimeMinutes / 60).toBe(3.5);
  });

  it('computes all 17 values by hand', () => {
    const r = ok(defaults);
    expect(Object.keys(r).sort()).toEqual(
      [
        'filamentCost', 'powerCost', 'laborCost', 'depreciationCost', 'shippingTotal',
        'totalCosts', 'marketplaceFees', 'minimumPrice', 'vatAmount', 'minimumPriceWithVat',
        'breakEven', 'profit', 'priceForFive', 'priceForTen', 'priceForTwenty',
        'targetPriceProfit', 'targetPriceProfitMargin',
      ].sort(),
    );
    // filament = 25/1000 × 25 × 1 = 0.625
    expect(r.filamentCost).toBeCloseTo(0.625, DIGITS);
    // power = 3.5 × 200/1000 × 0.32 × 1 = 3.5 × 0.2 × 0.32 = 0.224
    expect(r.powerCost).toBeCloseTo(0.224, DIGITS);
    // labour = 15/60 × 15 + 10/60 × 15 × 1 = 3.75 + 2.5 = 6.25
    expect(r.laborCost).toBeCloseTo(6.25, DIGITS);
    // depreciation = 300/3000 × 3.5 × 1 = 0.1 × 3.5 = 0.35
    expect(r.depreciationCost).toBeCloseTo(0.35, DIGITS);
    // shipping = 0.50 + 4.95 = 5.45
    expect(r.shippingTotal).toBeCloseTo(5.45, DIGITS);
    // base = 0.625 + 0.224 + 6.25 + 0.35 + 5.45 = 12.899
    // price = (12.899 + 0.30) / (1 − 0.05) = 13.199 / 0.95 = 13.893684210526…
    // fees = 13.893684210526 − 12.899 = 0.994684210526…
    expect(r.marketplaceFees).toBeCloseTo(0.994684210526, DIGITS);
    // totalCosts = 12.899 + 0.994684210526 = 13.893684210526
    expect(r.totalCosts).toBeCloseTo(13.893684210526, DIGITS);
    // minimumPrice = 13.893684210526 × 1.25 = 17.367105263158
    expect(r.minimumPrice).toBeCloseTo(17.367105263158, DIGITS);
    // with VAT = 17.367105263158 × 1.19 = 20.666855263158
    expect(r.minimumPriceWithVat).toBeCloseTo(20.666855263158, DIGITS);
    // vat = 20.666855263158 − 17.367105263158 = 3.29975 (= 13.199/0.95 × 1.25 × 0.19)
    expect(r.vatAmount).toBeCloseTo(3.29975, DIGITS);
    // breakEven = totalCosts
    expect(r.breakEven).toBeCloseTo(13.893684210526, DIGITS);
    // profit = 17.367105263158 − 13.893684210526 = 3.473421052632
    expect(r.profit).toBeCloseTo(3.473421052632, DIGITS);
    // batch of 5: filament 3.125, power 1.12, labour 3.75 + 2.5×5 = 16.25, wear 1.75, shipping 5.45
    //   base 27.695 → (27.695 + 0.3)/0.95 = 29.468421052632 → ×1.25×1.19 (=1.4875) = 43.834276315789 → /5
    expect(r.priceForFive).toBeCloseTo(8.766855263158, DIGITS);
    // batch of 10: 6.25 + 2.24 + (3.75 + 25) + 3.5 + 5.45 = 46.19
    //   (46.19 + 0.3)/0.95 = 48.936842105263 → ×1.4875 = 72.793552631579 → /10
    expect(r.priceForTen).toBeCloseTo(7.279355263158, DIGITS);
    // batch of 20: 12.5 + 4.48 + (3.75 + 50) + 7 + 5.45 = 83.18
    //   (83.18 + 0.3)/0.95 = 87.873684210526 → ×1.4875 = 130.712105263158 → /20
    expect(r.priceForTwenty).toBeCloseTo(6.535605263158, DIGITS);
    // no target price → exactly 0
    expect(r.targetPriceProfit).toBe(0);
    expect(r.targetPriceProfitMargin).toBe(0);
  });

  it('sumDetailedCosts and costBreakdown', () => {
    const r = ok(defaults);
    // 0.625 + 0.224 + 0.35 + 5.45 = 6.649 (no labour, no marketplace)
    expect(sumDetailedCosts(r)).toBeCloseTo(6.649, DIGITS);
    const breakdown = costBreakdown(r);
    expect(breakdown.map((c) => c.key)).toEqual([
      'filament', 'power', 'wear', 'labor', 'shipping', 'marketplace',
    ]);
    expect(breakdown.map((c) => c.amount)).toEqual([
      r.filamentCost, r.powerCost, r.depreciationCost, r.laborCost, r.shippingTotal, r.marketplaceFees,
    ]);
    // the six categories add up to totalCosts
    expect(breakdown.reduce((s, c) => s + c.amount, 0)).toBeCloseTo(r.totalCosts, DIGITS);
  });
});

describe('calculate – target price', () => {
  it('uses the target price for the fees when set', () => {
    const r = ok({ ...defaults, targetPrice: 25 });
    // fees = 25 × 0.05 + 0.30 = 1.55
    expect(r.marketplaceFees).toBeCloseTo(1.55, DIGITS);
    // total = 12.899 + 1.55 = 14.449
    expect(r.totalCosts).toBeCloseTo(14.449, DIGITS);
    expect(r.breakEven).toBeCloseTo(14.449, DIGITS);
    // minimum = 14.449 × 1.25 = 18.06125; with VAT × 1.19 = 21.4928875; VAT = 3.4316375
    expect(r.minimumPrice).toBeCloseTo(18.06125, DIGITS);
    expect(r.minimumPriceWithVat).toBeCloseTo(21.4928875, DIGITS);
    expect(r.vatAmount).toBeCloseTo(3.4316375, DIGITS);
    // profit = 18.06125 − 14.449 = 3.61225
    expect(r.profit).toBeCloseTo(3.61225, DIGITS);
    // target profit = 25 − 14.449 = 10.551; margin = 10.551 / 14.449 × 100 = 73.02235448820…
    expect(r.targetPriceProfit).toBeCloseTo(10.551, DIGITS);
    expect(r.targetPriceProfitMargin).toBeCloseTo(73.0223544882, 8);
    // base costs are unaffected by the target price
    expect(r.filamentCost).toBeCloseTo(0.625, DIGITS);
    expect(r.laborCost).toBeCloseTo(6.25, DIGITS);
  });

  it('gives a negative target profit below break-even', () => {
    const r = ok({ ...defaults, targetPrice: 10 });
    // fees = 10 × 0.05 + 0.3 = 0.8; total = 12.899 + 0.8 = 13.699
    expect(r.totalCosts).toBeCloseTo(13.699, DIGITS);
    // 10 − 13.699 = −3.699; −3.699 / 13.699 × 100 = −27.00197094678…
    expect(r.targetPriceProfit).toBeCloseTo(-3.699, DIGITS);
    expect(r.targetPriceProfitMargin).toBeCloseTo(-27.0019709468, 8);
  });

  it('does not let the target price change the batch prices', () => {
    const withTarget = ok({ ...defaults, targetPrice: 25 });
    const without = ok(defaults);
    expect(withTarget.priceForFive).toBe(without.priceForFive);
    expect(withTarget.priceForTen).toBe(without.priceForTen);
    expect(withTarget.priceForTwenty).toBe(without.priceForTwenty);
  });
});

describe('calculate – quantity and fees', () => {
  it('handles quantity > 1 (prep once, post-processing and material per piece, shipping once)', () => {
    const r = ok({ ...defaults, quantity: 4 });
    // filament = 0.025 × 25 × 4 = 2.5
    expect(r.filamentCost).toBeCloseTo(2.5, DIGITS);
    // power = 3.5 × 0.2 × 0.32 × 4 = 0.896
    expect(r.powerCost).toBeCloseTo(0.896, DIGITS);
    // labour = 15/60 × 15 + 10/60 × 15 × 4 = 3.75 + 10 = 13.75
    expect(r.laborCost).toBeCloseTo(13.75, DIGITS);
    // wear = 0.1 × 3.5 × 4 = 1.4
    expect(r.depreciationCost).toBeCloseTo(1.4, DIGITS);
    // shipping once = 5.45
    expect(r.shippingTotal).toBeCloseTo(5.45, DIGITS);
    // base = 2.5 + 0.896 + 13.75 + 1.4 + 5.45 = 23.996
    // price = 24.296 / 0.95 = 25.574736842105; fees = 1.578736842105
    expect(r.totalCosts).toBeCloseTo(25.574736842105, DIGITS);
    expect(r.marketplaceFees).toBeCloseTo(1.578736842105, DIGITS);
    // min = ×1.25 = 31.968421052632; with VAT ×1.19 = 38.042421052632
    expect(r.minimumPrice).toBeCloseTo(31.968421052632, DIGITS);
    expect(r.minimumPriceWithVat).toBeCloseTo(38.042421052632, DIGITS);
  });

  it('handles zero marketplace fees (0 % and 0 €)', () => {
    const r = ok({ ...defaults, marketplaceFeePercent: 0, marketplaceFeeFixed: 0 });
    // price = (12.899 + 0) / 1 → fees 0
    expect(r.marketplaceFees).toBeCloseTo(0, DIGITS);
    expect(r.totalCosts).toBeCloseTo(12.899, DIGITS);
    // 12.899 × 1.25 = 16.12375; × 1.19 = 19.1872625
    expect(r.minimumPrice).toBeCloseTo(16.12375, DIGITS);
    expect(r.minimumPriceWithVat).toBeCloseTo(19.1872625, DIGITS);
    expect(r.vatAmount).toBeCloseTo(3.0635125, DIGITS);
    // batch of 5: base 27.695 × 1.4875 = 41.1963125 → /5
    expect(r.priceForFive).toBeCloseTo(8.2392625, DIGITS);
  });

  it('handles zero margin and zero VAT', () => {
    const r = ok({ ...defaults, profitMargin: 0, vatPercent: 0 });
    expect(r.minimumPrice).toBeCloseTo(r.totalCosts, DIGITS);
    expect(r.minimumPriceWithVat).toBeCloseTo(r.totalCosts, DIGITS);
    expect(r.vatAmount).toBe(0);
    expect(r.profit).toBe(0);
  });
});

describe('calculate – batch prices', () => {
  it('priceForN = minimumPriceWithVat for quantity N (no target) / N', () => {
    const input = { ...defaults, quantity: 3, targetPrice: 40 };
    const r = ok(input);
    const q5 = ok({ ...input, quantity: 5, targetPrice: 0 });
    const q10 = ok({ ...input, quantity: 10, targetPrice: 0 });
    const q20 = ok({ ...input, quantity: 20, targetPrice: 0 });
    expect(r.priceForFive).toBeCloseTo(q5.minimumPriceWithVat / 5, 12);
    expect(r.priceForTen).toBeCloseTo(q10.minimumPriceWithVat / 10, 12);
    expect(r.priceForTwenty).toBeCloseTo(q20.minimumPriceWithVat / 20, 12);
    // hand-computed for the defaults: 43.834276315789 / 5
    expect(r.priceForFive).toBeCloseTo(8.766855263158, DIGITS);
    // bigger batches spread preparation and shipping → cheaper per piece
    expect(r.priceForTen).toBeLessThan(r.priceForFive);
    expect(r.priceForTwenty).toBeLessThan(r.priceForTen);
  });
});

describe('calculate – impossible prices', () => {
  const partial = {
    filamentCost: 0.625,
    powerCost: 0.224,
    laborCost: 6.25,
    depreciationCost: 0.35,
    shippingTotal: 5.45,
  };

  it('returns marketplaceFeeTooHigh for a 100 % fee', () => {
    const outcome = calculate({ ...defaults, marketplaceFeePercent: 100 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.reason).toBe('marketplaceFeeTooHigh');
    expect(Object.keys(outcome.partial).sort()).toEqual(Object.keys(partial).sort());
    for (const [key, value] of Object.entries(partial)) {
      expect(outcome.partial[key as keyof typeof partial]).toBeCloseTo(value, DIGITS);
    }
  });

  it('returns marketplaceFeeTooHigh even when a target price is set, and above 100 %', () => {
    expect(calculate({ ...defaults, marketplaceFeePercent: 100, targetPrice: 50 }).ok).toBe(false);
    expect(calculate({ ...defaults, marketplaceFeePercent: 150 }).ok).toBe(false);
  });

  it('stays finite just below 100 %', () => {
    const r = ok({ ...defaults, marketplaceFeePercent: 99.9 });
    for (const value of Object.values(r)) expect(Number.isFinite(value)).toBe(true);
    // (12.899 + 0.3) / 0.001 = 13199
    expect(r.totalCosts).toBeCloseTo(13199, 6);
  });

  it('throws for inputs that cannot be calculated (validate with the schema first)', () => {
    expect(() => calculate({ ...defaults, filamentWeight: Number.NaN })).toThrow(RangeError);
    expect(() => calculate({ ...defaults, printerLifetimeHours: 0 })).toThrow(RangeError);
  });

  it('targetPriceProfitMargin is 0 when total costs are 0', () => {
    const zero: CalculatorInput = {
      ...defaults,
      filamentWeight: 0,
      printTime: 0,
      preparationTime: 0,
      postProcessingTime: 0,
      packagingCost: 0,
      shippingCost: 0,
      marketplaceFeePercent: 0,
      marketplaceFeeFixed: 0,
      targetPrice: 10,
    };
    const r = ok(zero);
    expect(r.totalCosts).toBe(0);
    expect(r.targetPriceProfit).toBe(10);
    expect(r.targetPriceProfitMargin).toBe(0);
  });
});

describe('minimumPriceWithVat – a list card’s figure', () => {
  it('is calculate()’s minimum price incl. VAT for varied inputs, and null when no price exists', () => {
    const variants: Partial<CalculatorInput>[] = [
      {},
      { quantity: 7, targetPrice: 49.9 },
      { marketplaceFeePercent: 99.5, marketplaceFeeFixed: 0 },
      { vatPercent: 7, smallBusiness: false },
      { smallBusiness: true },
      { failureRate: 12.5, profitMargin: 0 },
      { filamentWeight: 0, printTime: 0, hourlyRate: 0, packagingCost: 0, shippingCost: 0 },
    ];
    for (const variant of variants) {
      const input = { ...defaults, ...variant };
      expect(minimumPriceWithVat(input), JSON.stringify(variant)).toBeCloseTo(ok(input).minimumPriceWithVat, DIGITS);
    }
    expect(minimumPriceWithVat({ ...defaults, marketplaceFeePercent: 100 })).toBeNull();
    expect(() => minimumPriceWithVat({ ...defaults, printerLifetimeHours: 0 })).toThrow(RangeError);
  });
});
