/**
 * Reading numbers as Germans type them (pure, browser-safe). Kept apart from
 * the formatters in ./number.ts so that a page which only shows numbers does
 * not ship the parser: the calculator parses in its lazily loaded live chunk.
 */

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

