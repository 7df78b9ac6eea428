/**
 * The filament lines' buttons without JavaScript (issue 23 §2): 'Filament
 * hinzufügen', a line's 'Entfernen' and a line's 'Übernehmen' are submit
 * buttons of the calculator's GET form (`filamentZeile=hinzufuegen`,
 * `entfernen-<n>`, `uebernehmen-<n>`). The loader answers with a redirect to
 * the same calculation with the lines changed, everything typed kept, so the
 * address stays a shareable link and a reload does not add another line.
 * With JavaScript the form does the same in the browser (components/calculator/filament-lines.tsx).
 */
import { formatMoneyInput } from '../lib/number';
import {
  defaultRawValues,
  LINE_COUNT_PARAM,
  lineFieldName,
  lineTextsOf,
  MAX_FILAMENT_LINES,
  rawValuesFromSearchParams,
  rawValuesToSearchParams,
  withLineTexts,
  type FilamentLineTexts,
} from './fields';
import type { PickerItem } from './pickers';

export const LINE_ACTION_PARAM = 'filamentZeile';
/** After a no-JS 'Übernehmen': the line whose library filament was applied (its box says so). */
export const LINE_APPLIED_PARAM = 'filamentUebernommen';

/** What the form's extra lines need besides their texts: each line's library filament, the applied box, the new line's texts. */
export type FilamentLinesState = {
  /** selectedFilament2… by line (index 0 = line 2); '' = entered by hand. */
  ids: string[];
  /** The price as a number: the box writes it the pages' way (1.299,50 €; issue 24 §1). */
  applied: { line: number; name: string; pricePerKg: number } | null;
  newLine: FilamentLineTexts;
};

function lineIds(params: URLSearchParams, hidden: Record<string, string>, count: number): string[] {
  return Array.from({ length: Math.max(0, count - 1) }, (_, i) => {
    const name = lineFieldName('filamentId', i + 1);
    return params.get(name) ?? hidden[name] ?? '';
  });
}

/** The state of the lines 2… for the page (the ids the address or the opened project names). */
export function filamentLinesState(
  params: URLSearchParams,
  hidden: Record<string, string>,
  lineCount: number,
  filaments: readonly PickerItem[] | null,
): FilamentLinesState {
  const ids = lineIds(params, hidden, lineCount).map((id) => (filaments?.some((item) => item.id === id) ? id : ''));
  let applied: FilamentLinesState['applied'] = null;
  const line = Number(params.get(LINE_APPLIED_PARAM));
  const item = Number.isInteger(line) && line >= 2 ? filaments?.find((entry) => entry.id === ids[line - 2]) : undefined;
  if (item) applied = { line, name: item.name, pricePerKg: Number(item.pricePerKg) };
  const defaults = defaultRawValues();
  return { ids, applied, newLine: { grams: defaults.filamentWeight, pricePerKg: defaults.filamentPricePerKg, label: '' } };
}

/**
 * The address after a line button, or null when the request names none (or one
 * that changes nothing: a 17th line, removing line 1 or a line that is not there).
 */
export function lineActionRedirect(params: URLSearchParams, filaments: readonly PickerItem[] | null): string | null {
  const action = params.get(LINE_ACTION_PARAM);
  if (action === null) return null;
  const values = rawValuesFromSearchParams(params);
  const lines = lineTextsOf(values);
  const ids = ['', ...lineIds(params, {}, lines.length)];
  let applied: number | null = null;
  const match = /^(entfernen|uebernehmen)-(\d{1,2})$/.exec(action);
  const line = match ? Number(match[2]) : 0;
  if (action === 'hinzufuegen' && lines.length < MAX_FILAMENT_LINES) {
    const defaults = defaultRawValues();
    lines.push({ grams: defaults.filamentWeight, pricePerKg: defaults.filamentPricePerKg, label: '' });
    ids.push('');
  } else if (match?.[1] === 'entfernen' && line >= 2 && line <= lines.length) {
    lines.splice(line - 1, 1);
    ids.splice(line - 1, 1);
  } else if (match?.[1] === 'uebernehmen' && line >= 2 && line <= lines.length) {
    const item = filaments?.find((entry) => entry.id === ids[line - 1]);
    if (item) {
      lines[line - 1] = { ...lines[line - 1], pricePerKg: formatMoneyInput(Number(item.pricePerKg)) };
      applied = line;
    }
  }
  const query = new URLSearchParams();
  // Whatever else the form sent (project, the pickers' choices, the pickers' 'Automatisch übernommen'
  // boxes in `applied`) travels on; the lines are written anew.
  for (const [name, value] of params) {
    if (name === LINE_ACTION_PARAM || name === LINE_APPLIED_PARAM || name === LINE_COUNT_PARAM || name === 'apply') continue;
    if (/^(filamentWeight|filamentPricePerKg|filamentLabel|selectedFilament)([2-9]|1\d)$/.test(name)) continue;
    if (values[name as keyof typeof values] !== undefined) continue;
    query.append(name, value);
  }
  for (const [name, value] of rawValuesToSearchParams(withLineTexts(values, lines))) query.append(name, value);
  ids.forEach((id, index) => {
    if (index > 0 && id) query.set(lineFieldName('filamentId', index), id);
  });
  if (applied !== null) query.set(LINE_APPLIED_PARAM, String(applied));
  return `/calculator?${query}#filamente`;
}
