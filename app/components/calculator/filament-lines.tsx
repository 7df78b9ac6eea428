import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalculatorRawValues } from '~/calculator/fields';
import type { FilamentLinesState } from '~/calculator/filament-line-actions';
import { filamentLineTexts } from '~/calculator/link';
import type { PickerItem } from '~/calculator/pickers';
import { filamentLineCosts } from '~/calculator/breakdown';
import { formatDecimalInput, formatEuro } from '~/lib/number';
import type { LinePickerProps } from './line-picker';

/** MAX_FILAMENT_LINES of the field table (kept out of the first visit's JavaScript). */
const MAX_LINES = 16;
/** The buttons' name (filament-line-actions.ts `LINE_ACTION_PARAM`): without JS the loader answers them. */
const ACTION = 'filamentZeile';

type Row = { key: number; grams: string; pricePerKg: string; label: string; id: string };

const inputClass = 'block w-full min-w-0 rounded-md border bg-surface px-3 py-2 text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200';
const buttonClass = 'inline-flex items-center gap-1.5 rounded-md border px-3 py-2 text-sm font-medium';

/**
 * The filament lines 2… (issue 23) and line 1's label, in the printer & filament
 * card. 'Filament hinzufügen' and 'Entfernen' are submit buttons of the
 * calculator form: without JavaScript the loader answers with the lines changed;
 * with it they act here at once and fire the form's input event, so the live
 * calculation covers every line. Each line has its own library picker for
 * signed-in users (`filaments`), with 'Automatisch übernommen' naming the line.
 */
export function FilamentLines({
  values,
  errors,
  state,
  filaments,
  picker,
}: {
  values: CalculatorRawValues;
  errors: Partial<Record<string, string>>;
  state: FilamentLinesState;
  /** The user's active library filaments; null for visitors (no pickers). */
  filaments: readonly PickerItem[] | null;
  /** Each line's library picker (line-picker.tsx), from the signed-in parts' chunk. */
  picker?: (props: LinePickerProps) => ReactNode;
}) {
  const { t } = useTranslation(['filament-lines', 'calculator']);
  const nextKey = useRef(0);
  const [rows, setRows] = useState<Row[]>(() =>
    filamentLineTexts(values)
      .slice(1)
      .map((line, i) => ({ ...line, key: nextKey.current++, id: state.ids[i] ?? '' })),
  );
  const [applied, setApplied] = useState(state.applied);
  const root = useRef<HTMLFieldSetElement>(null);
  const changed = useRef<'added' | 'removed' | 'imported' | null>(null);

  // A slicer import (slicer/browser.ts) replaces lines 2… with the file's further filaments.
  useEffect(() => {
    const form = root.current?.form;
    if (!form) return;
    const onImport = (event: Event) => {
      // `id`: the library filament the import chose for the line (issue 23), '' when none fitted.
      const texts = (event as CustomEvent<Array<Omit<Row, 'key' | 'id'> & { id?: string }>>).detail;
      changed.current = 'imported';
      setApplied(null);
      setRows(texts.slice(0, MAX_LINES - 1).map((line) => ({ ...line, key: nextKey.current++, id: line.id ?? '' })));
    };
    form.addEventListener('druckpreis:filament-lines', onImport);
    return () => form.removeEventListener('druckpreis:filament-lines', onImport);
  }, []);

  // After a line was added or removed: recalculate (the form listens to input events) and move the focus sensibly.
  useEffect(() => {
    const what = changed.current;
    if (!what || !root.current) return;
    changed.current = null;
    root.current.form?.dispatchEvent(new Event('input', { bubbles: true }));
    if (what === 'imported') return;
    const target =
      what === 'added'
        ? root.current.querySelector<HTMLInputElement>(`[name="filamentWeight${rows.length + 1}"]`)
        : root.current.querySelector<HTMLButtonElement>('[data-filament-add]');
    target?.focus();
  }, [rows]);

  function add(event: React.MouseEvent) {
    event.preventDefault();
    if (rows.length + 1 >= MAX_LINES) return;
    changed.current = 'added';
    setRows([...rows, { ...state.newLine, key: nextKey.current++, id: '' }]);
  }

  function remove(event: React.MouseEvent, index: number) {
    event.preventDefault();
    changed.current = 'removed';
    setApplied(null);
    setRows(rows.filter((_, i) => i !== index));
  }

  const field = (name: string, label: string, line: number | null, defaultValue: string, unit?: string, placeholder?: string) => {
    const error = errors[name];
    return (
      <div>
        <label htmlFor={`field-${name}`} className="mb-1 block text-sm font-medium text-ink">
          {label} {line === null ? null : <span className="sr-only">{t('forLine', { n: line })}</span>}
        </label>
        <div className="relative">
          <input
            id={`field-${name}`}
            name={name}
            type="text"
            inputMode={unit ? 'decimal' : undefined}
            autoComplete="off"
            placeholder={placeholder}
            defaultValue={defaultValue}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `field-${name}-error` : undefined}
            className={`${inputClass} ${unit ? 'pr-12' : ''} ${error ? 'border-danger-600' : 'border-surface-line'}`}
          />
          {unit ? <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-ink-faint">{unit}</span> : null}
        </div>
        {error ? (
          <p id={`field-${name}-error`} className="mt-1 text-sm text-danger-700" data-field-error={name}>
            {t(error)}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <fieldset ref={root} id="filamente" className="scroll-mt-4 space-y-4 border-t border-surface-line pt-4" data-filament-lines>
      <legend className="text-sm font-semibold">{t('title')}</legend>
      <p className="text-xs text-ink-faint">{t('intro')}</p>
      {field('filamentLabel', t('firstLabelField'), null, values.filamentLabel ?? '', undefined, t('labelPlaceholder'))}
      {rows.map((row, index) => {
        const line = index + 2;
        return (
          <div key={row.key} role="group" aria-labelledby={`filament-line-${row.key}`} className="rounded-md border border-surface-line p-3" data-filament-line={line}>
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h3 id={`filament-line-${row.key}`} className="text-sm font-semibold">
                {t('line', { n: line })}
              </h3>
              <button
                type="submit"
                name={ACTION}
                value={`entfernen-${line}`}
                formAction="/calculator#filamente"
                onClick={(event) => remove(event, index)}
                aria-label={t('removeLabel', { n: line })}
                className={`${buttonClass} border-surface-line text-danger-700 hover:bg-danger-50`}
              >
                {t('remove')}
              </button>
            </div>
            <div className="grid gap-3 sm:grid-cols-3">
              {field(`filamentLabel${line}`, t('labelField'), line, row.label, undefined, t('labelPlaceholder'))}
              {field(`filamentWeight${line}`, t('gramsField'), line, row.grams, 'g')}
              {field(`filamentPricePerKg${line}`, t('priceField'), line, row.pricePerKg, '€/kg')}
            </div>
            {filaments && filaments.length > 0 && picker
              ? picker({ line, filaments, selected: row.id, applied: applied?.line === line ? applied : null, onApplied: (next) => setApplied(next && { line, ...next }) })
              : null}
          </div>
        );
      })}
      {rows.length + 1 < MAX_LINES ? (
        <button type="submit" name={ACTION} value="hinzufuegen" formAction="/calculator#filamente" onClick={add} data-filament-add className={`${buttonClass} border-brand-600 text-brand-700 hover:bg-brand-50`}>
          <span aria-hidden="true">+</span>
          {t('add')}
        </button>
      ) : (
        <p className="text-xs text-ink-faint">{t('maxReached')}</p>
      )}
    </fieldset>
  );
}

type CostLinesProps = {
  lines: ReadonlyArray<{ grams: number; pricePerKg: number }> | undefined;
  values: CalculatorRawValues;
  /** Each line's library filament name, by line (index 0 = line 1); undefined = entered by hand. */
  libraryNames?: ReadonlyArray<string | undefined>;
};

/**
 * A line's name in the results and on the print sheet (issue 23): its library filament's name
 * (with the typed label in brackets when that says something else), else its label; '' = none.
 */
export function filamentLineNames(values: CalculatorRawValues, libraryNames: CostLinesProps['libraryNames']): string[] {
  return filamentLineTexts(values).map(({ label }, index) => {
    const name = libraryNames?.[index];
    const typed = label.trim();
    return name ? (typed && typed !== name ? `${name} (${typed})` : name) : typed;
  });
}

/**
 * Under 'Filament' in the cost overview: each line with its name (else 'Filament n'), grams
 * and cost, when there is more than one. `perKg`: the print sheet's inputs, € per kg instead of the cost.
 */
export function FilamentCostLines({
  lines,
  values,
  libraryNames,
  quantity = 1,
  failureRate = 0,
  perKg,
}: CostLinesProps & { quantity?: number; failureRate?: number; perKg?: boolean }) {
  const { t } = useTranslation('filament-lines');
  if (!lines || lines.length < 2) return null;
  const names = filamentLineNames(values, libraryNames);
  const costs = filamentLineCosts(lines, quantity, failureRate);
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-ink-faint">
      {lines.map((line, index) => (
        <li key={index} className="flex justify-between gap-2" {...{ [perKg ? 'data-print-filament-line' : 'data-filament-cost-line']: index + 1 }}>
          <span className="[overflow-wrap:anywhere]">{t('costLine', { name: names[index] || t('line', { n: index + 1 }), grams: formatDecimalInput(line.grams) })}</span>
          <span className="tabular-nums">{perKg ? `${formatEuro(line.pricePerKg)}/kg` : formatEuro(costs[index])}</span>
        </li>
      ))}
    </ul>
  );
}
