/**
 * German CSV (issue 24 §4): semicolon between cells, comma decimals, CRLF lines and
 * a UTF-8 byte order mark, so Excel and LibreOffice in German open it with umlauts
 * and numbers right. Pure, no app imports.
 */

/** The byte order mark the file starts with (spreadsheet programs read UTF-8 only with it). */
export const CSV_BOM = '\uFEFF';

/**
 * A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage
 * return before one) as a formula: such a text gets a leading apostrophe (OWASP
 * "CSV injection"), which spreadsheets show as plain text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of cells, ended by CRLF (RFC 4180). */
export function csvLine(row: ReadonlyArray<string | number | null | undefined>): string {
  return row.map(csvCell).join(';') + '\r\n';
}

/** The whole file: BOM, a header row and the rows, each line ended by CRLF (RFC 4180). */
export function csvDocument(rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return CSV_BOM + rows.map(csvLine).join('');
}

/** `1299.5` → `1299,50` (money: two decimals, no thousands dot, which some programs read as a decimal point). */
export function csvMoney(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '';
  const rounded = Math.round(n * 100) / 100;
  return (rounded === 0 ? 0 : rounded).toFixed(2).replace('.', ',');
}

/** `0.325` → `0,325`: an input as saved, comma decimal, no grouping, no float noise. */
export function csvDecimal(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '';
  const rounded = Math.round(n * 1e6) / 1e6;
  return String(rounded === 0 ? 0 : rounded).replace('.', ',');
}

/** Hours as a German reads them: `5.25` → `5,25`, `2.3333333` → `2,33` (at most two decimals). */
export function csvHours(n: number | null): string {
  if (n === null || !Number.isFinite(n)) return '';
  const rounded = Math.round(n * 100) / 100;
  return String(rounded === 0 ? 0 : rounded).replace('.', ',');
}

const GERMAN_DATE = new Intl.DateTimeFormat('de-DE', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'Europe/Berlin' });

/** A day as German spreadsheets read it: `27.11.2026` (the seller's day, Berlin time). */
export function csvDate(date: Date): string {
  return GERMAN_DATE.format(date);
}
