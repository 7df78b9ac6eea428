import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  businessDetailsSchema,
  createQuoteSchema,
  MAX_QUANTITY,
  MAX_QUOTE_TOTAL_CENTS,
  MAX_UNIT_PRICE_CENTS,
  quoteInputSchema,
  sendQuoteSchema,
} from '../../app/domain/quotes';

/**
 * Every bound of every quote field answers with a German message (an i18n key of
 * `quotes.json`), never zod's own English text ("Invalid input: expected number,
 * received number" came back for `unitPrice: 1e308`). Odd values by hand, then
 * seeded random ones, for every field of every quote schema, as JSON and as form text.
 */
const germanErrors = JSON.parse(readFileSync('public/locales/de/quotes.json', 'utf8')).errors as Record<string, string>;

const ODD: unknown[] = [
  1e308, -1e308, '1e308', '-1e308', 1e-308, 5e-324, 1e-300, 19.123456789, '19,123456789', 7.005, -0, Number.MAX_SAFE_INTEGER + 2, 2 ** 53, 1e21, '1e21', 0.005, 0.004999, 99_999.995, 1_000_000.004,
  1_000_000.005, 1_000_000, 1_000_001, 100_000, 100_001, 12.5, -1, '-1', '-0', '0,005', '1.000.000,00', '1.000.000,01', '1,000,000.01', '12,345,67',
  'NaN', 'Infinity', '-Infinity', 'infinity', '0x10', '0b1', '1_000', '١٢٣', '１２', '1 000', '  7  ', '', ' ', '\u00a0', '€ 12,50', '12,50 €', '12.5.6',
  ',', '.', '-', '+1', 'e5', '1e', '1e+', '9'.repeat(400), `0,${'9'.repeat(400)}`, 'a\u0000b', '\u202e12', 'x'.repeat(6000), null, undefined, true,
  false, [], [1], ['12'], {}, { value: 1 }, { toString: '1' },
];

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
const next = random(26);
const ALPHABET = '0123456789,.-+eE €%\u00a0 abc\u0000\n';
function randomValue(): unknown {
  const roll = next();
  if (roll < 0.3) return (next() - 0.3) * 10 ** Math.floor(next() * 320);
  if (roll < 0.4) return Math.floor((next() - 0.5) * 2_000_000);
  const length = Math.floor(next() * 14);
  return Array.from({ length }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
}

function expectGerman(result: z.ZodSafeParseResult<unknown>, label: string) {
  if (result.success) return;
  for (const issue of result.error.issues) {
    expect(issue.message, `${label} at ${issue.path.join('.')}`).toMatch(/^quotes:errors\.\w+$/);
    expect(germanErrors[issue.message.slice('quotes:errors.'.length)], `${label}: ${issue.message} has a German text`).toBeTruthy();
  }
}

const line = { kind: 'product', description: 'Vase', quantity: 2, unitPrice: '24,99', vatRate: 19 };
const SCHEMAS: { name: string; schema: z.ZodType; base: Record<string, unknown> }[] = [
  {
    name: 'quote',
    schema: quoteInputSchema,
    base: { customerName: 'Erika', customerAddress: 'Weg 1', customerEmail: 'e@example.de', quoteDate: '2026-11-26', validUntil: '2026-12-10', discountPercent: '5', closingText: 'Danke', lines: [line] },
  },
  { name: 'new quote', schema: createQuoteSchema, base: { projectId: 'p', customerName: 'Erika', customerAddress: 'Weg 1', customerEmail: 'e@example.de' } },
  { name: 'send', schema: sendQuoteSchema, base: { to: 'e@example.de', subject: 'Angebot', message: 'Hallo' } },
  {
    name: 'business details',
    schema: businessDetailsSchema,
    base: { businessName: 'Druck', address: 'Weg 1', email: 'a@example.de', phone: '0123', taxId: 'DE1', smallBusiness: 'on', bankDetails: 'IBAN', validityDays: '14', closingText: 'Danke' },
  },
];

/** Every field of a schema's body, the quote's line fields included (`lines.0.unitPrice`). */
function variants(base: Record<string, unknown>, value: unknown): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = Object.keys(base).map((field) => [field, { ...base, [field]: value }]);
  if (Array.isArray(base.lines)) {
    for (const field of Object.keys(line)) out.push([`lines.0.${field}`, { ...base, lines: [{ ...line, [field]: value }] }]);
    out.push(['lines.0', { ...base, lines: [value] }]);
  }
  return out;
}

describe('quote schemas under odd input', () => {
  for (const { name, schema, base } of SCHEMAS) {
    it(`${name}: every refusal is a German message, every acceptance within the bounds`, () => {
      expect(schema.safeParse(base).success, `${name} base`).toBe(true);
      const values = [...ODD, ...Array.from({ length: 300 }, randomValue)];
      for (const value of values) {
        for (const [field, body] of variants(base, value)) {
          const label = `${name}.${field} = ${String(JSON.stringify(value)).slice(0, 40)}`;
          const result = schema.safeParse(body);
          expectGerman(result, label);
          if (result.success && name === 'quote') {
            const data = result.data as z.infer<typeof quoteInputSchema>;
            for (const parsed of data.lines) {
              expect(Number.isInteger(parsed.unitPrice) && parsed.unitPrice >= 0 && parsed.unitPrice <= MAX_UNIT_PRICE_CENTS, label).toBe(true);
              expect(Number.isInteger(parsed.quantity) && parsed.quantity >= 1 && parsed.quantity <= MAX_QUANTITY, label).toBe(true);
              expect(parsed.vatRate >= 0 && parsed.vatRate <= 100, label).toBe(true);
              expect(Math.round(parsed.vatRate * 100) / 100, `${label}: at most two decimals`).toBe(parsed.vatRate);
            }
            expect(data.discountPercent >= 0 && data.discountPercent <= 100, label).toBe(true);
            expect(data.lines.reduce((sum, item) => sum + item.quantity * item.unitPrice, 0)).toBeLessThanOrEqual(MAX_QUOTE_TOTAL_CENTS);
          }
        }
      }
    });
  }

  it('names the field a huge number was typed into', () => {
    const base = SCHEMAS[0].base;
    const at = (body: Record<string, unknown>) => {
      const result = quoteInputSchema.safeParse(body);
      return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
    };
    expect(at({ ...base, lines: [{ ...line, unitPrice: 1e308 }] })).toEqual({ 'lines.0.unitPrice': 'quotes:errors.price' });
    expect(at({ ...base, lines: [{ ...line, unitPrice: '1e308' }] })).toEqual({ 'lines.0.unitPrice': 'quotes:errors.price' });
    expect(at({ ...base, lines: [{ ...line, quantity: 1e308 }] })['lines.0.quantity']).toBe('quotes:errors.quantity');
    expect(at({ ...base, lines: [{ ...line, vatRate: 1e308 }] })).toEqual({ 'lines.0.vatRate': 'quotes:errors.vatRate' });
    for (const vatRate of [1e-300, 19.123456789, '19,123', 0.001, 5e-324]) {
      expect(at({ ...base, lines: [{ ...line, vatRate }] }), String(vatRate)).toEqual({ 'lines.0.vatRate': 'quotes:errors.vatRateDecimals' });
    }
    for (const [vatRate, parsed] of [[19, 19], ['5,5', 5.5], [7.25, 7.25], ['19,12', 19.12], [0, 0], [100, 100]] as const) {
      const result = quoteInputSchema.safeParse({ ...base, lines: [{ ...line, vatRate }] });
      expect(result.success && result.data.lines[0].vatRate, String(vatRate)).toBe(parsed);
    }
    expect(at({ ...base, discountPercent: 1e308 })).toEqual({ discountPercent: 'quotes:errors.discount' });
    expect(at({ ...base, lines: [1] })).toEqual({ 'lines.0': 'quotes:errors.line' });
    expect(businessDetailsSchema.safeParse({ ...SCHEMAS[3].base, validityDays: 1e308 }).error?.issues[0].message).toBe('quotes:errors.validityDays');
  });
});
