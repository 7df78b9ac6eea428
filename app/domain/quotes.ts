import { z } from 'zod';
import { parseGermanNumber } from '../lib/parse-number';
import { eurosToCents, lineTotalCents, quoteTotals, type QuoteTotals } from './quote-totals';

/**
 * Quote definitions the pages need in the browser too (issue 26): the form
 * schemas (one per form, shared by page, API and browser), limits, statuses.
 * The rules live in quotes.server.ts. Error values are i18n keys in `quotes`.
 */

export const QUOTES_PAGE_SIZE = 20;
export const MAX_QUOTE_LINES = 50;
export const MAX_QUOTE_SEARCH_LENGTH = 100;
export const MAX_QUANTITY = 100_000;
/** 1 000 000 € per unit: quantity × price stays far inside an integer column of cents. */
export const MAX_UNIT_PRICE_CENTS = 100_000_000;
export const MAX_QUOTE_TOTAL_CENTS = 2_000_000_000;
export const DEFAULT_VALIDITY_DAYS = 14;

export const QUOTE_DISPLAY_STATUSES = ['draft', 'sent', 'accepted', 'rejected', 'expired'] as const;
export type QuoteDisplayStatus = (typeof QUOTE_DISPLAY_STATUSES)[number];
/** What the seller may set by hand (drafts become 'sent' by sending or by marking them so). */
export const SETTABLE_STATUSES = ['sent', 'accepted', 'rejected'] as const;

const E = {
  required: 'quotes:errors.required',
  tooLong: 'quotes:errors.tooLong',
  control: 'quotes:errors.controlCharacters',
  email: 'quotes:errors.email',
  number: 'quotes:errors.number',
  quantity: 'quotes:errors.quantity',
  price: 'quotes:errors.price',
  vatRate: 'quotes:errors.vatRate',
  vatRateDecimals: 'quotes:errors.vatRateDecimals',
  discount: 'quotes:errors.discount',
  date: 'quotes:errors.date',
  validUntil: 'quotes:errors.validUntil',
  lines: 'quotes:errors.lines',
  tooManyLines: 'quotes:errors.tooManyLines',
  validityDays: 'quotes:errors.validityDays',
  kind: 'quotes:errors.kind',
  total: 'quotes:errors.total',
  line: 'quotes:errors.line',
  choice: 'quotes:errors.choice',
  body: 'quotes:errors.invalidInput',
};

const CONTROL = /[\u0000-\u001f\u007f]/;
const CONTROL_EXCEPT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

const text = (max: number, { multiline = false } = {}) =>
  z
    .string({ error: E.required })
    .trim()
    .max(max, E.tooLong)
    .refine((value) => !(multiline ? CONTROL_EXCEPT_LINES : CONTROL).test(value), E.control);

const requiredText = (max: number, options?: { multiline?: boolean }) => text(max, options).pipe(z.string().min(1, E.required));

/** Empty or missing → null. (Conform sends an empty field as undefined; JSON may send null.) */
const optionalText = (max: number, options?: { multiline?: boolean }) =>
  text(max, options)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null));

const optionalEmail = text(254)
  .pipe(z.union([z.literal(''), z.email(E.email)]))
  .nullable()
  .optional()
  .transform((value) => (value ? value : null));

/** A number as typed ('12,50', '12.5') or sent as JSON. */
const germanNumber = (message: string, { emptyAs }: { emptyAs?: number } = {}) =>
  z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() === '' && emptyAs !== undefined) return emptyAs;
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return value;
    } else {
      const parsed = parseGermanNumber(value);
      if (parsed.status === 'ok') return parsed.value;
    }
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = z
  .string({ error: E.date })
  .trim()
  // Years 2000–2999: a quote's date is today's or near it; PostgreSQL refuses year 0000 (a 500 before).
  .refine(
    (value) =>
      ISO_DATE.test(value) &&
      value >= '2000-01-01' &&
      value <= '2999-12-31' &&
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    E.date,
  );

export const businessDetailsSchema = z.object({
  businessName: requiredText(200),
  address: requiredText(500, { multiline: true }),
  email: text(254).pipe(z.email(E.email)),
  phone: optionalText(60),
  taxId: optionalText(60),
  smallBusiness: z
    .union([z.boolean(), z.literal('on'), z.literal('true'), z.literal('1'), z.literal('false'), z.literal('0')], { error: E.choice })
    .optional()
    .transform((value) => value === true || value === 'on' || value === 'true' || value === '1'),
  bankDetails: optionalText(300, { multiline: true }),
  validityDays: germanNumber(E.validityDays)
    .optional()
    .transform((value) => value ?? DEFAULT_VALIDITY_DAYS)
    .pipe(z.number({ error: E.validityDays }).int(E.validityDays).min(1, E.validityDays).max(365, E.validityDays)),
  closingText: optionalText(2000, { multiline: true }).transform((value) => value ?? ''),
}, { error: E.body });
export type BusinessDetailsInput = z.infer<typeof businessDetailsSchema>;

/** A number that is exactly some whole hundredths (19, 7, 5,5, 19,25; not 1e-300 or 19,123). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.round(value * 100) / 100 === value;
}

export const quoteLineSchema = z.object(
  {
    kind: z.enum(['product', 'shipping', 'setup', 'free'], { error: E.kind }).default('free'),
    description: requiredText(300),
    quantity: germanNumber(E.quantity).pipe(z.number({ error: E.quantity }).int(E.quantity).min(1, E.quantity).max(MAX_QUANTITY, E.quantity)),
    /** Euros incl. VAT per unit. Bounded before the cents conversion: 1e308 € × 100 is Infinity, which zod refused in English. */
    unitPrice: germanNumber(E.price)
      .pipe(z.number({ error: E.price }).min(0, E.price).max(MAX_UNIT_PRICE_CENTS / 100, E.price))
      .transform((value) => eurosToCents(value))
      .pipe(z.number({ error: E.price }).max(MAX_UNIT_PRICE_CENTS, E.price)),
    /** Percent, 0–100 with at most two decimals (the PDF prints the rate; 1e-300 or 19,123456789 would show a rate it does not use). */
    vatRate: germanNumber(E.vatRate)
      .pipe(z.number({ error: E.vatRate }).min(0, E.vatRate).max(100, E.vatRate).refine((rate) => rate < 0 || rate > 100 || hasAtMostTwoDecimals(rate), E.vatRateDecimals))
      .default(19),
  },
  // A line that is no object at all (JSON `lines: [1]`).
  { error: E.line },
);

const discountSchema = germanNumber(E.discount, { emptyAs: 0 })
  .nullable()
  .optional()
  .transform((value) => value ?? 0)
  .pipe(z.number({ error: E.discount }).min(0, E.discount).max(100, E.discount));

export const quoteInputSchema = z
  .object({
    customerName: requiredText(200),
    customerAddress: optionalText(500, { multiline: true }),
    customerEmail: optionalEmail,
    quoteDate: isoDate,
    validUntil: isoDate,
    lines: z.array(quoteLineSchema, { error: E.lines }).min(1, E.lines).max(MAX_QUOTE_LINES, E.tooManyLines),
    discountPercent: discountSchema,
    closingText: optionalText(2000, { multiline: true }).transform((value) => value ?? ''),
  }, { error: E.body })
  .refine((value) => value.validUntil >= value.quoteDate, { path: ['validUntil'], message: E.validUntil })
  .refine((value) => value.lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) <= MAX_QUOTE_TOTAL_CENTS, {
    path: ['lines'],
    message: E.total,
    // Only over lines that parsed: a refused price (1e308) is named at its field, not again as the total.
    when: (payload) => payload.issues.length === 0,
  });
export type QuoteInput = z.infer<typeof quoteInputSchema>;

export const createQuoteSchema = z.object({
  projectId: z.string({ error: 'quotes:errors.project' }).trim().min(1, 'quotes:errors.project').max(100, 'quotes:errors.project'),
  customerName: requiredText(200),
  customerAddress: optionalText(500, { multiline: true }),
  customerEmail: optionalEmail,
}, { error: E.body });
export type CreateQuoteInput = z.infer<typeof createQuoteSchema>;

export const sendQuoteSchema = z.object({
  to: text(254).pipe(z.email(E.email)),
  subject: requiredText(200),
  message: requiredText(5000, { multiline: true }),
}, { error: E.body });
export type SendQuoteInput = z.infer<typeof sendQuoteSchema>;

/** YYYY-MM-DD of `date` in Germany (quotes are dated as the seller sees the calendar). */
export function berlinDate(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

export function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 'Abgelaufen' is derived: a sent quote whose validity ended before `today`. */
export function displayStatus(quote: { status: string; validUntil: string }, today: string): QuoteDisplayStatus {
  if (quote.status === 'sent' && quote.validUntil < today) return 'expired';
  return quote.status as QuoteDisplayStatus;
}

/** '2026-11-26' → '26.11.2026'. */
export function formatIsoDate(isoDay: string): string {
  const [year, month, day] = isoDay.split('-');
  return `${day}.${month}.${year}`;
}

/** The lines a seller adds with one button: shipping, setup, or a free text line (description: i18n key, namespace `quotes`). */
export const NEW_QUOTE_LINES = {
  shipping: { kind: 'shipping', key: 'kinds.shipping' },
  setup: { kind: 'setup', key: 'kinds.setup' },
  free: { kind: 'free', key: 'detail.freeLine' },
} as const satisfies Record<string, { kind: QuoteInput['lines'][number]['kind']; key: string }>;

/**
 * 'Position hinzufügen' / 'Entfernen' on a draft (`addLine:<kind>`, `removeLine:<index>`): a new
 * line at the first line's VAT rate, up to MAX_QUOTE_LINES; never the last line removed. Anything
 * else leaves the input as it is.
 */
export function applyQuoteLineAction(input: QuoteInput, action: string, describe: (key: string) => string): QuoteInput {
  if (action.startsWith('addLine:')) {
    const added = NEW_QUOTE_LINES[action.slice('addLine:'.length) as keyof typeof NEW_QUOTE_LINES];
    if (!added || input.lines.length >= MAX_QUOTE_LINES) return input;
    const vatRate = input.lines[0]?.vatRate ?? 19;
    return { ...input, lines: [...input.lines, { kind: added.kind, description: describe(added.key), quantity: 1, unitPrice: 0, vatRate }] };
  }
  if (action.startsWith('removeLine:')) {
    const index = Number(action.slice('removeLine:'.length));
    if (!Number.isInteger(index) || index < 0 || index >= input.lines.length || input.lines.length <= 1) return input;
    return { ...input, lines: input.lines.filter((_, at) => at !== index) };
  }
  return input;
}

const typedLineSchema = quoteLineSchema.pick({ quantity: true, unitPrice: true, vatRate: true });

export type TypedQuoteTotals = {
  /** Each line's total in cents, or null while the line's quantity, price or rate is not valid. */
  lineCents: (number | null)[];
  /** The quote's totals, or null while a line or the discount is not valid. */
  totals: QuoteTotals | null;
};

/**
 * The totals of a quote as typed into the edit form (German numbers as text): parsed by the
 * same schema and summed by the same rule (`quoteTotals`) as on save, so the figures shown
 * while typing (with scripts) and on the re-rendered page (without) are the ones that are stored.
 */
export function typedQuoteTotals(
  lines: readonly { quantity?: unknown; unitPrice?: unknown; vatRate?: unknown }[],
  discountPercent: unknown,
  smallBusiness: boolean,
): TypedQuoteTotals {
  const parsed = lines.map((line) => typedLineSchema.safeParse({ quantity: line.quantity, unitPrice: line.unitPrice, vatRate: line.vatRate ?? 19 }));
  const lineCents = parsed.map((result) => (result.success ? lineTotalCents({ quantity: result.data.quantity, unitPriceCents: result.data.unitPrice }) : null));
  const discount = discountSchema.safeParse(discountPercent);
  if (lines.length === 0 || !discount.success || !parsed.every((result) => result.success)) return { lineCents, totals: null };
  const valid = parsed.map((result) => result.data!);
  if (valid.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0) > MAX_QUOTE_TOTAL_CENTS) return { lineCents, totals: null };
  const totals = quoteTotals(
    valid.map((line) => ({ quantity: line.quantity, unitPriceCents: line.unitPrice, vatRate: smallBusiness ? 0 : line.vatRate })),
    { discountBasisPoints: Math.round(discount.data * 100), smallBusiness },
  );
  return { lineCents, totals };
}

/**
 * A seller's logo (business details): `/images/logo/<owner id>/<random hex>`. Each upload gets a new
 * address and a stored file never changes, so a quote that saved one keeps showing it (a snapshot).
 * The owner in the key lets the image route check access without a lookup: the owner only.
 */
const LOGO_PATH = /^\/images\/(logo\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/[0-9a-f]{32})$/;

export function parseLogoPath(path: string | null | undefined): { key: string; ownerId: string } | null {
  const match = path ? LOGO_PATH.exec(path) : null;
  return match ? { key: match[1], ownerId: match[2] } : null;
}

export function logoPathOf(key: string): string {
  return `/images/${key}`;
}

/** Whether `userId` owns the logo stored at `key`. */
export function ownsLogoKey(userId: string | null | undefined, key: string): boolean {
  return Boolean(userId) && key.startsWith(`logo/${userId}/`);
}
