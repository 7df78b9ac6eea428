/**
 * The slicer import's browser side, loaded lazily when a file is chosen or
 * dropped (or a plate picked): reading only the file's first and last few MB
 * (Blob.slice; for a ZIP also its directory and the entries wanted), filling
 * the form, and the notice. The calculator's first-visit JavaScript only
 * renders what this produces.
 */
import {
  importedFieldValues,
  importedFirstLineId,
  importedLines,
  importedLineTexts,
  importInfoFromSummary,
  withFormLines,
  type ImportOptions,
  type SlicerImportInfo,
} from './import-link';
import { buildImportView, type SlicerNoticeView } from './import-view';
import { matchLines, type ColourFamily, type MatchableFilament } from './library-match';
import { readSlicerSummary } from './index';
import { SLICER_MAX_BYTES } from '~/domain/limits';
import { SLICER_HEAD_BYTES, SLICER_TAIL_BYTES, type SlicerReadResult } from './types';

export type ImportContext = {
  t: (key: string, options?: Record<string, unknown>) => string;
  search: string;
  show: (notice: SlicerNoticeView) => void;
  busy: (busy: boolean) => void;
  /** The signed-in seller's active library filaments (issue 23: each imported line takes the one that fits); null for a visitor. */
  library: readonly MatchableFilament[] | null;
};

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

export async function readSlicerFile(file: Blob): Promise<SlicerReadResult> {
  const size = file.size;
  if (size > SLICER_MAX_BYTES) return { ok: false, error: { code: 'tooLarge' } };
  const head = await bytesOf(file.slice(0, SLICER_HEAD_BYTES));
  const tail = size <= head.length ? head : await bytesOf(file.slice(Math.max(0, size - SLICER_TAIL_BYTES), size));
  return readSlicerSummary({ size, head, tail, read: async (offset, length) => bytesOf(file.slice(offset, offset + length)) });
}

export async function importFile(context: ImportContext, file: File) {
  context.busy(true);
  try {
    const result = await readSlicerFile(file);
    // The lines the form has now: the import's replace them, and the notice says when some are gone.
    if (result.ok) apply(context, withFormLines(importInfoFromSummary(result.summary), formLineCount(calculatorForm())));
    else context.show({ kind: 'error', ...result.error });
  } finally {
    context.busy(false);
  }
}

/** A plate (or, with undefined, all plates) of a multi-plate project. */
export function choosePlate(context: ImportContext, info: SlicerImportInfo, plate: number | undefined) {
  apply(context, { ...info, plate });
}

const calculatorForm = () => document.getElementById('calculator-form') as HTMLFormElement;

/** The form's filament lines: line 1 and each further line's grams input (the line list numbers them 2, 3, … without gaps). */
function formLineCount(form: HTMLFormElement): number {
  let count = 1;
  while (form.elements.namedItem(`filamentWeight${count + 1}`)) count++;
  return count;
}

function apply(context: ImportContext, info: SlicerImportInfo) {
  context.show({ kind: 'info', info, view: buildImportView(info, context.t, context.search, context.library) });
  const form = calculatorForm();
  const options: ImportOptions = { matches: matchLines(importedLines(info), context.library), colourName: (family: ColourFamily) => context.t(`filament-lines:colours.${family}`) };
  // The prices the form had (lines without a library match keep them), read before line 1's may change.
  const prices = new Map<number, string | undefined>();
  const price = (line: number) => {
    if (!prices.has(line)) prices.set(line, (form.elements.namedItem(line === 1 ? 'filamentPricePerKg' : `filamentPricePerKg${line}`) as HTMLInputElement | null)?.value);
    return prices.get(line);
  };
  price(1);
  let input: HTMLInputElement | undefined;
  for (const [name, value] of Object.entries(importedFieldValues(info, options))) {
    input = form.elements.namedItem(name) as HTMLInputElement;
    input.value = value;
  }
  // Line 1's library filament, when one was chosen for it (the picker in the card's top row).
  const firstId = importedFirstLineId(info, options);
  const picker = form.elements.namedItem('selectedFilament');
  if (firstId && picker instanceof HTMLSelectElement) picker.value = firstId;
  // The form recalculates on input events, as if the values had been typed.
  input?.dispatchEvent(new Event('input', { bubbles: true }));
  // Issue 23: lines 2… (one per further filament, none for a one-filament file) go to the form's
  // line list (components/calculator/filament-lines.tsx), which renders them and recalculates.
  form.dispatchEvent(new CustomEvent('druckpreis:filament-lines', { detail: importedLineTexts(info, price, options) }));
}
