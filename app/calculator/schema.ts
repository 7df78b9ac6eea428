/**
 * The one zod 4 schema for the calculator form (product spec §5
 * "Calculator form"). Used by the server loader via
 * `parseWithZod(searchParams, { schema: calculatorSchema })` from
 * `@conform-to/zod/v4` and in the browser. Browser-safe (no Node imports).
 *
 * Error messages are i18n KEYS (namespace `calculator`, object `errors`,
 * see public/locales/de/calculator.json), never German text.
 *
 * ── Missing vs. empty ────────────────────────────────────────────────────
 * Rule: a field that is MISSING from the submission falls back to its default
 * (so `/calculator?filamentWeight=50` works), but a field that is PRESENT AND
 * EMPTY (`filamentWeight=`) is an error (`calculator:errors.required`) —
 * except `targetPrice`, where empty means 0 ("no target price").
 *
 * Conform's auto-coercion (`coerceFormValue`) turns '' into `undefined` for
 * every `z.string()`, `z.number()`, `.optional()` and `.default()` schema, which
 * would make "missing" and "empty" indistinguishable. The numeric fields are
 * therefore built on `z.unknown().transform(...)`: conform leaves `unknown`
 * and `transform` untouched, so the raw '' reaches our parser. That also means
 * the schema does its own coercion (German decimals via `parseDecimal`) and
 * behaves identically with `calculatorSchema.safeParse(Object.fromEntries(...))`,
 * with or without conform. (Plain numbers are accepted too.)
 *
 * The optional text fields (projectName, productImagePath, selected*) do go
 * through conform's string coercion: for them missing and empty are the same
 * thing (both mean "not given"), which is the intended behaviour.
 *
 * Project decision: the calculation does NOT require projectName — a visitor
 * calculating a price does not need a name. Saving a project does (the
 * projects issue adds that rule where projects are saved).
 */
// zod/mini: the same zod 4 engine without the method-chaining classes, so the
// schema costs the browser a few kB instead of ~15 kB (see README, bundle budget).
import * as z from 'zod/mini';
import { parseDecimal } from '../utils/number';
import { calculatorDefaults } from './defaults';
import type { CalculatorInput } from './engine';

const E = {
  required: 'calculator:errors.required',
  notANumber: 'calculator:errors.notANumber',
  notAnInteger: 'calculator:errors.notAnInteger',
  tooLarge: 'calculator:errors.tooLarge',
  textTooLong: 'calculator:errors.textTooLong',
  projectNameRequired: 'calculator:errors.projectNameRequired',
  projectNameTooLong: 'calculator:errors.projectNameTooLong',
  quantityMin: 'calculator:errors.quantityMin',
  quantityMax: 'calculator:errors.quantityMax',
  filamentWeightMin: 'calculator:errors.filamentWeightMin',
  filamentPricePerKgMin: 'calculator:errors.filamentPricePerKgMin',
  printTimeHoursRange: 'calculator:errors.printTimeHoursRange',
  printTimeMinutesRange: 'calculator:errors.printTimeMinutesRange',
  printTimeMin: 'calculator:errors.printTimeMin',
  printerWattageMin: 'calculator:errors.printerWattageMin',
  electricityRateMin: 'calculator:errors.electricityRateMin',
  preparationTimeMin: 'calculator:errors.preparationTimeMin',
  postProcessingTimeMin: 'calculator:errors.postProcessingTimeMin',
  hourlyRateMin: 'calculator:errors.hourlyRateMin',
  packagingCostMin: 'calculator:errors.packagingCostMin',
  shippingCostMin: 'calculator:errors.shippingCostMin',
  marketplaceFeeRange: 'calculator:errors.marketplaceFeeRange',
  marketplaceFeeFixedMin: 'calculator:errors.marketplaceFeeFixedMin',
  profitMarginRange: 'calculator:errors.profitMarginRange',
  targetPriceMin: 'calculator:errors.targetPriceMin',
  printerCostMin: 'calculator:errors.printerCostMin',
  printerLifetimeHoursMin: 'calculator:errors.printerLifetimeHoursMin',
  vatPercentRange: 'calculator:errors.vatPercentRange',
} as const;

/** All error keys this schema can produce (handy for tests and locale checks). */
export const calculatorErrorKeys = E;

/** Upper cap for fields the spec leaves open-ended: absurd input gets a message, not Infinity. */
const MAX = 1_000_000;

type NumberFieldOptions = {
  /** value used when the field is missing from the submission */
  fallback: number;
  /** value used when the field is present but empty; omit → 'required' error */
  whenEmpty?: number;
  min: number;
  minMessage: string;
  max?: number;
  maxMessage?: string;
  integer?: boolean;
};

function numberField(o: NumberFieldOptions) {
  const max = o.max ?? MAX;
  const maxMessage = o.maxMessage ?? E.tooLarge;
  return z.pipe(z.unknown(), z.transform((raw: unknown, ctx): number => {
    const fail = (message: string): never => {
      ctx.issues.push({ code: 'custom', message, input: raw });
      return z.NEVER;
    };

    if (raw === undefined) return o.fallback;

    let value: number | undefined;
    if (typeof raw === 'number') {
      value = Number.isFinite(raw) ? raw : undefined;
    } else if (typeof raw === 'string') {
      if (raw.trim() === '') {
        return o.whenEmpty !== undefined ? o.whenEmpty : fail(E.required);
      }
      value = parseDecimal(raw);
    }
    // Anything else (e.g. an array from a repeated query key) is not a number.
    if (value === undefined) return fail(E.notANumber);

    if (o.integer && !Number.isInteger(value)) return fail(E.notAnInteger);
    if (value < o.min) return fail(o.minMessage);
    if (value > max) return fail(maxMessage);
    return value;
  }));
}

const d = calculatorDefaults;

const optionalText = (max = 200) => z.optional(z.string().check(z.trim(), z.maxLength(max, E.textTooLong)));

const shape = {
  // Optional for calculating (see header); conform turns '' into undefined → ''.
  projectName: z._default(z.string().check(z.trim(), z.maxLength(200, E.projectNameTooLong)), ''),

  quantity: numberField({
    fallback: d.quantity,
    min: 1,
    minMessage: E.quantityMin,
    max: 100_000,
    maxMessage: E.quantityMax,
    integer: true,
  }),
  filamentWeight: numberField({ fallback: d.filamentWeight, min: 0.1, minMessage: E.filamentWeightMin }),
  filamentPricePerKg: numberField({
    fallback: d.filamentPricePerKg,
    min: 0.01,
    minMessage: E.filamentPricePerKgMin,
  }),
  printTimeHours: numberField({
    fallback: d.printTimeHours,
    min: 0,
    minMessage: E.printTimeHoursRange,
    max: 99,
    maxMessage: E.printTimeHoursRange,
    integer: true,
  }),
  printTimeMinutes: numberField({
    fallback: d.printTimeMinutes,
    min: 0,
    minMessage: E.printTimeMinutesRange,
    max: 59,
    maxMessage: E.printTimeMinutesRange,
    integer: true,
  }),
  printerWattage: numberField({ fallback: d.printerWattage, min: 1, minMessage: E.printerWattageMin }),
  electricityRate: numberField({ fallback: d.electricityRate, min: 0.01, minMessage: E.electricityRateMin }),
  preparationTime: numberField({ fallback: d.preparationTime, min: 0, minMessage: E.preparationTimeMin }),
  postProcessingTime: numberField({
    fallback: d.postProcessingTime,
    min: 0,
    minMessage: E.postProcessingTimeMin,
  }),
  hourlyRate: numberField({ fallback: d.hourlyRate, min: 0.01, minMessage: E.hourlyRateMin }),
  packagingCost: numberField({ fallback: d.packagingCost, min: 0, minMessage: E.packagingCostMin }),
  shippingCost: numberField({ fallback: d.shippingCost, min: 0, minMessage: E.shippingCostMin }),
  marketplaceFeePercent: numberField({
    fallback: d.marketplaceFeePercent,
    min: 0,
    minMessage: E.marketplaceFeeRange,
    max: 100,
    maxMessage: E.marketplaceFeeRange,
  }),
  marketplaceFeeFixed: numberField({
    fallback: d.marketplaceFeeFixed,
    min: 0,
    minMessage: E.marketplaceFeeFixedMin,
  }),
  profitMargin: numberField({
    fallback: d.profitMargin,
    min: 0,
    minMessage: E.profitMarginRange,
    max: 200,
    maxMessage: E.profitMarginRange,
  }),
  // Empty means "no target price" (0).
  targetPrice: numberField({ fallback: d.targetPrice, whenEmpty: 0, min: 0, minMessage: E.targetPriceMin }),
  printerCost: numberField({ fallback: d.printerCost, min: 0, minMessage: E.printerCostMin }),
  printerLifetimeHours: numberField({
    fallback: d.printerLifetimeHours,
    min: 1,
    minMessage: E.printerLifetimeHoursMin,
  }),
  vatPercent: numberField({
    fallback: d.vatPercent,
    min: 0,
    minMessage: E.vatPercentRange,
    max: 100,
    maxMessage: E.vatPercentRange,
  }),

  productImagePath: optionalText(1000),
  selectedFilament: optionalText(),
  selectedPrinter: optionalText(),
  selectedPackaging: optionalText(),
  selectedShippingProvider: optionalText(),
  selectedMarketplace: optionalText(),
};

/** 0.1 h = 6 min (spec §5: printTime >= 0.1). */
const MIN_PRINT_TIME_HOURS = 0.1;

type PrintTimeParts = { printTimeHours: number; printTimeMinutes: number };

function withPrintTimeRule<T extends z.ZodMiniType<PrintTimeParts>>(schema: T) {
  return schema.check(z.refine<PrintTimeParts>(
    (v) => v.printTimeHours + v.printTimeMinutes / 60 >= MIN_PRINT_TIME_HOURS,
    {
      message: E.printTimeMin,
      path: ['printTimeHours'],
      // Run even if unrelated fields are invalid (so all errors show at once),
      // but only when both time parts parsed cleanly.
      when: (payload) =>
        !payload.issues.some(
          (issue) => issue.path?.[0] === 'printTimeHours' || issue.path?.[0] === 'printTimeMinutes',
        ),
    },
  ));
}

const calculatorObject = z.object(shape);

export const calculatorSchema = withPrintTimeRule(calculatorObject);

export type CalculatorFormValues = z.infer<typeof calculatorSchema>;

/** Combines hours + minutes into decimal `printTime` and drops the text fields. */
export function toCalculatorInput(values: CalculatorFormValues): CalculatorInput {
  return {
    quantity: values.quantity,
    filamentWeight: values.filamentWeight,
    filamentPricePerKg: values.filamentPricePerKg,
    printTime: values.printTimeHours + values.printTimeMinutes / 60,
    printerWattage: values.printerWattage,
    electricityRate: values.electricityRate,
    preparationTime: values.preparationTime,
    postProcessingTime: values.postProcessingTime,
    hourlyRate: values.hourlyRate,
    packagingCost: values.packagingCost,
    shippingCost: values.shippingCost,
    marketplaceFeePercent: values.marketplaceFeePercent,
    marketplaceFeeFixed: values.marketplaceFeeFixed,
    profitMargin: values.profitMargin,
    targetPrice: values.targetPrice,
    printerCost: values.printerCost,
    printerLifetimeHours: values.printerLifetimeHours,
    vatPercent: values.vatPercent,
  };
}
