import { calculatorPickers, pickerById, pickerTexts, pickerValues, toPickerItem, type PickerId, type PickerState } from '../calculator/pickers';
import { rawValuesToSearchParams, type CalculatorRawValues } from '../calculator/fields';
import { LIBRARY_KINDS, libraryDefinitions } from '../domain/library-definitions';
import { listPickerItems, type LibraryContext, type PickerItems } from './library.server';

/**
 * The calculator's pickers on the server: the user's active items (one round
 * of queries for all five), and the no-JS "Übernehmen" (`?apply=<picker>`):
 * the chosen item's values replace the fields and the answer is a redirect to
 * the address that holds them, so the result stays a shareable calculation.
 * An id that is not one of the user's active items applies nothing.
 * The boxes already shown travel with the form (hidden `applied` inputs), so
 * pressing 'Übernehmen' at a second picker keeps the first picker's box.
 */

/** The pickers named by the address's `applied` list (repeated or comma-separated), each once, in order. */
function appliedPickers(params: URLSearchParams): PickerId[] {
  const ids: PickerId[] = [];
  for (const value of params.getAll('applied')) {
    for (const part of value.split(',')) {
      const picker = pickerById(part.trim());
      if (picker && !ids.includes(picker.id)) ids.push(picker.id);
    }
  }
  return ids;
}

export type PickerOutcome = { redirectTo: string } | { state: PickerState };

export async function calculatorPickerState(ctx: LibraryContext, params: URLSearchParams, values: CalculatorRawValues): Promise<PickerOutcome> {
  return pickerStateOf(await listPickerItems(ctx), params, values);
}

/** The same from the user's active items already read (`pickerItemsRead`, together with other reads). */
export function pickerStateOf(lists: PickerItems, params: URLSearchParams, values: CalculatorRawValues): PickerOutcome {
  const items = {} as PickerState['items'];
  const selected = {} as PickerState['selected'];
  for (const picker of calculatorPickers) {
    items[picker.id] = lists[picker.kind].map((item) => toPickerItem(picker, item));
    const id = params.get(picker.param) ?? '';
    // Only the user's own active items can be selected; anything else shows as "Manuell eingeben".
    selected[picker.id] = items[picker.id].some((item) => item.id === id) ? id : '';
  }

  const apply = pickerById(params.get('apply'));
  if (apply) {
    const item = items[apply.id].find((entry) => entry.id === selected[apply.id]);
    if (item) {
      const next = { ...values };
      for (const [field, text] of pickerTexts(apply, item)) next[field] = text;
      const query = rawValuesToSearchParams(next);
      for (const picker of calculatorPickers) if (selected[picker.id]) query.set(picker.param, selected[picker.id]);
      const shown = appliedPickers(params).filter((id) => id !== apply.id && selected[id]);
      query.set('applied', [...shown, apply.id].join(','));
      return { redirectTo: `/calculator?${query}` };
    }
  }

  const applied: PickerState['applied'] = [];
  for (const id of appliedPickers(params)) {
    const picker = pickerById(id)!;
    const item = items[id].find((entry) => entry.id === selected[id]);
    if (item) applied.push({ picker: id, name: item.name, values: pickerValues(picker, item) });
  }
  const paths = Object.fromEntries(LIBRARY_KINDS.map((kind) => [kind, libraryDefinitions[kind].path])) as PickerState['paths'];
  return { state: { items, selected, applied, paths } };
}
