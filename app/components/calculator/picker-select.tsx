import type { PickerItem } from '~/calculator/pickers';
import { useHydrated } from '~/lib/use-hydrated';

export type PickerSelectProps = {
  id: string;
  /** The select's form field: what the no-JS submit (and a refused save) carries back. */
  name: string;
  items: readonly PickerItem[];
  selected: string;
  /** The first option, '' = values entered by hand. */
  manualLabel: string;
  onChoose: (item: PickerItem | undefined, form: HTMLFormElement | null) => void;
  /** The no-JS 'Übernehmen' button: submits the form with name=value to formAction. */
  apply: { name: string; value: string; formAction: string; ariaLabel: string; label: string };
};

/**
 * A library picker's select and, without scripts, its 'Übernehmen' button: shared by the
 * card pickers (library-pickers.tsx) and the filament lines' pickers (line-picker.tsx).
 * With scripts the button is gone and choosing calls onChoose with the item (undefined
 * for 'Manuell eingeben') and the select's form.
 */
export function PickerSelect({ id, name, items, selected, manualLabel, onChoose, apply }: PickerSelectProps) {
  const hydrated = useHydrated();
  return (
    // Issue 24 §3: at 320 px 'Übernehmen' wraps under the select rather than cutting its text off.
    <div className="flex flex-wrap gap-2">
      <select
        id={id}
        name={name}
        defaultValue={selected}
        onChange={(event) => {
          const value = event.currentTarget.value;
          onChoose(
            items.find((entry) => entry.id === value),
            event.currentTarget.form,
          );
        }}
        className="block min-w-0 flex-[1_1_12rem] rounded-md border border-surface-line bg-surface px-3 py-2 text-ink shadow-sm focus:border-brand-600 focus:outline-2 focus:outline-brand-600"
      >
        <option value="">{manualLabel}</option>
        {items.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button
          type="submit"
          name={apply.name}
          value={apply.value}
          formAction={apply.formAction}
          aria-label={apply.ariaLabel}
          className="shrink-0 rounded-md border border-brand-600 px-3 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50"
        >
          {apply.label}
        </button>
      )}
    </div>
  );
}
