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
// re-renders on every keystroke, so each instance is made once. Made on first
// use, not when the module loads: the first German formatter loads the
// browser's locale data (~11 ms on this machine, ~45 ms on a slow phone), which
// made the first visit's script evaluation one long task (issue 25);
// entry.client.tsx makes the first one in a task of its own before hydration.
function lazyFormat(options: Intl.NumberFormatOptions): () => Intl.NumberFormat {
  let format: Intl.NumberFormat | undefined;
  return () => (format ??= new Intl.NumberFormat(LOCALE, options));
}

const euroFormat = lazyFormat({ style: 'currency', currency: 'EUR', minimumFractionDigits: 2, maximumFractionDigits: 2 });

const decimalInputFormat = lazyFormat({ useGrouping: false, maximumFractionDigits: 10 });

// An amount someone entered (a price per kg, an electricity rate): at least two
// decimals like every amount of money, more only when they were typed (0,285 €/kWh).
const moneyValueFormat = lazyFormat({ minimumFractionDigits: 2, maximumFractionDigits: 4 });

const moneyInputFormat = lazyFormat({ useGrouping: false, minimumFractionDigits: 2, maximumFractionDigits: 10 });

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

// Parsing lives in ./parse-number.ts (re-exported here for existing callers).
export { isNumberInProgress, parseDecimal, parseGermanNumber, type ParsedNumber } from './parse-number';

/** `1234.56` → `1.234,56\u00A0€` (always 2 decimals, Intl's non-breaking space). */
export function formatEuro(n: number): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return euroFormat().format(normalizeZero(n, 2));
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
 * The one rule for money the app shows (issue 24 §1): a thousands dot, at
 * least two decimals (more only when the amount has them, e.g. an electricity
 * rate of 0,285 €/kWh) and the unit after a non-breaking space:
 * `1299.5` → `1.299,50\u00A0€`, `27.9, '€/kg'` → `27,90\u00A0€/kg`.
 * Results of the calculation use `formatEuro` (always exactly two).
 */
export function formatMoney(n: number, unit = '€'): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return `${moneyValueFormat().format(normalizeZero(n, 4))}\u00A0${unit}`;
}

/**
 * A quantity with its unit (hours, watts, grams): thousands dot, at most
 * `maxFractionDigits` decimals, non-breaking space: `6000, 'h'` → `6.000\u00A0h`.
 */
export function formatQuantity(n: number, unit: string, maxFractionDigits = 2): string {
  if (!Number.isFinite(n)) return NOT_A_NUMBER;
  return unit ? `${formatNumber(n, maxFractionDigits)}\u00A0${unit}` : formatNumber(n, maxFractionDigits);
}

/**
 * Text for pre-filling a money input: what the parser reads back, with the
 * two decimals money is shown with and no thousands dot, which is in the way
 * while editing (`0.5` → `0,50`, `1299.5` → `1299,50`, `0.285` → `0,285`).
 */
export function formatMoneyInput(n: number): string {
  if (!Number.isFinite(n)) return '';
  return moneyInputFormat().format(normalizeZero(n, 10));
}

/**
 * Text for pre-filling a form input: German decimal comma, no thousands
 * separators, no trailing zeros (`0.32` → `0,32`, `3000` → `3000`,
 * `4.95` → `4,95`). Round-trips through `parseDecimal`. Non-finite → `''`.
 */
export function formatDecimalInput(n: number): string {
  if (!Number.isFinite(n)) return '';
  return decimalInputFormat().format(normalizeZero(n, 10));
}
