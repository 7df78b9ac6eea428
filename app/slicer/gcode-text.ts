/**
 * The comment lines of a G-code text, collected once so that every reader
 * looks keys up instead of scanning megabytes with its own regular expressions.
 *
 * A comment line starts with `;` (after optional blanks). Its key is the text
 * before the first `=` or `:` (trimmed, lower case), its value the rest:
 * `; filament used [g] = 3.1, 0.0` → `filament used [g]` → `3.1, 0.0`,
 * `;TIME:6666` → `time` → `6666`. A later line wins, so a summary at the end
 * of the file overrides the same key in the header.
 */
export type GcodeComments = {
  values: Map<string, string>;
  /** the first comment lines (without `;`), where the generator names itself */
  firstLines: string[];
};

const FIRST_LINES = 80;
/**
 * Bounds on what a comment may hand to the readers' patterns (issue 18 §1): a summary value is a
 * few hundred characters at most (16 extruders' lists), a generator line far less. Cutting here
 * keeps every pattern's work proportional to these bounds, whatever a file puts on one line.
 */
const MAX_KEY_CHARS = 128;
const MAX_VALUE_CHARS = 4096;
const MAX_FIRST_LINE_CHARS = 256;
const NEWLINE = 10;
const SEMICOLON = 59;
const decoder = new TextDecoder('utf-8');

/**
 * Works on the bytes and jumps from `;` to `;`: only comment lines are
 * decoded, and the megabytes of move lines in between cost a native search.
 */
export function collectComments(chunks: Uint8Array[]): GcodeComments {
  const values = new Map<string, string>();
  const firstLines: string[] = [];
  for (const bytes of chunks) {
    let position = 0;
    for (;;) {
      const semicolon = bytes.indexOf(SEMICOLON, position);
      if (semicolon === -1) break;
      let end = bytes.indexOf(NEWLINE, semicolon);
      if (end === -1) end = bytes.length;
      // Only whole-line comments carry the summary: blanks at most before the `;`.
      let before = semicolon - 1;
      while (before >= 0 && (bytes[before] === 32 || bytes[before] === 9)) before--;
      if (before < 0 || bytes[before] === NEWLINE || bytes[before] === 13) {
        const line = decoder.decode(bytes.subarray(semicolon + 1, end)).trim();
        if (firstLines.length < FIRST_LINES && line) firstLines.push(line.slice(0, MAX_FIRST_LINE_CHARS));
        addKeyValue(values, line);
      }
      position = end + 1;
    }
  }
  return { values, firstLines };
}

function addKeyValue(values: Map<string, string>, line: string) {
  const eq = line.indexOf('=');
  const colon = line.indexOf(':');
  const at = eq === -1 ? colon : colon === -1 ? eq : Math.min(eq, colon);
  if (at <= 0 || at > MAX_KEY_CHARS) return;
  values.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1, at + 1 + MAX_VALUE_CHARS).trim());
}

/** Key/value lines without the comment sign (`key=value`, as in binary G-code metadata). */
export function collectKeyValueLines(text: string, into: Map<string, string>) {
  for (const line of text.split('\n')) addKeyValue(into, line.trim());
}

/**
 * A G-code's first and last bytes, each cut to whole lines: the head loses
 * its last (possibly cut) line unless it is the whole file, the tail its first.
 */
export function wholeLines(head: Uint8Array, tail: Uint8Array, size: number): Uint8Array[] {
  if (head.length >= size) return [head];
  const headEnd = head.lastIndexOf(NEWLINE);
  const tailStart = tail.length < size ? tail.indexOf(NEWLINE) + 1 : 0;
  return [head.subarray(0, Math.max(0, headEnd)), tail.subarray(tailStart)];
}

/** The first bytes as text, for telling G-code without a summary from other text. */
export function textStart(chunks: Uint8Array[], length = 65536): string {
  return chunks[0] ? decoder.decode(chunks[0].subarray(0, length)) : '';
}

/** `12.5, 0.0` or `PLA;PETG` → parts; numbers use a dot (slicers write them so). */
export function splitList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export function parseNumber(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /-?\d+(?:\.\d+)?(?:e[+-]?\d+)?/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[0]);
  return Number.isFinite(value) ? value : undefined;
}

export function parseNumberList(value: string | undefined): number[] {
  return splitList(value)
    .map((part) => parseNumber(part))
    .filter((n): n is number => n !== undefined && n >= 0);
}

const UNIT_SECONDS: Record<string, number> = { d: 86400, h: 3600, m: 60, s: 1 };
const DURATION_UNITS = new Set(['d', 'day', 'days', 'h', 'hour', 'hours', 'hr', 'hrs', 'm', 'min', 'mins', 'minute', 'minutes', 's', 'sec', 'secs', 'second', 'seconds']);
/** No slicer writes a longer duration; a longer value is not one. */
const MAX_DURATION_CHARS = 200;

/**
 * Slicer durations: `1d 2h 3m 4s`, `2h 14m`, `45s` (PrusaSlicer, Orca, Bambu),
 * `2 hours 5 minutes` (Simplify3D), `01:02:03`, or plain seconds.
 *
 * The parts are read by a scanner, not by a global pattern: `(\d+)\s*(unit)\b` retried at every
 * digit of a long digit run took time growing with the square of the run (37 s for 120,000
 * digits, issue 18 §1). Each character is looked at a bounded number of times here.
 */
export function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  if (value.length > MAX_DURATION_CHARS) return undefined;
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number(value));
  const clock = /^(\d+):(\d{1,2}):(\d{1,2})$/.exec(value);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  let seconds = 0;
  let found = false;
  let position = 0;
  while (position < value.length) {
    if (!isDigit(value, position)) {
      position++;
      continue;
    }
    // A number: digits, optionally `.` and digits.
    const start = position;
    let end = skipDigits(value, position);
    const integerEnd = end;
    if (value[end] === '.' && isDigit(value, end + 1)) end = skipDigits(value, end + 1);
    // Blanks, then a whole word that must be a unit (`\b` after it: no letter, digit or `_` follows).
    let wordStart = end;
    while (wordStart < value.length && /\s/.test(value[wordStart])) wordStart++;
    let wordEnd = wordStart;
    while (wordEnd < value.length && isWordChar(value, wordEnd)) wordEnd++;
    const unit = value.slice(wordStart, wordEnd);
    if (DURATION_UNITS.has(unit)) {
      seconds += Number(value.slice(start, end)) * UNIT_SECONDS[unit[0]];
      found = true;
      position = wordEnd;
    } else {
      // As a pattern retried further on would: the fraction's digits may start the next number (`1.2.3h`).
      position = integerEnd;
    }
  }
  return found ? Math.round(seconds) : undefined;
}

function isDigit(text: string, at: number) {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

function isWordChar(text: string, at: number) {
  const code = text.charCodeAt(at);
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

function skipDigits(text: string, from: number) {
  let at = from;
  while (isDigit(text, at)) at++;
  return at;
}
