/**
 * Druckpreis pricing engine (product spec §9 "Calculation rules").
 *
 * Pure and framework-free: no Node, React or DOM imports, so it runs on the
 * server and in the browser. All amounts are EUR and kept at full precision;
 * rounding happens only when formatting for display.
 *
 * Inputs are expected to be validated by `calculatorSchema` first. The engine
 * throws a `RangeError` for inputs that cannot be calculated at all
 * (non-finite numbers, printer lifetime <= 0) so that an `ok` result never
 * contains NaN or Infinity.
 */

// The input's fields (names, units, bounds) are declared in ./fields.ts:
// quantity, filamentWeight (g per piece), filamentPricePerKg, printTime (decimal
// hours per piece), printerWattage (W), electricityRate (EUR/kWh),
// preparationTime (min, once per order), postProcessingTime (min per piece),
// hourlyRate, packagingCost, shippingCost, marketplaceFeePercent (5 = 5 %),
// marketplaceFeeFixed (EUR per sale), profitMargin (25 = 25 %), targetPrice
// (net EUR; 0 = not set), printerCost, printerLifetimeHours, vatPercent (19 = 19 %),
// failureRate (5 = 5 %, optional, below 100), smallBusiness (§ 19 UStG: VAT 0, optional).
import type { CalculatorInput } from './fields';

export type { CalculatorInput };

export type CalculationResult = {
  filamentCost: number;
  powerCost: number;
  laborCost: number;
  depreciationCost: number;
  shippingTotal: number;
  totalCosts: number;
  marketplaceFees: number;
  minimumPrice: number;
  vatAmount: number;
  minimumPriceWithVat: number;
  breakEven: number;
  profit: number;
  priceForFive: number;
  priceForTen: number;
  priceForTwenty: number;
  targetPriceProfit: number;
  targetPriceProfitMargin: number;
};

export type BaseCosts = Pick<
  CalculationResult,
  'filamentCost' | 'powerCost' | 'laborCost' | 'depreciationCost' | 'shippingTotal'
>;

export type CalculationOutcome =
  | { ok: true; result: CalculationResult }
  | { ok: false; reason: 'marketplaceFeeTooHigh'; partial: BaseCosts };

const BATCH_SIZES = { priceForFive: 5, priceForTen: 10, priceForTwenty: 20 } as const;

function assertCalculable(input: CalculatorInput): void {
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === 'boolean') continue; // switches (checkbox fields) are always calculable
    if (name === 'filaments' && Array.isArray(value)) {
      assertFilamentLines(input.filaments!);
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new RangeError(`calculate(): ${name} must be a finite number, got ${String(value)}`);
    }
  }
  if (input.printerLifetimeHours <= 0) {
    throw new RangeError('calculate(): printerLifetimeHours must be greater than 0');
  }
  if ((input.failureRate ?? 0) >= 100) {
    throw new RangeError('calculate(): failureRate must be below 100 (a 100 % failure rate divides by zero)');
  }
}

function assertFilamentLines(lines: NonNullable<CalculatorInput['filaments']>): void {
  if (lines.length === 0) throw new RangeError('calculate(): filaments must hold at least one line');
  for (const { grams, pricePerKg } of lines) {
    if (!Number.isFinite(grams) || !Number.isFinite(pricePerKg)) {
      throw new RangeError('calculate(): every filament line needs finite grams and price per kg');
    }
  }
}

/**
 * Filament cost of one piece before the failure surcharge: Σ grams / 1000 × €/kg
 * (issue 23). One line is computed exactly as before the lines existed, so its
 * figures do not move by a rounding step.
 */
export function filamentCostPerPiece(input: Pick<CalculatorInput, 'filamentWeight' | 'filamentPricePerKg' | 'filaments'>): number {
  if (!input.filaments) return (input.filamentWeight / 1000) * input.filamentPricePerKg;
  let sum = 0;
  for (const line of input.filaments) sum += (line.grams / 1000) * line.pricePerKg;
  return sum;
}

function baseCosts(input: CalculatorInput): BaseCosts {
  const q = input.quantity;
  // Fehldruckrate (issue 13 §3): of every (1 − rate) prints one succeeds, so material,
  // power and wear are paid 1 / (1 − rate) times. At 0 this divides by exactly 1.
  const succeeding = 1 - (input.failureRate ?? 0) / 100;
  return {
    filamentCost: (filamentCostPerPiece(input) * q) / succeeding,
    powerCost: (input.printTime * (input.printerWattage / 1000) * input.electricityRate * q) / succeeding,
    // Preparation is once per order, post-processing per piece.
    laborCost:
      (input.preparationTime / 60) * input.hourlyRate +
      (input.postProcessingTime / 60) * input.hourlyRate * q,
    depreciationCost: ((input.printerCost / input.printerLifetimeHours) * input.printTime * q) / succeeding,
    // Packaging and shipping are paid once per order, regardless of quantity.
    shippingTotal: input.packagingCost + input.shippingCost,
  };
}

function sumBase(b: BaseCosts): number {
  return b.filamentCost + b.powerCost + b.laborCost + b.depreciationCost + b.shippingTotal;
}

type PricedCore = {
  base: BaseCosts;
  marketplaceFees: number;
  totalCosts: number;
  minimumPrice: number;
  minimumPriceWithVat: number;
};

/** Callers must ensure marketplaceFeePercent < 100. */
function price(input: CalculatorInput): PricedCore {
  const base = baseCosts(input);
  const baseTotal = sumBase(base);
  const feeRate = input.marketplaceFeePercent / 100;

  let marketplaceFees: number;
  if (input.targetPrice > 0) {
    // Fees are charged on the actual (target) sale price.
    marketplaceFees = input.targetPrice * feeRate + input.marketplaceFeeFixed;
  } else {
    // Gross-up: the price at which, after the fee, the costs are covered.
    const grossPrice = (baseTotal + input.marketplaceFeeFixed) / (1 - feeRate);
    marketplaceFees = grossPrice - baseTotal;
  }

  const totalCosts = baseTotal + marketplaceFees;
  const minimumPrice = totalCosts * (1 + input.profitMargin / 100);
  const minimumPriceWithVat = minimumPrice * (1 + effectiveVatPercent(input) / 100);
  return { base, marketplaceFees, totalCosts, minimumPrice, minimumPriceWithVat };
}

/**
 * Per-unit price including VAT for a batch of `n` (project rule): the same
 * inputs priced for quantity `n` without a target price, divided by `n`.
 * Preparation is thereby spread over the batch, post-processing is per piece
 * and shipping is paid once.
 */
function batchUnitPrice(input: CalculatorInput, n: number): number {
  return price({ ...input, quantity: n, targetPrice: 0 }).minimumPriceWithVat / n;
}

export function calculate(input: CalculatorInput): CalculationOutcome {
  assertCalculable(input);

  if (input.marketplaceFeePercent >= 100) {
    // The fee would eat the whole sale: no price (and no batch price) exists.
    return { ok: false, reason: 'marketplaceFeeTooHigh', partial: baseCosts(input) };
  }

  const core = price(input);
  const { totalCosts, minimumPrice, minimumPriceWithVat } = core;
  const hasTarget = input.targetPrice > 0;
  const targetPriceProfit = hasTarget ? input.targetPrice - totalCosts : 0;
  const targetPriceProfitMargin =
    hasTarget && totalCosts !== 0 ? (targetPriceProfit / totalCosts) * 100 : 0;

  const result: CalculationResult = {
    ...core.base,
    totalCosts,
    marketplaceFees: core.marketplaceFees,
    minimumPrice,
    vatAmount: minimumPriceWithVat - minimumPrice,
    minimumPriceWithVat,
    breakEven: totalCosts,
    profit: minimumPrice - totalCosts,
    priceForFive: batchUnitPrice(input, BATCH_SIZES.priceForFive),
    priceForTen: batchUnitPrice(input, BATCH_SIZES.priceForTen),
    priceForTwenty: batchUnitPrice(input, BATCH_SIZES.priceForTwenty),
    targetPriceProfit,
    targetPriceProfitMargin,
  };

  for (const [name, value] of Object.entries(result)) {
    if (!Number.isFinite(value)) {
      throw new RangeError(`calculate(): ${name} is not finite; inputs are out of range`);
    }
  }
  return { ok: true, result };
}

/**
 * The minimum price incl. VAT alone, by the same rules as calculate() (a
 * list card's figure: the projects page prices 24 saved calculations per
 * request, and the batch prices would triple the work). Null when no price
 * exists (the marketplace fee takes the whole sale or more).
 */
export function minimumPriceWithVat(input: CalculatorInput): number | null {
  assertCalculable(input);
  if (input.marketplaceFeePercent >= 100) return null;
  const value = price(input).minimumPriceWithVat;
  if (!Number.isFinite(value)) throw new RangeError('minimumPriceWithVat(): not finite; inputs are out of range');
  return value;
}

/**
 * Total costs and minimum price net and incl. VAT alone, by the same rules and with the same
 * values as calculate() (what a saved project stores with itself: pricing 100,000 projects at
 * start, the batch prices would triple the work). Null when no price exists.
 */
export function minimumPrices(input: CalculatorInput): { totalCosts: number; minimumPrice: number; minimumPriceWithVat: number } | null {
  assertCalculable(input);
  if (input.marketplaceFeePercent >= 100) return null;
  const { totalCosts, minimumPrice, minimumPriceWithVat } = price(input);
  if (![totalCosts, minimumPrice, minimumPriceWithVat].every(Number.isFinite)) throw new RangeError('minimumPrices(): not finite; inputs are out of range');
  return { totalCosts, minimumPrice, minimumPriceWithVat };
}

/** § 19 UStG (Kleinunternehmer): no VAT is charged, whatever the VAT field says. */
export function effectiveVatPercent(input: Pick<CalculatorInput, 'vatPercent' | 'smallBusiness'>): number {
  return input.smallBusiness ? 0 : input.vatPercent;
}
