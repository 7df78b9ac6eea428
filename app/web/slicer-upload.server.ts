import { redirect } from '@remix-run/node';
import { lineTextsOf, MAX_FILAMENT_LINES, rawValuesFromSearchParams, rawValuesToSearchParams, withLineTexts } from '../calculator/fields';
import { SLICER_BODY_OVERHEAD_BYTES, SLICER_MAX_BYTES } from '../domain/limits';
import { getServerT } from '../i18n.server';
import { HIDDEN_PROJECT_FIELDS } from '../models/calculator-projects.server';
import { importLibraryFilaments, type SlicerImportResult } from '../models/slicer-import.server';
import { matchLines, needsLibrary } from '../slicer/library-match';
import { HeadTailCollector } from '../slicer/head-tail-collector';
import {
  importedFieldValues,
  importedFirstLineId,
  importedLines,
  importedLineTexts,
  importInfoFromSummary,
  importNoticeToParams,
  withFormLines,
  type ImportOptions,
  type SlicerImportNotice,
} from '../slicer/import-link';
import type { SlicerUpload } from '../slicer/types';
import { jsonResponse, rateLimitedResponse } from './api.server';
import { firstValues, readMultipart } from './multipart.server';

/** The multipart field that carries the slicer file (form and API alike). */
export const SLICER_FILE_FIELD = 'file';

/**
 * Reads a slicer upload as it streams (app/web/multipart.server.ts): the text
 * fields, and of the file only its head and tail. Nothing is written anywhere,
 * and a file over `maxBytes` (1 GB) stops the reading there; the whole body may
 * carry 1 MB more (a second file part is skipped, not free).
 */
export async function readSlicerUpload(request: Request, maxBytes = SLICER_MAX_BYTES): Promise<SlicerUpload> {
  const read = await readMultipart(request, {
    file: { name: SLICER_FILE_FIELD, maxBytes, collect: () => new HeadTailCollector(), whenTooLarge: 'stop' },
    maxBodyBytes: maxBytes + SLICER_BODY_OVERHEAD_BYTES,
  });
  if (read.status !== 'ok') return read;
  const fields = firstValues(read.fields);
  return read.file ? { status: 'ok', fields, file: read.file.collector.slices() } : { status: 'missingFile', fields };
}

/** `POST /api/slicer/parse`'s answer: the summary, or the status and German `{ message }`. */
export async function slicerParseResponse(result: SlicerImportResult): Promise<Response> {
  if (result.status === 'ok') return jsonResponse(result.summary);
  if (result.status === 'rateLimited') return rateLimitedResponse(result.retryAfterSeconds);
  const t = await getServerT('calculator');
  if (result.status === 'tooLarge') return jsonResponse({ message: t('slicer.errors.tooLarge') }, 413);
  if (result.status === 'badRequest') return jsonResponse({ message: t('slicer.errors.missingFile') }, 400);
  return jsonResponse({ message: t(`slicer.errors.${result.error.code}`, 'params' in result.error ? result.error.params : {}) }, 400);
}

/**
 * The no-JS import's answer: a redirect to the calculation link with weight
 * and print time filled in and the import notice (or its German error) in the
 * link; the open project and its unsaved parts (library choices, an uploaded
 * image) stay with the calculation.
 */
export async function slicerImportRedirect(result: SlicerImportResult, ctx: Parameters<typeof importLibraryFilaments>[0]): Promise<Response> {
  const fields = 'fields' in result ? result.fields : {};
  // Every field the form sent, its filament lines 2… included: a refused import (no file, unreadable)
  // gives the seller back exactly what was typed.
  let values = rawValuesFromSearchParams(new URLSearchParams(Object.entries(fields)));
  let notice: SlicerImportNotice;
  const chosenIds: string[] = [];
  if (result.status === 'ok') {
    // The lines the form had: the import's replace them, and the notice says when some are gone.
    const info = withFormLines(importInfoFromSummary(result.summary), lineTextsOf(values).length);
    // Issue 23: one line per filament the file used; each takes the signed-in seller's one fitting
    // library filament, else keeps the price the form had for it.
    const t = await getServerT('filament-lines');
    const options: ImportOptions = {
      matches: matchLines(importedLines(info), needsLibrary(importedLines(info)) ? await importLibraryFilaments(ctx) : null),
      colourName: (family) => t(`filament-lines:colours.${family}`),
    };
    Object.assign(values, importedFieldValues(info, options));
    const price = (line: number) => fields[line === 1 ? 'filamentPricePerKg' : `filamentPricePerKg${line}`]?.slice(0, 64);
    const first = { grams: values.filamentWeight, pricePerKg: values.filamentPricePerKg, label: values.filamentLabel ?? '' };
    const further = importedLineTexts(info, price, options);
    values = withLineTexts(values, [first, ...further]);
    chosenIds.push(importedFirstLineId(info, options), ...further.map((line) => line.id));
    notice = { kind: 'info', info };
  } else if (result.status === 'unreadable') {
    notice = { kind: 'error', code: result.error.code, params: 'params' in result.error ? result.error.params : undefined };
  } else {
    notice = { kind: 'error', code: result.status === 'badRequest' ? 'missingFile' : result.status };
  }
  const params = importNoticeToParams(notice, rawValuesToSearchParams(values));
  for (const name of ['project', ...HIDDEN_PROJECT_FIELDS]) {
    const value = fields[name]?.trim().slice(0, 256);
    if (value) params.set(name, value);
  }
  if (result.status !== 'ok') {
    // The lines' library choices stay as the form had them (an import chooses its own below).
    for (let line = 2; line <= MAX_FILAMENT_LINES; line++) {
      const id = fields[`selectedFilament${line}`]?.trim().slice(0, 256);
      if (id) params.set(`selectedFilament${line}`, id);
    }
  }
  chosenIds.forEach((id, i) => id && params.set(i === 0 ? 'selectedFilament' : `selectedFilament${i + 1}`, id));
  return redirect(`/calculator?${params}#slicer-import`, 303);
}
