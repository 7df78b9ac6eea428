/**
 * The import notice as the page shows it: translated text and the plate
 * choices as links. Built on the server for the first render and by the lazily
 * loaded reader chunk after a browser import, so the calculator's first-visit
 * JavaScript only renders it.
 */
import { formatNumber } from '../lib/number';
import {
  chosenFigures,
  importNoticeFromParams,
  importedFieldValues,
  importedFirstLineId,
  importedLines,
  importedLineTexts,
  importNoticeToParams,
  MAX_PRINT_MINUTES,
  printTimeCapped,
  printTimeParts,
  removedLineCount,
  type ImportOptions,
  type SlicerImportInfo,
} from './import-link';
import { matchLines, type ColourFamily, type LineMatch, type MatchableFilament } from './library-match';

type Translate = (key: string, options?: Record<string, unknown>) => string;

export type SlicerPlateChoice = { label: string; href: string; current: boolean; plate: number | undefined };

export type SlicerImportView = {
  message: string;
  warning?: string;
  /** The file's print time is over the calculator's maximum, which was entered instead. */
  timeCapped?: string;
  plates?: SlicerPlateChoice[];
  /**
   * Issue 23: the filaments taken over as lines, and that their prices need a look; signed in,
   * one text line per filament line: the library filament chosen for it, or that several or none fit.
   * First, when the import removed some of the calculation's lines, a line that says so.
   */
  lines?: string;
  /** Issue 23: the purge / wipe-tower grams the file reports, included in the weight. */
  purge?: string;
};

/** The notice under the import field: the imported figures, or why the file could not be read. */
export type SlicerNoticeView =
  | { kind: 'info'; info: SlicerImportInfo; view: SlicerImportView }
  | { kind: 'error'; code: string; params?: Record<string, string | number> };

/**
 * `library`: the signed-in seller's active filaments (the filament picker's items), so each
 * imported line takes the one that fits (library-match.ts); null for a visitor.
 */
export function buildImportView(info: SlicerImportInfo, t: Translate, search: string, library: readonly MatchableFilament[] | null = null): SlicerImportView {
  const colourName = (family: ColourFamily) => t(`filament-lines:colours.${family}`);
  const optionsFor = (next: SlicerImportInfo): ImportOptions => ({ matches: matchLines(importedLines(next), library), colourName });
  const duration = (seconds: number) => t('slicer.duration', printTimeParts(seconds));
  const { grams, seconds } = chosenFigures(info);
  const details = [[info.slicer, info.version].filter(Boolean).join(' '), `${formatNumber(grams)} g`, duration(seconds), t('slicer.filaments', { count: info.filaments })].join(' · ');
  const warning = info.warnings[0];
  // Each choice is a link to the calculation with that plate's figures, so it works without scripts.
  const choice = (plate: number | undefined): SlicerPlateChoice => {
    const next = { ...info, plate };
    const options = optionsFor(next);
    const params = new URLSearchParams(search);
    // The prices the form had, read before line 1's is replaced by a chosen library filament's.
    const before = new URLSearchParams(search);
    const price = (line: number) => before.get(line === 1 ? 'filamentPricePerKg' : `filamentPricePerKg${line}`) ?? undefined;
    for (const [name, value] of Object.entries(importedFieldValues(next, options))) params.set(name, value);
    // Issue 23: the plate's (or all plates') filament lines replace those of the address.
    const lines = importedLineTexts(next, price, options);
    for (const name of [...params.keys()]) if (/^(filamentWeight|filamentPricePerKg|filamentLabel|selectedFilament)\d+$/.test(name)) params.delete(name);
    if (lines.length === 0) params.delete('filamentLabel');
    const firstId = importedFirstLineId(next, options);
    if (firstId) params.set('selectedFilament', firstId);
    lines.forEach((line, i) => {
      params.set(`filamentWeight${i + 2}`, line.grams);
      params.set(`filamentPricePerKg${i + 2}`, line.pricePerKg);
      params.set(`filamentLabel${i + 2}`, line.label);
      if (line.id) params.set(`selectedFilament${i + 2}`, line.id);
    });
    importNoticeToParams({ kind: 'info', info: next }, params);
    const figures = info.plates?.find((p) => p.index === plate);
    return {
      label: figures
        ? `${t('slicer.plate', { index: figures.index })} · ${formatNumber(figures.filamentGrams)} g · ${duration(figures.printSeconds)}`
        : t('slicer.allPlates'),
      href: `/calculator?${params}#slicer-import`,
      current: info.plate === plate,
      plate,
    };
  };
  return {
    message: t('slicer.takenOver', { details }),
    ...(warning ? { warning: t(`slicer.warnings.${warning.code}`, germanParams(warning.params)) } : {}),
    ...(printTimeCapped(seconds) ? { timeCapped: t('slicer.timeCapped', { duration: duration(seconds), max: duration(MAX_PRINT_MINUTES * 60) }) } : {}),
    ...(info.plates ? { plates: [choice(undefined), ...info.plates.map((plate) => choice(plate.index))] } : {}),
    ...(info.purge
      ? {
          purge: info.purgeChanges
            ? t('filament-lines:slicerPurgeEstimate', { grams: formatNumber(info.purge, 1), count: info.purgeChanges })
            : t('filament-lines:slicerPurge', { grams: formatNumber(info.purge) }),
        }
      : info.purgeUnknown
        ? { purge: t('filament-lines:slicerPurgeUnknown') }
        : {}),
    ...linesText([
      removedLinesText(info, t),
      matchTexts(info, optionsFor(info).matches, t),
      importedLines(info).length > 1 && !library
        ? t('filament-lines:slicerLines', {
            list: importedLines(info)
              .map((line, i) => `${line.material ?? t('filament-lines:line', { n: i + 1 })} ${formatNumber(line.grams)} g`)
              .join(', '),
          })
        : undefined,
    ]),
  };
}

/** The notice's line texts, one line each (none: no `lines`). */
function linesText(texts: Array<string | undefined>): Pick<SlicerImportView, 'lines'> {
  const shown = texts.filter((text): text is string => Boolean(text));
  return shown.length > 0 ? { lines: shown.join('\n') } : {};
}

/**
 * When the calculation had more filament lines than the import fills (a one-filament file over
 * three lines), the others are gone: said, not done silently ('Die Datei nennt ein Filament: …').
 */
function removedLinesText(info: SlicerImportInfo, t: Translate): string | undefined {
  const removed = removedLineCount(info);
  if (removed === 0) return undefined;
  const filled = importedLines(info).length;
  const source = info.plate !== undefined ? t('filament-lines:slicerPlateFills', { count: filled }) : t('filament-lines:slicerFileNames', { count: filled });
  return t('filament-lines:slicerLinesRemoved', { source, count: removed });
}

/** Per imported line: what the library offered for it ('Filament 2 (PETG 7,25 g): „PETG Rot“ … gewählt'). */
function matchTexts(info: SlicerImportInfo, matches: readonly LineMatch[] | null | undefined, t: Translate): string | undefined {
  const lines = importedLines(info);
  if (!matches) return undefined;
  if (lines.length === 1) {
    // A one-filament file: said only when its one fitting library filament was chosen (else the notice is as before).
    const match = matches[0];
    if (match?.kind !== 'chosen') return undefined;
    const line = `${lines[0].material ?? t('filament-lines:unknownMaterial')}, ${formatNumber(lines[0].grams)} g`;
    return t('filament-lines:slicerMatchChosenSingle', { line, name: match.name, price: formatNumber(match.pricePerKg) });
  }
  return [t('filament-lines:slicerMatchTitle'), ...lines.map((line, i) => {
      const match = matches[i];
      const base = { n: i + 1, line: `${line.material ?? t('filament-lines:unknownMaterial')}, ${formatNumber(line.grams)} g` };
      if (match?.kind === 'chosen') return t('filament-lines:slicerMatchChosen', { ...base, name: match.name, price: formatNumber(match.pricePerKg) });
      if (match?.kind === 'several') return t('filament-lines:slicerMatchSeveral', { ...base, count: match.count });
      return t('filament-lines:slicerMatchNone', base);
    })].join('\n');
}

/** Numbers in a message the German way (a density of 1.24 reads "1,24"). */
function germanParams(params: Record<string, string | number> | undefined) {
  if (!params) return params;
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'number' ? formatNumber(value, 3) : value]));
}

/** The notice an address carries (`?slicer…`, after a no-JS import), as the page shows it. */
export function slicerNoticeView(params: URLSearchParams, t: Translate, library: readonly MatchableFilament[] | null = null): SlicerNoticeView | null {
  const notice = importNoticeFromParams(params);
  if (notice?.kind !== 'info') return notice;
  return { ...notice, view: buildImportView(notice.info, t, `?${params}`, library) };
}
