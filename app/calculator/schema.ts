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
 * The fields, their bounds and error keys come from ./fields.ts (one table).
 *
 * Project decision: the calculation does NOT require projectName — a visitor
 * calculating a price does not need a name. Saving a project does (the
 * projects issue adds that rule where projects are saved).
 */
// zod/mini: the same zod 4 engine without the method-chaining classes, so the
// schema costs the browser a few kB instead of ~15 kB (see docs/performance.md, bundle budget).
import * as z from 'zod/mini';
import { parseGermanNumber } from '../lib/parse-number';
import {
  calculatorFields,
  extraLineFieldNames,
  lineBaseField,
  MAX_NUMBER,
  type ExtraLineFieldName,
  toEngineInput,
  type AnyFieldName,
  type BooleanFieldSpec,
  type CalculatorInput,
  type FieldSpec,
  type NumberFieldSpec,
  type TextFieldSpec,
} from './fields';

const key = (name: string) => `calculator:errors.${name}`;

// The messages not tied to one field; the others are named in the field table.
const common = {
  required: key('required'),
  notANumber: key('notANumber'),
  ambiguousNumber: key('ambiguousNumber'),
  notAnInteger: key('notAnInteger'),
  notABoolean: key('notABoolean'),
  tooLarge: key('tooLarge'),
  textTooLong: key('textTooLong'),
  projectNameRequired: key('projectNameRequired'),
  printTimeMin: key('printTimeMin'),
  controlCharacters: key('controlCharacters'),
};

/** All error keys this schema can produce (handy for tests and locale checks). */
export const calculatorErrorKeys: Record<string, string> = { ...common };
for (const spec of Object.values(calculatorFields) as FieldSpec[]) {
  for (const name of Object.values(spec.kind === 'boolean' ? {} : spec.errors) as string[]) {
    calculatorErrorKeys[name] = key(name);
  }
}

const E = calculatorErrorKeys;

function numberField(spec: NumberFieldSpec, { optional = false }: { optional?: boolean } = {}) {
  const max = spec.max ?? MAX_NUMBER;
  const minMessage = key(spec.errors.min);
  const maxMessage = spec.errors.max ? key(spec.errors.max) : E.tooLarge;
  return z.pipe(z.unknown(), z.transform((raw: unknown, ctx): number => {
    const fail = (message: string): never => {
      ctx.issues.push({ code: 'custom', message, input: raw });
      return z.NEVER;
    };

    // A missing part of a line 2… stays missing (the line may not exist); typed as the number it is when present.
    if (raw === undefined) return (optional ? undefined : spec.default) as number;

    let value: number | undefined;
    if (typeof raw === 'number') {
      value = Number.isFinite(raw) ? raw : undefined;
    } else if (typeof raw === 'string') {
      const parsed = parseGermanNumber(raw);
      if (parsed.status === 'empty') return spec.whenEmpty !== undefined ? spec.whenEmpty : fail(E.required);
      if (parsed.status === 'ambiguous') return fail(E.ambiguousNumber);
      value = parsed.status === 'ok' ? parsed.value : undefined;
    }
    // Anything else (e.g. an array from a repeated query key) is not a number.
    if (value === undefined) return fail(E.notANumber);

    if (spec.integer && !Number.isInteger(value)) return fail(E.notAnInteger);
    if (value < spec.min) return fail(minMessage);
    if (value > max) return fail(maxMessage);
    return value;
  }));
}

// Control characters (a NUL byte) have no place in a name or an id: PostgreSQL refuses NUL (a 500).
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const noControlCharacters = z.refine<string>((value) => !CONTROL_CHARACTERS.test(value), E.controlCharacters);

function textField(name: AnyFieldName, spec: TextFieldSpec) {
  const text = z.string().check(z.trim(), z.maxLength(spec.maxLength, key(spec.errors.tooLong)), noControlCharacters);
  // Visible texts always have a value; conform turns '' into undefined → the default.
  // Hidden ones (picker ids, image path) stay optional: missing and empty both mean "not given".
  return 'section' in spec ? z._default(text, spec.default) : z.optional(text);
}

/** A checkbox: missing or '' is unchecked; the values browsers and links send for "checked" are on/1/true. */
function booleanField(_spec: BooleanFieldSpec) {
  return z.pipe(z.unknown(), z.transform((raw: unknown, ctx): boolean => {
    if (raw === undefined || raw === '' || raw === false) return false;
    if (raw === true || raw === 'on' || raw === '1' || raw === 'true') return true;
    ctx.issues.push({ code: 'custom', message: E.notABoolean, input: raw });
    return z.NEVER;
  }));
}

function fieldSchema(name: AnyFieldName, spec: FieldSpec) {
  if (spec.kind === 'number') return numberField(spec);
  if (spec.kind === 'boolean') return booleanField(spec);
  return textField(name, spec);
}

type Shape = {
  [K in AnyFieldName]: (typeof calculatorFields)[K] extends { kind: 'number' }
    ? ReturnType<typeof numberField>
    : (typeof calculatorFields)[K] extends { kind: 'boolean' }
      ? ReturnType<typeof booleanField>
      : (typeof calculatorFields)[K] extends { section: string }
        ? z.ZodMiniDefault<z.ZodMiniString<string>>
        : z.ZodMiniOptional<z.ZodMiniString<string>>;
};

/**
 * Lines 2…16 (issue 23): each name validated with the spec of its line-1 field
 * (same bounds and German messages); missing names stay undefined.
 */
type LineShape = { [K in ExtraLineFieldName]: z.ZodMiniType<K extends `filament${'Weight' | 'PricePerKg'}${number}` ? number | undefined : string | undefined> };

function lineFieldSchema(name: ExtraLineFieldName) {
  const base = lineBaseField(name)!;
  const spec = calculatorFields[base] as FieldSpec;
  if (spec.kind === 'number') return numberField(spec, { optional: true });
  return z.optional(z.string().check(z.trim(), z.maxLength((spec as TextFieldSpec).maxLength, key((spec as TextFieldSpec).errors.tooLong))));
}

const shape = Object.fromEntries([
  ...(Object.keys(calculatorFields) as AnyFieldName[]).map((name) => [name, fieldSchema(name, calculatorFields[name])]),
  ...extraLineFieldNames.map((name) => [name, lineFieldSchema(name)]),
]) as unknown as Shape & LineShape;

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

/** Same as `calculatorSchema`, but projectName is required (for saving a project). */
export const calculatorSaveSchema = withPrintTimeRule(
  z.extend(calculatorObject, {
    projectName: z
      .string({ error: E.projectNameRequired })
      .check(
        z.trim(),
        z.minLength(1, E.projectNameRequired),
        z.maxLength(calculatorFields.projectName.maxLength, E.projectNameTooLong),
        noControlCharacters,
      ),
  }),
);

export type CalculatorFormValues = z.infer<typeof calculatorSchema>;

/** Combines hours + minutes into decimal `printTime` and drops the text fields. */
export function toCalculatorInput(values: CalculatorFormValues): CalculatorInput {
  return toEngineInput(values);
}
