import { describe, expect, it } from 'vitest';
import { parseFilamentLines, parseProjectPayload } from '../../app/domain/project-payload';

/*
 * An API client sending the wrong type for a text field gets the German message next to the field,
 * never zod's English "Invalid input" (attacker review, 2026-11-27).
 */
describe('project payload: wrong types for text fields', () => {
  it('a filament line with an object as label or a number as library id', () => {
    const parsed = parseFilamentLines([
      { grams: 1, pricePerKg: 20, label: { a: 1 } },
      { grams: 1, pricePerKg: 20, filamentId: 5 },
    ]);
    expect(parsed).toEqual({
      ok: false,
      errors: { 'filaments.0.label': ['calculator:errors.notText'], 'filaments.1.filamentId': ['calculator:errors.notText'] },
    });
  });

  it('a library choice given as a number', () => {
    const parsed = parseProjectPayload({ name: 'x', selectedFilament: 5 });
    expect(parsed.ok).toBe(false);
    const messages = JSON.stringify(parsed);
    expect(messages).toContain('calculator:errors.notText');
    expect(messages).not.toContain('Invalid input');
  });
});
