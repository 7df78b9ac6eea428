/**
 * The project save payload (spec §3 "Calculator form / project save payload"),
 * derived from the calculator's field table: every field whose `project` names
 * a payload key travels, with the bounds and error keys of the form. Used by
 * the JSON API (`POST/PUT /api/projects`); the calculator page validates with
 * its own form schema and maps with `toProjectPayload` (same table, same names).
 *
 * Error messages are i18n keys (namespace `calculator`, `projects`).
 */
import * as z from 'zod';
import { calculatorFields, fieldDefaults, filamentTotals, MAX_FILAMENT_LINES, MAX_NUMBER, type FieldSpec } from '../calculator/fields';
import { parseGermanNumber } from '../lib/number';

export type PayloadValue = string | number | boolean | null;
/** A filament line of a payload (issue 23); filamentId is kept only when it is the user's active library filament. */
export type PayloadFilamentLine = { grams: number; pricePerKg: number; label?: string; filamentId?: string };
/**
 * Payload values by stored name (name, quantity, …, printTime, selectedPrinter, …), and the
 * filament lines when the payload has them (then filamentWeight is their total grams and
 * filamentPricePerKg their grams-weighted € per kg).
 */
export type ProjectPayload = { [name: string]: PayloadValue | PayloadFilamentLine[] | undefined; name: string; filaments?: PayloadFilamentLine[] };

const key = (name: string) => `calculator:errors.${name}`;

/** Spec §5: print time ≥ 0.1 h; the form allows at most 99 h 59 min. */
const PRINT_TIME = { min: 0.1, max: 99 + 59 / 60 };

function numberSchema(min: number, max: number, { integer = false, minKey, maxKey }: { integer?: boolean; minKey: string; maxKey: string }) {
  return z.unknown().transform((raw, ctx): number => {
    const fail = (message: string): never => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    let value: number | undefined;
    if (typeof raw === 'number') value = Number.isFinite(raw) ? raw : undefined;
    else if (typeof raw === 'string') {
      const parsed = parseGermanNumber(raw);
      if (parsed.status === 'empty') return fail(key('required'));
      if (parsed.status === 'ambiguous') return fail(key('ambiguousNumber'));
      value = parsed.status === 'ok' ? parsed.value : undefined;
    }
    if (value === undefined) return fail(key('notANumber'));
    if (integer && !Number.isInteger(value)) return fail(key('notAnInteger'));
    if (value < min) return fail(minKey);
    if (value > max) return fail(maxKey);
    return value;
  });
}

// Control characters have no place in a name or an id (they break logs and mails).
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A text field given a number, object or list: a German message, not zod's "Invalid input". */
const textOrNull = () => z.union([z.string(), z.null()], { error: key('notText') });

function optionalText(maxLength: number) {
  return textOrNull()
    .transform((value) => (value === null ? null : value.trim() || null))
    .refine((value) => value === null || value.length <= maxLength, { message: key('textTooLong') })
    .refine((value) => value === null || !CONTROL.test(value), { message: 'projects:errors.controlCharacters' });
}

function booleanSchema() {
  return z.unknown().transform((raw, ctx): boolean => {
    if (raw === undefined || raw === null || raw === '' || raw === false || raw === 0 || raw === '0' || raw === 'false') return false;
    if (raw === true || raw === 1 || raw === '1' || raw === 'true' || raw === 'on') return true;
    ctx.addIssue({ code: 'custom', message: key('notABoolean') });
    return z.NEVER;
  });
}

type Entry = { schema: z.ZodType; default: PayloadValue };

/** Every payload key with its schema and the value a missing key takes. */
function payloadEntries(): Record<string, Entry> {
  const entries: Record<string, Entry> = {};
  for (const [name, spec] of Object.entries(calculatorFields) as [keyof typeof calculatorFields, FieldSpec][]) {
    if (spec.project === false) continue;
    if (spec.kind === 'number') {
      const max = spec.max ?? MAX_NUMBER;
      entries[spec.project] = {
        schema: numberSchema(spec.min, max, {
          integer: spec.integer,
          minKey: key(spec.errors.min),
          maxKey: spec.errors.max ? key(spec.errors.max) : key('tooLarge'),
        }),
        default: fieldDefaults[name] as number,
      };
    } else if (spec.kind === 'boolean') {
      entries[spec.project] = { schema: booleanSchema(), default: false };
    } else if (spec.project === 'name') {
      entries.name = {
        schema: z
          .string({ error: 'projects:errors.nameRequired' })
          .trim()
          .min(1, 'projects:errors.nameRequired')
          .max(spec.maxLength, key(spec.errors.tooLong))
          .refine((value) => !CONTROL.test(value), { message: 'projects:errors.controlCharacters' }),
        default: '',
      };
    } else {
      entries[spec.project] = { schema: optionalText(spec.maxLength), default: null };
    }
  }
  entries.printTime = {
    schema: numberSchema(PRINT_TIME.min, PRINT_TIME.max, { minKey: key('printTimeMin'), maxKey: key('printTimeHoursRange') }),
    default: (fieldDefaults.printTimeHours as number) + (fieldDefaults.printTimeMinutes as number) / 60,
  };
  // In the stored project (spec §3) but not a calculator input: the marketplace's name.
  entries.marketplacePlatform = { schema: optionalText(200), default: null };
  return entries;
}

const ENTRIES = payloadEntries();

/** The library references: stored as `selectedPrinter`, read back as `selectedPrinterId` (spec §3). */
export const SELECTED_KEYS = ['selectedFilament', 'selectedPrinter', 'selectedPackaging', 'selectedShippingProvider', 'selectedMarketplace'] as const;
export type SelectedKey = (typeof SELECTED_KEYS)[number];

/** Other spellings clients send (spec §3 "both spellings"): alias → stored name. */
const ALIASES: Record<string, string> = {
  marketplaceFeePercent: 'marketplaceFeePercentage',
  projectName: 'name',
  ...Object.fromEntries(SELECTED_KEYS.map((name) => [`${name}Id`, name])),
};

/** Payload keys under their stored names. */
export const PROJECT_PAYLOAD_KEYS = Object.keys(ENTRIES);

export type ParsedPayload = { ok: true; payload: ProjectPayload } | { ok: false; errors: Record<string, string[]> };

/**
 * Validates a JSON body. Missing fields take the calculator's defaults
 * (`vatPercent` 19); unknown keys are ignored; both spellings of the fee and of
 * the library references are accepted (the stored name wins when both are sent).
 */
export function parseProjectPayload(body: Record<string, unknown>): ParsedPayload {
  const source: Record<string, unknown> = {};
  for (const [alias, name] of Object.entries(ALIASES)) if (body[alias] !== undefined && body[name] === undefined) source[name] = body[alias];
  for (const name of PROJECT_PAYLOAD_KEYS) if (body[name] !== undefined) source[name] = body[name];

  const payload: Record<string, PayloadValue> = {};
  const errors: Record<string, string[]> = {};
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const raw = source[name];
    if (raw === undefined && name !== 'name') {
      payload[name] = entry.default;
      continue;
    }
    const parsed = entry.schema.safeParse(raw);
    if (parsed.success) payload[name] = parsed.data as PayloadValue;
    else (errors[name] ??= []).push(...parsed.error.issues.map((issue) => issue.message).filter((m, i, all) => all.indexOf(m) === i));
  }
  // Issue 23: optional lines; without them the single filamentWeight/filamentPricePerKg are the one line.
  let lines: PayloadFilamentLine[] | undefined;
  if (body.filaments !== undefined && body.filaments !== null) {
    const parsed = parseFilamentLines(body.filaments);
    if (parsed.ok) lines = parsed.lines;
    else Object.assign(errors, parsed.errors);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const result = payload as ProjectPayload;
  // Line 1's library filament is the project's selectedFilament, unless the body names one.
  if (lines) withFilamentLines(result, lines, { selectLine1: source.selectedFilament === undefined });
  return { ok: true, payload: result };
}

/**
 * Puts the lines into a payload: the list itself, and filamentWeight / filamentPricePerKg
 * as their total grams and grams-weighted € per kg (what a client that knows one
 * filament reads, spec §7).
 */
export function withFilamentLines(payload: ProjectPayload, lines: PayloadFilamentLine[], { selectLine1 }: { selectLine1: boolean }): ProjectPayload {
  const totals = filamentTotals(lines);
  payload.filaments = lines;
  payload.filamentWeight = totals.grams;
  payload.filamentPricePerKg = totals.pricePerKg;
  if (selectLine1) payload.selectedFilament = lines[0].filamentId ?? null;
  return payload;
}

const LINE_ERRORS = {
  invalid: 'filament-lines:errors.invalid',
  empty: 'filament-lines:errors.empty',
  tooMany: 'filament-lines:errors.tooMany',
  lineInvalid: 'filament-lines:errors.lineInvalid',
};

const gramsSchema = numberSchema(calculatorFields.filamentWeight.min, MAX_NUMBER, {
  minKey: key(calculatorFields.filamentWeight.errors.min),
  maxKey: key('tooLarge'),
});
const pricePerKgSchema = numberSchema(calculatorFields.filamentPricePerKg.min, MAX_NUMBER, {
  minKey: key(calculatorFields.filamentPricePerKg.errors.min),
  maxKey: key('tooLarge'),
});
const labelSchema = textOrNull()
  .transform((value) => (value === null ? '' : value.trim()))
  .refine((value) => value.length <= calculatorFields.filamentLabel.maxLength, { message: key(calculatorFields.filamentLabel.errors.tooLong) })
  .refine((value) => !CONTROL.test(value), { message: 'projects:errors.controlCharacters' });
const filamentIdSchema = optionalText(200);

/**
 * `filaments: [{ filamentId?, label?, grams, pricePerKg }]` (1 to 16 lines), with the
 * bounds and German messages of line 1's fields; errors by `filaments.<index>.<part>`.
 * Whether a filamentId is the user's active filament is decided when saving.
 */
export function parseFilamentLines(raw: unknown): { ok: true; lines: PayloadFilamentLine[] } | { ok: false; errors: Record<string, string[]> } {
  if (!Array.isArray(raw)) return { ok: false, errors: { filaments: [LINE_ERRORS.invalid] } };
  if (raw.length === 0) return { ok: false, errors: { filaments: [LINE_ERRORS.empty] } };
  if (raw.length > MAX_FILAMENT_LINES) return { ok: false, errors: { filaments: [LINE_ERRORS.tooMany] } };
  const errors: Record<string, string[]> = {};
  const lines: PayloadFilamentLine[] = [];
  raw.forEach((item: unknown, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors[`filaments.${index}`] = [LINE_ERRORS.lineInvalid];
      return;
    }
    const entry = item as Record<string, unknown>;
    const line: Partial<PayloadFilamentLine> = {};
    const check = <T>(part: string, schema: z.ZodType<T>, value: unknown, apply: (parsed: T) => void) => {
      const parsed = schema.safeParse(value);
      if (parsed.success) apply(parsed.data);
      else errors[`filaments.${index}.${part}`] = [parsed.error.issues[0]?.message ?? LINE_ERRORS.lineInvalid];
    };
    if (entry.grams === undefined) errors[`filaments.${index}.grams`] = [key('required')];
    else check('grams', gramsSchema, entry.grams, (value) => (line.grams = value));
    if (entry.pricePerKg === undefined) errors[`filaments.${index}.pricePerKg`] = [key('required')];
    else check('pricePerKg', pricePerKgSchema, entry.pricePerKg, (value) => (line.pricePerKg = value));
    if (entry.label !== undefined) check('label', labelSchema, entry.label, (value) => value && (line.label = value));
    if (entry.filamentId !== undefined) check('filamentId', filamentIdSchema, entry.filamentId, (value) => value && (line.filamentId = value));
    lines.push(line as PayloadFilamentLine);
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, lines };
}
