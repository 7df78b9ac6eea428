import { z } from 'zod';
import { calculatorFields } from '../calculator/fields';
import type { PickerId } from '../calculator/pickers';
import { parseGermanNumber } from '../lib/parse-number';

/**
 * 'Meine Standardwerte' (issue 24 §4): the values a signed-in seller's new calculation
 * starts from. Every field is optional: empty means the calculator's own default.
 * One schema for the /profile form (browser and server). Bounds are the calculator's
 * (field table), so a default is always a value the calculator accepts.
 */

export const CALCULATOR_DEFAULTS_INTENT = 'saveCalculatorDefaults';

/** The number fields, by their calculator field name. */
export const DEFAULT_NUMBER_FIELDS = ['hourlyRate', 'profitMargin', 'vatPercent', 'failureRate'] as const;
export type DefaultNumberField = (typeof DEFAULT_NUMBER_FIELDS)[number];

/** The library items, by picker, and the form field that names each. */
export const DEFAULT_ITEM_FIELDS = {
  printer: 'defaultPrinter',
  filament: 'defaultFilament',
  packaging: 'defaultPackaging',
  shipping: 'defaultShippingProvider',
  marketplace: 'defaultMarketplace',
} as const satisfies Record<PickerId, string>;
export type DefaultItemField = (typeof DEFAULT_ITEM_FIELDS)[PickerId];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const E = {
  number: 'project-tools:defaults.errors.number',
  item: 'project-tools:defaults.errors.item',
};

/** An optional number as typed ('17,50'); empty → null; outside the calculator's bounds → its own message. */
function optionalNumber(name: DefaultNumberField) {
  const spec = calculatorFields[name];
  const range = `calculator:errors.${'max' in spec.errors ? spec.errors.max : spec.errors.min}`;
  const min = `calculator:errors.${spec.errors.min}`;
  return z
    .union([z.number(), z.string()], { error: E.number })
    .nullable()
    .optional()
    .transform((value, ctx) => {
      if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return null;
      const result = typeof value === 'number' ? null : parseGermanNumber(value);
      const parsed = typeof value === 'number' ? value : result?.status === 'ok' ? result.value : NaN;
      if (!Number.isFinite(parsed)) {
        ctx.addIssue({ code: 'custom', message: E.number });
        return z.NEVER;
      }
      if (parsed < spec.min) {
        ctx.addIssue({ code: 'custom', message: min });
        return z.NEVER;
      }
      if (parsed > ('max' in spec && spec.max !== undefined ? spec.max : Number.MAX_SAFE_INTEGER)) {
        ctx.addIssue({ code: 'custom', message: range });
        return z.NEVER;
      }
      return parsed;
    });
}

/** A library item's id or empty ('keine Vorauswahl'); whether it is the user's own is checked when saving. */
const optionalItem = z
  .string({ error: E.item })
  .nullable()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    if (!UUID.test(value)) {
      ctx.addIssue({ code: 'custom', message: E.item });
      return z.NEVER;
    }
    return value.toLowerCase();
  });

export const calculatorDefaultsSchema = z.object({
  hourlyRate: optionalNumber('hourlyRate'),
  profitMargin: optionalNumber('profitMargin'),
  vatPercent: optionalNumber('vatPercent'),
  failureRate: optionalNumber('failureRate'),
  smallBusiness: z
    .union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('1'), z.literal('false'), z.literal('0'), z.literal('')])
    .optional()
    .transform((value) => value === true || value === 'on' || value === 'true' || value === '1'),
  defaultPrinter: optionalItem,
  defaultFilament: optionalItem,
  defaultPackaging: optionalItem,
  defaultShippingProvider: optionalItem,
  defaultMarketplace: optionalItem,
});
export type CalculatorDefaultsInput = z.infer<typeof calculatorDefaultsSchema>;

/** The stored defaults as the form and the calculator read them (null: not set). */
export type CalculatorDefaultsValues = { [K in DefaultNumberField]: number | null } & { smallBusiness: boolean } & { [K in DefaultItemField]: string | null };
