/**
 * The calculator's five library pickers (spec §4 "Picking stored items"):
 * which library kind each offers, the name of its select (spec §3), the card
 * it sits in, and which calculator fields an item fills with which of its
 * values. Browser-safe: the select copies values with JavaScript, the loader
 * does the same for `?apply=<picker>` without it.
 */
import type { LibraryKind } from '../domain/library-definitions';
import { formatDecimalInput, formatMoney, formatMoneyInput, formatQuantity } from '../lib/number';
import type { CalculatorFieldName, CalculatorSection } from './fields';

export type PickerId = 'printer' | 'filament' | 'packaging' | 'shipping' | 'marketplace';

export type PickerSpec = {
  id: PickerId;
  kind: LibraryKind;
  /** The select's name and the address parameter (spec §3: the item's id). */
  param: 'selectedPrinter' | 'selectedFilament' | 'selectedPackaging' | 'selectedShippingProvider' | 'selectedMarketplace';
  section: CalculatorSection;
  /** Calculator field ← the item's value (times `factor`). */
  fills: ReadonlyArray<{ field: CalculatorFieldName; from: string; factor?: number; /** An amount of money (two decimals). */ money?: true }>;
  /** Texts the item also brings along (issue 23: a slicer import matches its lines to the filaments by these). */
  carries?: readonly string[];
};

/** What the browser gets of an item: its id, name and the values a picker copies. */
export type PickerItem = { id: string; name: string } & Record<string, number | string>;

export const calculatorPickers: readonly PickerSpec[] = [
  {
    id: 'printer',
    kind: 'printers',
    param: 'selectedPrinter',
    section: 'printerFilament',
    fills: [
      { field: 'printerWattage', from: 'wattage' },
      { field: 'printerCost', from: 'cost', money: true },
      { field: 'printerLifetimeHours', from: 'lifetimeHours' },
      { field: 'electricityRate', from: 'electricityRate', money: true },
    ],
  },
  {
    id: 'filament',
    kind: 'filaments',
    param: 'selectedFilament',
    section: 'printerFilament',
    fills: [{ field: 'filamentPricePerKg', from: 'pricePerKg', money: true }],
    carries: ['material', 'color', 'brand'],
  },
  { id: 'packaging', kind: 'packaging', param: 'selectedPackaging', section: 'packagingShipping', fills: [{ field: 'packagingCost', from: 'cost', money: true }] },
  { id: 'shipping', kind: 'shipping', param: 'selectedShippingProvider', section: 'packagingShipping', fills: [{ field: 'shippingCost', from: 'baseCost', money: true }] },
  {
    id: 'marketplace',
    kind: 'marketplaces',
    param: 'selectedMarketplace',
    section: 'marketplace',
    fills: [
      // Stored as a fraction (0.065), entered in the calculator as percent (6.5).
      { field: 'marketplaceFeePercent', from: 'percentageFee', factor: 100 },
      { field: 'marketplaceFeeFixed', from: 'fixedFee', money: true },
    ],
  },
];

export function pickerById(id: unknown): PickerSpec | null {
  return calculatorPickers.find((picker) => picker.id === id) ?? null;
}

/** The picker's values of an item as numbers, in the calculator's units (percent, not a fraction). */
export function pickerValues(picker: PickerSpec, item: PickerItem): Array<[CalculatorFieldName, number]> {
  return picker.fills.map(({ field, from, factor = 1 }) => [field, Math.round(Number(item[from]) * factor * 1e6) / 1e6]);
}

/**
 * The picker's values of an item as the inputs take them: German decimals the
 * parser reads back, money with two (`0,50`, `1299,50`; issue 24 §1).
 * Rounded so 0.07 × 100 shows as 7, not 7,000000000000001.
 */
export function pickerTexts(picker: PickerSpec, item: PickerItem): Array<[CalculatorFieldName, string]> {
  return pickerValues(picker, item).map(([field, value]) => {
    const money = picker.fills.some((fill) => fill.field === field && fill.money);
    return [field, money ? formatMoneyInput(value) : formatDecimalInput(value)];
  });
}

/**
 * A value as the 'Automatisch übernommen' box shows it, the pages' rule (issue 24 §1):
 * money `1.299,50 €`, `27,90 €/kg`; quantities `6.000 h`, `1.200 W`. `unit` comes from the locales.
 */
export function pickerValueText(picker: PickerSpec, field: CalculatorFieldName, value: number, unit: string): string {
  const money = picker.fills.some((fill) => fill.field === field && fill.money);
  return money ? formatMoney(value, unit || '€') : formatQuantity(value, unit);
}

/** What one 'Automatisch übernommen' box lists: the item's name and the values it gave the fields. */
export type PickerApplied = { picker: PickerId; name: string; values: Array<[CalculatorFieldName, number]> };

/** Only what the picker copies travels to the browser. */
export function toPickerItem(picker: PickerSpec, item: { id: string; name: string } & Record<string, unknown>): PickerItem {
  const result: PickerItem = { id: item.id, name: item.name };
  for (const { from } of picker.fills) result[from] = Number(item[from]);
  for (const name of picker.carries ?? []) if (typeof item[name] === 'string' && item[name] !== '') result[name] = item[name];
  return result;
}

/** The pickers as the calculator page renders them: the user's items, the chosen ones, and where to add more. */
export type PickerState = {
  items: Record<PickerId, PickerItem[]>;
  selected: Record<PickerId, string>;
  /**
   * The info boxes after no-JS applies: what was taken over from which item, one per
   * picker applied in a row (the address's `applied` list), not only the last (issue 24 §2).
   */
  applied: PickerApplied[];
  /**
   * Each kind's library page (for "add one" under an empty picker). Sent as data so the
   * calculator's first-visit JavaScript does not carry the library definitions and zod.
   */
  paths: Record<LibraryKind, string>;
};
