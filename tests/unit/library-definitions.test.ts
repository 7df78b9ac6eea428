import { describe, expect, it } from 'vitest';
import { LIBRARY_KINDS, libraryDefaults, libraryDefinitions, librarySchema, percentMeaning, splitMessage } from '../../app/domain/library-definitions';

describe('library definitions', () => {
  it('has the §9 form defaults', () => {
    expect(libraryDefaults('printers')).toMatchObject({ wattage: 200, cost: 300, lifetimeHours: 3000, electricityRate: 0.32, isActive: 1 });
    expect(libraryDefaults('filaments')).toMatchObject({ pricePerKg: 25, material: 'PLA' });
    expect(libraryDefaults('packaging')).toMatchObject({ cost: 0.5, type: 'box' });
    expect(libraryDefaults('shipping')).toMatchObject({ baseCost: 4.95 });
    expect(libraryDefaults('marketplaces')).toMatchObject({ percentageFee: 0.05, fixedFee: 0.3 });
  });

  it('only the printer form has an active switch; every kind has a unique API path', () => {
    expect(LIBRARY_KINDS.filter((kind) => libraryDefinitions[kind].activeSwitch)).toEqual(['printers']);
    expect(new Set(LIBRARY_KINDS.map((kind) => libraryDefinitions[kind].apiPath)).size).toBe(5);
  });

  it('reads German and plain decimals and keeps missing fields undefined', () => {
    const parsed = librarySchema('marketplaces').safeParse({ name: ' Etsy ', percentageFee: '0,105', fixedFee: 0.3 });
    expect(parsed.success && parsed.data).toEqual({ name: 'Etsy', percentageFee: 0.105, fixedFee: 0.3, description: undefined, isActive: undefined });
  });

  it('gives the range message with its bounds', () => {
    const parsed = librarySchema('printers').safeParse({ wattage: '0' });
    expect(parsed.success).toBe(false);
    const message = parsed.error!.issues[0].message;
    expect(splitMessage(message)).toEqual({ key: 'library:errors.min', params: { min: '1' } });
  });

  it('shows a fee fraction as a percentage', () => {
    expect(percentMeaning('0,065')).toBe('= 6,5\u00A0%');
    expect(percentMeaning(0.105)).toBe('= 10,5\u00A0%');
    expect(percentMeaning('abc')).toBe('');
  });
});
