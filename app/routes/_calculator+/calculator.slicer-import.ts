import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { calculatorFieldNames, rawValuesFromSearchParams, rawValuesToSearchParams, withLineTexts } from '~/calculator/fields';
import { HIDDEN_PROJECT_FIELDS } from '~/models/calculator-projects.server';
import { importLibraryFilaments, importSlicerFile } from '~/models/slicer-import.server';
import { getRequestContext } from '~/services/request-context.server';
import { readSlicerUpload } from '~/web/slicer-upload.server';
import { getServerT } from '~/i18n.server';
import {
  importedFieldValues,
  importedFirstLineId,
  importedLines,
  importedLineTexts,
  importInfoFromSummary,
  importNoticeToParams,
  type ImportOptions,
  type SlicerImportNotice,
} from '~/slicer/import-link';
import { matchLines } from '~/slicer/library-match';

/**
 * The slicer import without JavaScript: a multipart post of the file and the
 * calculator's current texts. It has its own address because it alone may
 * stream up to 1 GB (app/server/request-guard.server.ts); the file is read as
 * it streams (head and tail kept, nothing stored). The answer is a redirect to
 * the calculation link with weight and print time filled in and the import
 * notice (or its German error) in the link.
 */
export async function action(args: ActionFunctionArgs) {
  const ctx = await getRequestContext(args);
  const result = await importSlicerFile({ em: ctx.em, ip: ctx.ip }, () => readSlicerUpload(args.request));
  const fields = 'fields' in result ? result.fields : {};
  let values = rawValuesFromSearchParams(new URLSearchParams(calculatorFieldNames.flatMap((name) => (name in fields ? [[name, fields[name]]] : []))));
  let notice: SlicerImportNotice;
  const chosenIds: string[] = [];
  if (result.status === 'ok') {
    const info = importInfoFromSummary(result.summary);
    // Issue 23: one line per filament the file used; each takes the signed-in seller's one fitting
    // library filament, else keeps the price the form had for it.
    const t = await getServerT('filament-lines');
    const options: ImportOptions = {
      matches: matchLines(importedLines(info), importedLines(info).length > 1 ? await importLibraryFilaments(ctx) : null),
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
  // The open project and its unsaved parts (library choices, an uploaded image) stay with the calculation.
  for (const name of ['project', ...HIDDEN_PROJECT_FIELDS]) {
    const value = fields[name]?.trim().slice(0, 256);
    if (value) params.set(name, value);
  }
  chosenIds.forEach((id, i) => id && params.set(i === 0 ? 'selectedFilament' : `selectedFilament${i + 1}`, id));
  return redirect(`/calculator?${params}#slicer-import`, 303);
}

/** Nothing to show at this address: a GET goes to the calculator. */
export function loader() {
  return redirect('/calculator');
}
