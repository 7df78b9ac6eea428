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

export function collectComments(texts: string[]): GcodeComments {
  const values = new Map<string, string>();
  const firstLines: string[] = [];
  for (const text of texts) {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      let i = start;
      // Skip leading blanks; only whole-line comments carry the summary.
      while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
      if (text.charCodeAt(i) === 59 /* ; */) {
        const line = text.slice(i + 1, end).trim();
        if (firstLines.length < FIRST_LINES && line) firstLines.push(line);
        addKeyValue(values, line);
      }
      start = end + 1;
    }
  }
  return { values, firstLines };
}

function addKeyValue(values: Map<string, string>, line: string) {
  const eq = line.indexOf('=');
  const colon = line.indexOf(':');
  const at = eq === -1 ? colon : colon === -1 ? eq : Math.min(eq, colon);
  if (at <= 0) return;
  values.set(line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim());
}

/** Key/value lines without the comment sign (`key=value`, as in binary G-code metadata). */
export function collectKeyValueLines(text: string, into: Map<string, string>) {
  for (const line of text.split('\n')) addKeyValue(into, line.trim());
}

const utf8 = new TextDecoder('utf-8');

/**
 * The text of a G-code's first and last bytes, each cut to whole lines: the
 * head loses its last (possibly cut) line unless it is the whole file, the
 * tail its first.
 */
export function sliceTexts(head: Uint8Array, tail: Uint8Array, size: number): string[] {
  if (head.length >= size) return [utf8.decode(head)];
  let headText = utf8.decode(head);
  headText = headText.slice(0, Math.max(0, headText.lastIndexOf('\n')));
  let tailText = utf8.decode(tail);
  if (tail.length < size) tailText = tailText.slice(tailText.indexOf('\n') + 1);
  return [headText, tailText];
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

/**
 * Slicer durations: `1d 2h 3m 4s`, `2h 14m`, `45s` (PrusaSlicer, Orca, Bambu),
 * `2 hours 5 minutes` (Simplify3D), `01:02:03`, or plain seconds.
 */
export function parseDuration(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Math.round(Number(value));
  const clock = /^(\d+):(\d{1,2}):(\d{1,2})$/.exec(value);
  if (clock) return Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3]);
  let seconds = 0;
  let found = false;
  for (const match of value.matchAll(/(\d+(?:\.\d+)?)\s*(d|days?|h|hours?|hrs?|m|min|mins|minutes?|s|sec|secs|seconds?)\b/g)) {
    seconds += Number(match[1]) * UNIT_SECONDS[match[2][0]];
    found = true;
  }
  return found ? Math.round(seconds) : undefined;
}
