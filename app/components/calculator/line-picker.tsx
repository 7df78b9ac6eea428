import { useTranslation } from 'react-i18next';
import type { PickerItem } from '~/calculator/pickers';
import { formatMoney, formatMoneyInput } from '~/lib/number';
import { PickerSelect } from './picker-select';

/** The 'Automatisch übernommen' box's content: which filament's price the line took. */
export type LineApplied = { name: string; pricePerKg: number };

export type LinePickerProps = {
  line: number;
  filaments: readonly PickerItem[];
  /** The line's library filament ('' = entered by hand). */
  selected: string;
  applied: LineApplied | null;
  onApplied: (applied: LineApplied | null) => void;
};

/**
 * A filament line's library picker (issue 23, lines 2…; line 1's is the card's filament
 * picker): choosing fills the line's € per kg and fires the form's input event; without
 * JavaScript its 'Übernehmen' submits the form (calculator/filament-line-actions.ts).
 * Signed-in only, so it comes with the signed-in parts' chunk, never in a visitor's JavaScript.
 */
export function LinePicker({ line, filaments, selected, applied, onApplied }: LinePickerProps) {
  const { t } = useTranslation('filament-lines');

  function choose(item: PickerItem | undefined, form: HTMLFormElement | null) {
    if (!item || !form) return onApplied(null);
    // Money the German way, as the parser reads it back (issue 24 §1).
    const input = form.elements.namedItem(`filamentPricePerKg${line}`);
    if (input instanceof HTMLInputElement) input.value = formatMoneyInput(Number(item.pricePerKg));
    onApplied({ name: item.name, pricePerKg: Number(item.pricePerKg) });
    form.dispatchEvent(new Event('input', { bubbles: true }));
  }

  return (
    <div className="mt-3">
      <label htmlFor={`picker-filament-${line}`} className="mb-1 block text-sm font-medium">
        {t('picker')} <span className="sr-only">{t('forLine', { n: line })}</span>
      </label>
      <PickerSelect
        id={`picker-filament-${line}`}
        name={`selectedFilament${line}`}
        items={filaments}
        selected={selected}
        manualLabel={t('manual')}
        onChoose={choose}
        apply={{ name: 'filamentZeile', value: `uebernehmen-${line}`, formAction: '/calculator#filamente', ariaLabel: t('applyLabel', { n: line }), label: t('apply') }}
      />
      {applied ? (
        <p role="status" className="mt-2 rounded-md border border-success-600/40 bg-success-50 px-3 py-2 text-sm" data-line-applied={line}>
          <span className="block font-semibold text-success-600">{t('appliedTitle', { n: line })}</span>
          {t('appliedText', { name: applied.name, price: formatMoney(applied.pricePerKg, '€/kg') })}
        </p>
      ) : null}
    </div>
  );
}
