/**
 * German number helpers (pure, browser-safe, no Node or React imports).
 *
 * Formatting uses `Intl.NumberFormat('de-DE')`. Note that Intl puts a
 * NON-BREAKING SPACE (U+00A0) between the number and the unit, e.g.
 * `formatEuro(1234.56) === '1.234,56\u00A0€'`. We keep Intl's output on
 * purpose (it stops the unit from wrapping onto a new line); tests and
 * callers that compare strings must use `\u00A0`, not a normal space.
 * `formatPercent` follows the same convention (`25\u00A0%`).
 */

const LOCALE = 'de-DE';

// Intl.NumberFormat construction is comparatively expensive; the calculator
// re-renders on every keystroke, so instances are created once per module.
const euroFormat = new Intl.NumberFormat(LOCALE, {
  style: 'currency',
  currency: 'EUR',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

const decimalInputFormat = new Intl.NumberFormat(LOCALE, {
  useGrouping: false,
  maximumFractionDigits: 10,
});

const numberFormats = new Map<number, Intl.NumberFormat>();

function numberFormat(maxFractionDigits: number): Intl.NumberFormat {
  let format = numberFormats.get(maxFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, {
      minimumFractionDigits: 0,
      maximumFractionDigits: maxFractionDigits,
    });
    numberFormats.set(maxFractionDigits, format);
  }
  return format;
}

/** Shown instead of a number when a value is NaN or ±Infinity. */
const NOT_A_NUMBER = '–';

/** Avoid "-0,00 €" when a tiny negative value rounds to zero. */
function normalizeZero(n: number, fractionDigits: number): number {
  const factor = 10 ** fractionDigits;
  return Math.round(Math.abs(n) * factor) === 0 ? 0 : n;
}

// "1.234,56", "1234,56", ",5", "-12,0" — comma is the decimal separator and
// dots (if any) must be correctly placed thousands separators.
const COMMA_DECIMAL = /^(-)?(\d{1,3}(?:\.\d{3})+|\d*),(\d+)$/;
// "1.200", "5.000", "12.345.678" — without a comma, a dot followed by exactly
// three digits (and a first group that does not start with 0) is a German
// thousands separator: "1.200" € is twelve hundred euros, not 1,20 €.
const DOT_THOUSANDS = /^-?[1-9]\d{0,2}(?:\.\d{3})+$/;
// "0.35", "12", ".5", "-3", "1.5", "0.350" — any other single dot is the decimal separator.
const DOT_DECIMAL = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/;
// "1,234.56", "1,234,567" — English grouping: a German reader cannot tell
// which separator is meant, so the field says so instead of guessing.
const ENGLISH_GROUPING = /^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;
const ENGLISH_GROUPING_MIXED = /^-?\d{1,3}(?:,\d{3})*,\d{3}\.\d+$|^-?\d{1,3}(?:,\d{3}){2,}$/;

export type ParsedNumber =
  | { status: 'ok'; value: number }
  | { status: 'empty' }
  /** both separators in English order, e.g. "1,234.56": say so next to the field */
  | { status: 'ambiguous' }
  | { status: 'invalid' };

/**
 * Parses a number as a German types it (issue 8 §2).
 *
 * ok: `0,35`, `0.35`, `1.200` (= 1200), `5.000`, `1.200,50`, `1234,56`, `12 ` (trimmed), `-3`, `,5`.
 * ambiguous: `1,234.56`, `1,234,567` (English grouping).
 * invalid: letters, `1,2,3`, `1.23,4`, `1.2.3`, exponents, `Infinity`, hex, a
 * trailing separator (`5,`), anything that is not a finite number.
 */
export function parseGermanNumber(raw: string): ParsedNumber {
  if (typeof raw !== 'string') return { status: 'invalid' };
  const text = raw.trim();
  if (text === '') return { status: 'empty' };

  let value: number;
  const comma = COMMA_DECIMAL.exec(text);
  if (comma) {
    const [, sign = '', integerPart, fraction] = comma;
    const digits = integerPart.replace(/\./g, '') || '0';
    value = Number(`${sign}${digits}.${fraction}`);
  } else if (DOT_THOUSANDS.test(text)) {
    value = Number(text.replace(/\./g, ''));
  } else if (DOT_DECIMAL.test(text)) {
    value = Number(text);
  } else if (ENGLISH_GROUPING_MIXED.test(text) || (ENGLISH_GROUPING.test(text) && text.includes('.'))) {
    return { status: 'ambiguous' };
  } else {
    return { status: 'invalid' };
  }

  if (!Number.isFinite(value)) return { status: 'invalid' };
  return { status: 'ok', value: value === 0 ? 0 : value }; // no -0
}

/** `parseGermanNumber` for callers that only need the value: undefined unless ok. */
export function parseDecimal(raw: string): number | undefined {
  const parsed = parseGermanNumber(raw);
  return parsed.status === 'ok' ? parsed.value : undefined;
}

/**
 * True while a text is on its way to a number ("", "-", "0,", "12.") —
 * the calculator waits for the next keystroke before calling it an error.
 */
export function isNumberInProgress(raw: string): boolean {
  const text = raw.trim();
  return /^-?(?:\d[\d.]*)?[,.]?$/.test(text) && parseGermanNumber(text).status !== 'ok';
}

/** `1234.56` → `1.234,56\u00A0€` (always 2 decimals, Intl's non-breaking space). */
export function formatEuro(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return euroFormat.format(normalizeZero(n, 2));
}

/**
 * `n` is already a percentage: `25` → `25\u00A0%`, `12.5` → `12,5\u00A0%`
 * (at most 2 fraction digits, grouping like `1.000\u00A0%`).
 */
export function formatPercent(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return `${numberFormat(2).format(normalizeZero(n, 2))}\u00A0%`;
}

/** German number with grouping and at most `maxFractionDigits` decimals: `1234.5` → `1.234,5`. */
export function formatNumber(n: number, maxFractionDigits = 2): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return numberFormat(maxFractionDigits).format(normalizeZero(n, maxFractionDigits));
}

/**
 * Text for pre-filling a form input: German decimal comma, no thousands
 * separators, no trailing zeros (`0.32` → `0,32`, `3000` → `3000`,
 * `4.95` → `4,95`). Round-trips through `parseDecimal`. Non-finite → `''`.
 */
export function formatDecimalInput(n: number): string {
  if (!Number.isFinite(n)) return '';
  return decimalInputFormat.format(normalizeZero(n, 10));
}
