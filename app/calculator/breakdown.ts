/**
 * Sums and groupings of a calculation result for display (cost overview,
 * detailed costs). Apart from ./engine.ts on purpose: the result pages render
 * from the server's figures, so the first visit's JavaScript needs these
 * helpers but not the engine, which comes with the live-calculation chunk.
 */
import type { CalculationResult } from './engine';

export type CostCategoryKey = 'filament' | 'power' | 'wear' | 'labor' | 'shipping' | 'marketplace';

export type CostCategory = { key: CostCategoryKey; amount: number };

/**
 * The part of filament, power and wear costs that pays for failed prints:
 * cost × rate (since cost = base / (1 − rate), cost − base = cost × rate).
 */
export function failureSurcharge(
  r: Pick<CalculationResult, 'filamentCost' | 'powerCost' | 'depreciationCost'>,
  failureRate: number,
): number {
  return (r.filamentCost + r.powerCost + r.depreciationCost) * (failureRate / 100);
}

/**
 * Sum shown in the collapsible detailed-costs summary:
 * filament + power + depreciation + shipping (labour and marketplace fees
 * have their own cards).
 */
export function sumDetailedCosts(
  r: Pick<CalculationResult, 'filamentCost' | 'powerCost' | 'depreciationCost' | 'shippingTotal'>,
): number {
  return r.filamentCost + r.powerCost + r.depreciationCost + r.shippingTotal;
}

/**
 * The six cost-breakdown categories in display order (spec §9: Filament,
 * Strom, Druckerverschleiß, Arbeitszeit, Versand, Marktplatz). Labels are
 * i18n concerns of the UI; only keys and amounts are returned here.
 */
export function costBreakdown(r: CalculationResult): CostCategory[] {
  return [
    { key: 'filament', amount: r.filamentCost },
    { key: 'power', amount: r.powerCost },
    { key: 'wear', amount: r.depreciationCost },
    { key: 'labor', amount: r.laborCost },
    { key: 'shipping', amount: r.shippingTotal },
    { key: 'marketplace', amount: r.marketplaceFees },
  ];
}

/**
 * Each filament line's share of the filament cost (issue 23: the cost overview and
 * the print sheet list the lines when there are several), with the failure surcharge.
 */
export function filamentLineCosts(
  lines: ReadonlyArray<{ grams: number; pricePerKg: number }>,
  quantity: number,
  failureRate: number,
): number[] {
  const succeeding = 1 - failureRate / 100;
  return lines.map((line) => ((line.grams / 1000) * line.pricePerKg * quantity) / succeeding);
}
