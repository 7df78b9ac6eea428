import type { SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { $ZodType } from 'zod/v4/core';

/**
 * How a page action reads a form with its zod schema: Conform's
 * `parseWithZod`, plus two things every page needs.
 *
 * - Echoes are bounded. A reply carries what was submitted, into the input
 *   and again into the hydration data, so a 60 KB value would come back
 *   twice. Each field is cut to its rule's maximum length (read from the
 *   schema, or given for rules zod cannot show), and only the schema's own
 *   fields come back at all: an over-long value gets its German message,
 *   never a page carrying it.
 * - Conform's reserved names (`__intent__`, `__state__`) are ignored. No form
 *   here uses Conform intents on the server, and a forged value made the
 *   parser throw (a 500).
 */
export function parseSubmission<Schema extends $ZodType>(formData: FormData, schema: Schema, { maxLengths = {} }: { maxLengths?: Record<string, number> } = {}) {
  const submission = parseWithZod(withoutReservedNames(formData), { schema });
  const limits = { ...echoLimitsOf(schema), ...maxLengths };
  const reply = submission.reply;
  return Object.assign(submission, { reply: (options?: Parameters<typeof reply>[0]) => boundEcho(reply(options), limits) });
}

const CONFORM_RESERVED_NAMES = ['__intent__', '__state__'];

function withoutReservedNames(formData: FormData): FormData {
  if (!CONFORM_RESERVED_NAMES.some((name) => formData.has(name))) return formData;
  const copy = new FormData();
  for (const [name, value] of formData) if (!CONFORM_RESERVED_NAMES.includes(name)) copy.append(name, value);
  return copy;
}

/** The echo of a schema field without a length rule (numbers; passwords are hidden from replies anyway). */
const UNRULED_FIELD_ECHO = 1000;
/** A field sent more than once: no form here has one, so a few values are plenty. */
const MAX_ECHOED_VALUES = 10;

/** The longest echo of each top-level field of a form schema: its maximum length, else UNRULED_FIELD_ECHO. */
export function echoLimitsOf(schema: $ZodType): Record<string, number> {
  return Object.fromEntries(Object.entries(shapeOf(schema)).map(([name, field]) => [name, maxLengthOf(field) ?? UNRULED_FIELD_ECHO]));
}

type Def = { type: string; shape?: Record<string, $ZodType>; in?: $ZodType; out?: $ZodType; innerType?: $ZodType };

function shapeOf(schema: $ZodType): Record<string, $ZodType> {
  const def = schema._zod.def as Def;
  if (def.type === 'object') return def.shape ?? {};
  if (def.type === 'pipe' && def.in) return shapeOf(def.in);
  return {};
}

/** A string rule's maximum; a pipe (e.g. trim, max, then z.email()) counts its tighter side. */
function maxLengthOf(schema: $ZodType): number | undefined {
  const def = schema._zod.def as Def;
  switch (def.type) {
    case 'string': {
      const max = (schema._zod.bag as { maximum?: unknown }).maximum;
      return typeof max === 'number' ? max : undefined;
    }
    case 'pipe': {
      const sides = [def.in, def.out].map((side) => (side ? maxLengthOf(side) : undefined)).filter((max) => max !== undefined);
      return sides.length ? Math.min(...sides) : undefined;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return def.innerType ? maxLengthOf(def.innerType) : undefined;
    default:
      return undefined;
  }
}

/** A reply with each echoed value cut to its field's limit; fields the schema does not name are not echoed. */
export function boundEcho<T extends SubmissionResult<string[]>>(reply: T, limits: Record<string, number>): T {
  const known = (name: string) => Object.hasOwn(limits, name);
  const initialValue = reply.initialValue
    ? Object.fromEntries(
        Object.entries(reply.initialValue)
          .filter(([name]) => known(name))
          .map(([name, value]) => [name, clamp(value, limits[name])])
          .filter(([, value]) => value !== undefined),
      )
    : reply.initialValue;
  return { ...reply, initialValue, fields: reply.fields?.filter(known) };
}

function clamp(value: unknown, max: number): string | string[] | undefined {
  if (typeof value === 'string') return value.slice(0, max);
  if (Array.isArray(value)) return value.slice(0, MAX_ECHOED_VALUES).filter((item) => typeof item === 'string').map((item: string) => item.slice(0, max));
  // Nested values (`email.x=`) belong to no field of these forms.
  return undefined;
}
