/**
 * What the calculator shows after an import, and how it travels in the
 * calculation link (the no-JS import redirects there). Browser-safe and small:
 * the server and the lazily loaded reader chunk (browser.ts) share it.
 *
 * Query parameters (all optional, all checked when read back):
 *   slicer, slicerVersion, slicerGrams, slicerSeconds, slicerFilaments,
 *   slicerPlates=1:10.5:3600;2:5.25:1800, slicerPlate=<index> (absent = all),
 *   slicerLines=12.5:PLA:FFFFFF:Bambu Lab;7.25:PETG (grams:material:colour:brand per filament),
 *   slicerFilament=PLA:FFFFFF:Bambu Lab (a one-filament file's material:colour:brand),
 *   slicerWarning=<code>:<material>:<density>, slicerPurge=<g>, slicerPurgeChanges=<n> (an estimate),
 *   slicerPurgeUnknown=1 (a multi-filament .gcode.3mf: no purge figure can be had),
 *   slicerFormLines=<n> (the calculation's filament lines before the import, when more than one),
 *   slicerError=<code>, slicerErrorMethod
 */
import { formatDecimalInput } from '../lib/number';
import { colourFamilyOfHex, normalizeHexColour, type ColourFamily, type LineMatch, type SlicerLineFacts } from './library-match';
import { SLICER_ERROR_CODES, type SlicerPlate, type SlicerSummary, type SlicerWarning } from './types';

export type SlicerImportInfo = {
  slicer: string;
  version: string | null;
  grams: number;
  seconds: number;
  filaments: number;
  plates?: SlicerPlate[];
  /** the chosen plate's index; undefined = all plates */
  plate?: number;
  /** Issue 23: each filament the file used, when it used two or more (one calculator line each). */
  lines?: SlicerImportLine[];
  /** A one-filament file's material (and colour, brand) where it names them: line 1's library match. */
  filament?: SlicerLineFacts;
  /** Purge / wipe-tower grams the file reports separately (included in the grams). */
  purge?: number;
  /** Set when `purge` is estimated from the flush volumes and this many filament changes (Bambu Studio, Orca). */
  purgeChanges?: number;
  /** A multi-filament `.gcode.3mf`: the file gives no change count, its purge is not included (SlicerSummary.purgeUnknown). */
  purgeUnknown?: true;
  /**
   * How many filament lines the calculation had before the import (2…16; absent: one). The import's
   * lines replace them, so the notice says when it removed some (`removedLineCount`).
   */
  formLines?: number;
  warnings: SlicerWarning[];
};

/** `color`: `#RRGGBB`; `vendor`: the brand the file names (issue 23: the library match). */
export type SlicerImportLine = { grams: number; material?: string; color?: string; vendor?: string };

/**
 * What an import may do besides the file's figures: take each line's library match
 * (library-match.ts; one per line, null without a library) and name a line's colour
 * in German (`filament-lines:colours.<family>`).
 */
export type ImportOptions = { matches?: readonly LineMatch[] | null; colourName?: (family: ColourFamily) => string };

/** MAX_FILAMENT_LINES of calculator/fields.ts, repeated so this chunk does not carry the field table. */
const MAX_LINES = 16;

export type SlicerImportNotice =
  | { kind: 'info'; info: SlicerImportInfo }
  | { kind: 'error'; code: string; params?: Record<string, string | number> };

export const SLICER_IMPORT_PARAMS = [
  'slicer',
  'slicerVersion',
  'slicerGrams',
  'slicerSeconds',
  'slicerFilaments',
  'slicerPlates',
  'slicerPlate',
  'slicerWarning',
  'slicerLines',
  'slicerFilament',
  'slicerPurge',
  'slicerPurgeChanges',
  'slicerPurgeUnknown',
  'slicerFormLines',
  'slicerError',
  'slicerErrorMethod',
] as const;

// Codes a link may carry: the readers' codes plus the upload's own. Anything else is ignored.
const ERROR_CODES = new Set<string>(['missingFile', 'readFailed', 'rateLimited', ...SLICER_ERROR_CODES]);
const METHODS = new Set(['Heatshrink 11,4', 'Heatshrink 12,4']);
const WARNING_CODES = new Set(['weightFromVolume', 'weightFromLength']);
const MAX_PLATES = 64;

export function importInfoFromSummary(summary: SlicerSummary): SlicerImportInfo {
  return {
    slicer: summary.slicer,
    version: summary.slicerVersion,
    grams: summary.filamentGrams,
    seconds: summary.printSeconds,
    filaments: summary.perExtruder.length,
    ...(summary.plates && summary.plates.length > 1 ? { plates: summary.plates } : {}),
    ...(summary.perExtruder.length > 1
      ? {
          lines: summary.perExtruder.slice(0, MAX_LINES).map((e) => ({ grams: e.filamentGrams, ...lineFacts(e) })),
        }
      : {}),
    ...(summary.perExtruder.length === 1 && summary.perExtruder[0].material ? { filament: lineFacts(summary.perExtruder[0]) } : {}),
    ...(summary.purgeGrams ? { purge: summary.purgeGrams, ...(summary.purgeEstimate ? { purgeChanges: summary.purgeEstimate.changes } : {}) } : {}),
    ...(summary.purgeUnknown && !summary.purgeGrams ? { purgeUnknown: true as const } : {}),
    warnings: summary.warnings,
  };
}

/** A filament's material, colour and brand, where the file names them. */
function lineFacts(e: SlicerLineFacts): SlicerLineFacts {
  return { ...(e.material ? { material: e.material } : {}), ...(e.color ? { color: e.color } : {}), ...(e.vendor ? { vendor: e.vendor } : {}) };
}

/**
 * The filament lines an import fills (issue 23): one per filament the file used, with
 * its grams and material as the label. A single plate has no per-filament figures:
 * then, as for a one-filament file, the one line holds the total (with a one-filament
 * file's material, colour and brand, for the library match).
 */
export function importedLines(info: SlicerImportInfo): SlicerImportLine[] {
  if (info.lines && info.lines.length > 1 && info.plate === undefined) return info.lines;
  return [{ grams: chosenFigures(info).grams, ...info.filament }];
}

/** The info with the number of filament lines the calculation had before the import (kept only when more than one). */
export function withFormLines(info: SlicerImportInfo, formLines: number): SlicerImportInfo {
  const { formLines: _previous, ...rest } = info;
  return formLines > 1 ? { ...rest, formLines: Math.min(MAX_LINES, Math.round(formLines)) } : rest;
}

/** How many of the calculation's filament lines the import removed: those beyond the lines it fills (0 when none). */
export function removedLineCount(info: SlicerImportInfo): number {
  return Math.max(0, (info.formLines ?? 1) - importedLines(info).length);
}

/** The figures of the chosen plate, or of all plates. */
export function chosenFigures(info: SlicerImportInfo): { grams: number; seconds: number } {
  const plate = info.plate !== undefined ? info.plates?.find((p) => p.index === info.plate) : undefined;
  return plate ? { grams: plate.filamentGrams, seconds: plate.printSeconds } : { grams: info.grams, seconds: info.seconds };
}

/**
 * The calculator's longest print time, 99 h 59 min: the maxima of its
 * printTimeHours and printTimeMinutes fields (calculator/fields.ts; a unit
 * test keeps the two equal), repeated so the reader chunk does not carry the
 * field table.
 */
export const MAX_PRINT_MINUTES = 99 * 60 + 59;

/** Rounds a print time up to whole minutes and splits it for the form's two inputs. */
export function printTimeParts(seconds: number): { hours: number; minutes: number } {
  const minutes = Math.ceil(seconds / 60);
  return { hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/** Whether the file's print time (rounded up to the minute) is longer than the calculator takes. */
export function printTimeCapped(seconds: number): boolean {
  return Math.ceil(seconds / 60) > MAX_PRINT_MINUTES;
}

/**
 * The form texts an import sets: weight and print time (hours + minutes,
 * rounded up). A longer print time than the calculator takes is entered as
 * its maximum, so the weight still counts and the page calculates; the
 * notice says so (import-view.ts).
 */
export function importedFieldValues(info: SlicerImportInfo, options: ImportOptions = {}): Record<string, string> {
  const { seconds } = chosenFigures(info);
  const { hours, minutes } = printTimeParts(Math.min(seconds, MAX_PRINT_MINUTES * 60));
  const lines = importedLines(info);
  const values: Record<string, string> = { filamentWeight: gramsText(lines[0].grams), printTimeHours: String(hours), printTimeMinutes: String(minutes) };
  if (lines.length > 1) values.filamentLabel = lineLabel(lines[0], options);
  const chosen = chosenMatch(lines, options, 0);
  if (chosen) values.filamentPricePerKg = formatDecimalInput(chosen.pricePerKg);
  return values;
}

const gramsText = (grams: number) => formatDecimalInput(Math.max(0.1, grams));

/** A line's label: its material, and its colour in German where the file names one ("PLA Weiß"). */
function lineLabel(line: SlicerImportLine, { colourName }: ImportOptions): string {
  const family = line.color && colourName ? colourFamilyOfHex(line.color) : undefined;
  return [line.material, family ? colourName!(family) : undefined].filter(Boolean).join(' ');
}

/** The library filament chosen for a line (index 0 = line 1), if the import's lines were matched and exactly one fitted. */
function chosenMatch(lines: readonly SlicerImportLine[], { matches }: ImportOptions, index: number) {
  const match = index < lines.length ? matches?.[index] : undefined;
  return match?.kind === 'chosen' ? match : undefined;
}

/**
 * The texts of lines 2… after an import: grams and material (and colour) from the file;
 * the price is the chosen library filament's, else the line's current one, else line 1's
 * (the notice asks to check it). `id`: the chosen library filament, '' when none.
 */
export function importedLineTexts(
  info: SlicerImportInfo,
  currentPrice: (line: number) => string | undefined,
  options: ImportOptions = {},
): Array<{ grams: string; pricePerKg: string; label: string; id: string }> {
  const lines = importedLines(info);
  return lines.slice(1).map((line, i) => {
    const chosen = chosenMatch(lines, options, i + 1);
    return {
      grams: gramsText(line.grams),
      pricePerKg: chosen ? formatDecimalInput(chosen.pricePerKg) : (currentPrice(i + 2) ?? currentPrice(1) ?? ''),
      label: lineLabel(line, options),
      id: chosen?.id ?? '',
    };
  });
}

/** Line 1's chosen library filament ('' when none was chosen: the form keeps its own choice). */
export function importedFirstLineId(info: SlicerImportInfo, options: ImportOptions): string {
  return chosenMatch(importedLines(info), options, 0)?.id ?? '';
}

export function importNoticeToParams(notice: SlicerImportNotice, params: URLSearchParams) {
  for (const name of SLICER_IMPORT_PARAMS) params.delete(name);
  if (notice.kind === 'error') {
    params.set('slicerError', notice.code);
    if (notice.params?.method) params.set('slicerErrorMethod', String(notice.params.method));
    return params;
  }
  const { info } = notice;
  params.set('slicer', info.slicer);
  if (info.version) params.set('slicerVersion', info.version);
  params.set('slicerGrams', String(info.grams));
  params.set('slicerSeconds', String(info.seconds));
  params.set('slicerFilaments', String(info.filaments));
  if (info.plates) params.set('slicerPlates', info.plates.map((p) => `${p.index}:${p.filamentGrams}:${p.printSeconds}`).join(';'));
  if (info.plate !== undefined) params.set('slicerPlate', String(info.plate));
  const warning = info.warnings[0];
  if (warning) params.set('slicerWarning', [warning.code, warning.params?.material ?? '', warning.params?.density ?? ''].join(':'));
  if (info.purge) params.set('slicerPurge', String(info.purge));
  if (info.purge && info.purgeChanges) params.set('slicerPurgeChanges', String(info.purgeChanges));
  if (info.purgeUnknown && !info.purge) params.set('slicerPurgeUnknown', '1');
  if (info.formLines && info.formLines > 1) params.set('slicerFormLines', String(info.formLines));
  const part = (text: string | undefined) => (text ?? '').replace(/[:;]/g, '');
  if (info.lines) {
    params.set('slicerLines', info.lines.map((line) => [line.grams, part(line.material), part(line.color?.slice(1)), part(line.vendor)].join(':').replace(/:+$/, '')).join(';'));
  }
  if (info.filament?.material) {
    params.set('slicerFilament', [part(info.filament.material), part(info.filament.color?.slice(1)), part(info.filament.vendor)].join(':').replace(/:+$/, ''));
  }
  return params;
}

const number = (text: string | null | undefined) => {
  if (text == null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 && value < 1e9 ? value : undefined;
};
// Shown back to the visitor: printable text only, short.
const label = (text: string | null) => (text ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 60);

/** material:colour:brand of a link, cut and cleaned (a colour only as `#RRGGBB`). */
function factsFromLink([material, color, vendor]: string[]): SlicerLineFacts {
  const name = label(material ?? '').slice(0, 20);
  const hex = color ? normalizeHexColour(color) : undefined;
  const brand = label(vendor ?? '').slice(0, 40);
  return { ...(name ? { material: name } : {}), ...(hex ? { color: hex } : {}), ...(brand ? { vendor: brand } : {}) };
}

/** The notice a link carries, or null (missing or malformed parameters are ignored, never an error). */
export function importNoticeFromParams(params: URLSearchParams): SlicerImportNotice | null {
  const error = params.get('slicerError');
  if (error !== null) {
    if (!ERROR_CODES.has(error)) return null;
    const method = params.get('slicerErrorMethod') ?? '';
    return { kind: 'error', code: error, ...(error === 'bgcodeCompression' ? { params: { method: METHODS.has(method) ? method : 'Heatshrink' } } : {}) };
  }
  const slicer = label(params.get('slicer'));
  const grams = number(params.get('slicerGrams'));
  const seconds = number(params.get('slicerSeconds'));
  if (!slicer || grams === undefined || seconds === undefined) return null;
  const plates = (params.get('slicerPlates') ?? '')
    .split(';')
    .slice(0, MAX_PLATES)
    .map((part) => part.split(':').map((n) => number(n)))
    .filter((p): p is [number, number, number] => p.length === 3 && p.every((n) => n !== undefined))
    .map(([index, filamentGrams, printSeconds]) => ({ index, filamentGrams, printSeconds }));
  const plate = number(params.get('slicerPlate'));
  const lines = (params.get('slicerLines') ?? '')
    .split(';')
    .slice(0, MAX_LINES)
    .map((part) => part.split(':'))
    .flatMap(([grams, ...facts]): SlicerImportLine[] => {
      const value = number(grams);
      return value === undefined ? [] : [{ grams: value, ...factsFromLink(facts) }];
    });
  const filament = factsFromLink((params.get('slicerFilament') ?? '').split(':'));
  const formLines = number(params.get('slicerFormLines'));
  const [code, material, density] = (params.get('slicerWarning') ?? '').split(':');
  const warnings: SlicerWarning[] =
    WARNING_CODES.has(code) && number(density) !== undefined
      ? [{ code: code as SlicerWarning['code'], params: { material: label(material).slice(0, 20), density: number(density)! } }]
      : [];
  return {
    kind: 'info',
    info: {
      slicer,
      version: label(params.get('slicerVersion')) || null,
      grams,
      seconds,
      filaments: Math.min(64, Math.round(number(params.get('slicerFilaments')) ?? 1)),
      ...(plates.length > 1 ? { plates } : {}),
      ...(plate !== undefined && plates.some((p) => p.index === plate) ? { plate } : {}),
      ...(lines.length > 1 ? { lines } : {}),
      ...(lines.length <= 1 && filament.material ? { filament } : {}),
      ...(number(params.get('slicerPurge')) ? { purge: number(params.get('slicerPurge')) } : {}),
      ...(number(params.get('slicerPurge')) && number(params.get('slicerPurgeChanges'))
        ? { purgeChanges: Math.min(1_000_000, Math.round(number(params.get('slicerPurgeChanges'))!)) }
        : {}),
      ...(params.get('slicerPurgeUnknown') === '1' && !number(params.get('slicerPurge')) ? { purgeUnknown: true as const } : {}),
      ...(formLines !== undefined && formLines >= 2 ? { formLines: Math.min(MAX_LINES, Math.round(formLines)) } : {}),
      warnings,
    },
  };
}
