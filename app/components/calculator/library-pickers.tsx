import { Link } from '@remix-run/react';
import { Check, Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { calculatorPickers, pickerTexts, pickerValues, pickerValueText, type PickerApplied, type PickerId, type PickerItem, type PickerSpec } from '~/calculator/pickers';
import type { CalculatorSection } from '~/calculator/fields';
import type { PickerState } from '~/calculator/pickers';
import { useHydrated } from '~/lib/use-hydrated';
import { PickerSelect } from './picker-select';

/**
 * The library pickers of one calculator card (signed-in users). With scripts,
 * choosing an item copies its values into the card's inputs and fires the
 * form's input event, so the results recompute at once. Without scripts the
 * "Übernehmen" button submits the form with `apply=<picker>` and the loader
 * fills the values (models/calculator-pickers.server.ts).
 */
export function LibraryPickers({ section, state }: { section: CalculatorSection; state: PickerState }) {
  const pickers = calculatorPickers.filter((picker) => picker.section === section);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {pickers.map((picker) => (
        <LibraryPicker
          key={picker.id}
          picker={picker}
          items={state.items[picker.id]}
          selected={state.selected[picker.id]}
          applied={state.applied.find((entry) => entry.picker === picker.id) ?? null}
          libraryPath={state.paths[picker.kind]}
        />
      ))}
    </div>
  );
}

type Applied = Pick<PickerApplied, 'name' | 'values'>;

function LibraryPicker({
  picker,
  items,
  selected,
  applied: appliedOnServer,
  libraryPath,
}: {
  picker: PickerSpec;
  items: PickerItem[];
  selected: string;
  applied: Applied | null;
  libraryPath: string;
}) {
  const { t } = useTranslation(['pickers', 'calculator']);
  const id = useId();
  const hydrated = useHydrated();
  const [applied, setApplied] = useState<Applied | null>(appliedOnServer);

  if (items.length === 0) {
    return (
      <div className="rounded-md border border-dashed border-surface-line bg-surface-subtle px-3 py-2.5 text-sm text-ink-muted" data-picker-empty={picker.id}>
        <p>{t(`pickers:empty.${picker.id}`)}</p>
        <Link to={`${libraryPath}?new`} className="mt-1 inline-flex items-center gap-1 font-medium text-brand-700 hover:underline">
          <Plus aria-hidden="true" className="size-4" />
          {t(`pickers:add.${picker.id}`)}
        </Link>
      </div>
    );
  }

  function choose(item: PickerItem | undefined, form: HTMLFormElement | null) {
    if (!item || !form) {
      // 'Manuell eingeben' keeps the values as they are.
      setApplied(null);
      return;
    }
    const texts = pickerTexts(picker, item);
    for (const [field, text] of texts) {
      const input = form.elements.namedItem(field);
      if (input instanceof HTMLInputElement) input.value = text;
    }
    setApplied({ name: item.name, values: pickerValues(picker, item) });
    // The calculator recomputes on the form's input event (uncontrolled inputs).
    form.dispatchEvent(new Event('input', { bubbles: true }));
  }

  return (
    <div data-picker={picker.id} id={pickerAnchor(picker.id)} className="scroll-mt-4">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium">
        {t(`pickers:label.${picker.id}`)}
      </label>
      <PickerSelect
        id={id}
        name={picker.param}
        items={items}
        selected={selected}
        manualLabel={t('pickers:manual')}
        onChoose={choose}
        apply={{
          name: 'apply',
          value: picker.id,
          // Back at this picker, where the "Automatisch übernommen" box shows, not at the results.
          formAction: `/calculator#${pickerAnchor(picker.id)}`,
          ariaLabel: t(`pickers:applyLabel.${picker.id}`),
          label: t('pickers:apply'),
        }}
      />
      {/* Issue 23: the filament picker is line 1's; its box names the line as the other lines' boxes do. */}
      {applied ? <AppliedBox picker={picker} applied={applied} line={picker.id === 'filament' ? 1 : null} /> : null}
      {/* Without scripts the next 'Übernehmen' keeps this box: the address lists every picker applied. */}
      {applied && !hydrated ? <input type="hidden" name="applied" value={picker.id} /> : null}
    </div>
  );
}

/** The picker's place on the page: the no-JS "Übernehmen" returns there. */
function pickerAnchor(picker: PickerId): string {
  return `auswahl-${picker}`;
}

function AppliedBox({ picker, applied, line }: { picker: PickerSpec; applied: Applied; line: number | null }) {
  const { t } = useTranslation(['pickers', 'calculator', 'filament-lines']);
  return (
    <div role="status" className="mt-2 rounded-md border border-success-600/40 bg-success-50 px-3 py-2 text-sm" data-picker-applied>
      <p className="flex items-center gap-1.5 font-semibold text-success-600">
        <Check aria-hidden="true" className="size-4" />
        {line === null ? t('pickers:appliedTitle') : t('filament-lines:appliedTitle', { n: line })}
      </p>
      <p className="text-ink-muted">{t('pickers:appliedFrom', { name: applied.name })}</p>
      <ul className="mt-1 space-y-0.5">
        {applied.values.map(([field, value]) => {
          const unit = t(`calculator:fields.${field}.unit`, { defaultValue: '' });
          return (
            <li key={field}>
              {t('pickers:appliedField', { label: t(`calculator:fields.${field}.label`) })}{' '}
              <span className="font-medium tabular-nums">{pickerValueText(picker, field, value, unit)}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export type { PickerId };
