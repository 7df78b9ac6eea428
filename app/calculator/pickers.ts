/**
 * The calculator's five library pickers (spec §4 "Picking stored items"):
 * which library kind each offers, the name of its select (spec §3), the card
 * it sits in, and which calculator fields an item fills with which of its
 * values. Browser-safe: the select copies values with JavaScript, the loader
 * does the same for `?apply=<picker>` without it.
 */
import type { LibraryKind } from '../domain/library-definitions';
import { formatDecimalInput } from '../lib/number';
import type { CalculatorFieldName, CalculatorSection } from './fields';

export type PickerId = 'printer' | 'filament' | 'packaging' | 'shipping' | 'marketplace';

export type PickerSpec = {
  id: PickerId;
  kind: LibraryKind;
  /** The select's name and the address parameter (spec §3: the item's id). */
  param: 'selectedPrinter' | 'selectedFilament' | 'selectedPackaging' | 'selectedShippingProvider' | 'selectedMarketplace';
  section: CalculatorSection;
  /** Calculator field ← the item's value (times `factor`). */
  fills: ReadonlyArray<{ field: CalculatorFieldName; from: string; factor?: number }>;
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
      { field: 'printerCost', from: 'cost' },
      { field: 'printerLifetimeHours', from: 'lifetimeHours' },
      { field: 'electricityRate', from: 'electricityRate' },
    ],
  },
  {
    id: 'filament',
    kind: 'filaments',
    param: 'selectedFilament',
    section: 'printerFilament',
    fills: [{ field: 'filamentPricePerKg', from: 'pricePerKg' }],
    carries: ['material', 'color', 'brand'],
  },
  { id: 'packaging', kind: 'packaging', param: 'selectedPackaging', section: 'packagingShipping', fills: [{ field: 'packagingCost', from: 'cost' }] },
  { id: 'shipping', kind: 'shipping', param: 'selectedShippingProvider', section: 'packagingShipping', fills: [{ field: 'shippingCost', from: 'baseCost' }] },
  {
    id: 'marketplace',
    kind: 'marketplaces',
    param: 'selectedMarketplace',
    section: 'marketplace',
    fills: [
      // Stored as a fraction (0.065), entered in the calculator as percent (6.5).
      { field: 'marketplaceFeePercent', from: 'percentageFee', factor: 100 },
      { field: 'marketplaceFeeFixed', from: 'fixedFee' },
    ],
  },
];

export function pickerById(id: unknown): PickerSpec | null {
  return calculatorPickers.find((picker) => picker.id === id) ?? null;
}

/** The picker's values of an item as the inputs show them (German decimals). */
export function pickerTexts(picker: PickerSpec, item: PickerItem): Array<[CalculatorFieldName, string]> {
  return picker.fills.map(({ field, from, factor = 1 }) => {
    // Rounded so 0.07 × 100 shows as 7, not 7,000000000000001.
    const number = Math.round(Number(item[from]) * factor * 1e6) / 1e6;
    return [field, formatDecimalInput(number)];
  });
}

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
  /** The info box after a no-JS apply: what was taken over from which item. */
  applied: { picker: PickerId; name: string; fields: Array<[string, string]> } | null;
  /**
   * Each kind's library page (for "add one" under an empty picker). Sent as data so the
   * calculator's first-visit JavaScript does not carry the library definitions and zod.
   */
  paths: Record<LibraryKind, string>;
};
