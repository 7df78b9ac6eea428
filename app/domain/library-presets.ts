/**
 * Figures of the advice tables on /marketplaces and /shipping that a seller
 * can take into the library with one click. Values from
 * shared/data/fees-and-postage-2025.md (marketplaces: fee pages 2025; DHL:
 * private-customer prices from 1 January 2025). Browser-safe.
 */
import type { LibraryKind } from './library-definitions';

export type LibraryPreset = {
  id: string;
  /** The item's figures as the API would take them. */
  values: Record<string, number>;
  /** Text fields (name, service, description) as i18n keys under `library:presets.<id>`. */
  texts: readonly string[];
};

export const libraryPresets: Partial<Record<LibraryKind, readonly LibraryPreset[]>> = {
  marketplaces: [
    { id: 'etsy', values: { percentageFee: 0.105, fixedFee: 0.3 }, texts: ['name', 'description'] },
    { id: 'ebay-business', values: { percentageFee: 0.11, fixedFee: 0.35 }, texts: ['name'] },
    { id: 'ebay-private', values: { percentageFee: 0, fixedFee: 0 }, texts: ['name'] },
    // amazon.de: 12 % (15 % is the US rate). Its 0,30 € is a minimum per item, not a fee on top,
    // so fixedFee stays 0 and the description says so.
    { id: 'amazon-handmade', values: { percentageFee: 0.12, fixedFee: 0 }, texts: ['name', 'description'] },
    { id: 'stripe', values: { percentageFee: 0.015, fixedFee: 0.25 }, texts: ['name'] },
  ],
  shipping: [
    { id: 'dhl-paeckchen-s', values: { baseCost: 4.19 }, texts: ['name', 'service'] },
    { id: 'dhl-paket-2', values: { baseCost: 6.19 }, texts: ['name', 'service'] },
    { id: 'dhl-paket-5', values: { baseCost: 7.69 }, texts: ['name', 'service'] },
  ],
};

export function findPreset(kind: LibraryKind, id: unknown): LibraryPreset | null {
  return libraryPresets[kind]?.find((preset) => preset.id === id) ?? null;
}
