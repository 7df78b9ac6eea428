import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalculatorRawValues } from '~/calculator/fields';
import type { FilamentLinesState } from '~/calculator/filament-line-actions';
import { filamentLineTexts } from '~/calculator/link';
import type { PickerItem } from '~/calculator/pickers';
import { filamentLineCosts } from '~/calculator/breakdown';
import { formatDecimalInput, formatEuro, formatMoney, formatMoneyInput, formatNumber } from '~/lib/number';
import { useHydrated } from '~/lib/use-hydrated';

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
}: {
  values: CalculatorRawValues;
  errors: Partial<Record<string, string>>;
  state: FilamentLinesState;
  /** The user's active library filaments; null for visitors (no pickers). */
  filaments: readonly PickerItem[] | null;
}) {
  const { t } = useTranslation(['filament-lines', 'calculator']);
  const hydrated = useHydrated();
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

  function choose(event: React.ChangeEvent<HTMLSelectElement>, line: number) {
    const item = filaments?.find((entry) => entry.id === event.currentTarget.value);
    const form = event.currentTarget.form;
    if (!item || !form) return setApplied(null);
    const price = formatMoneyInput(Number(item.pricePerKg));
    const input = form.elements.namedItem(`filamentPricePerKg${line}`);
    if (input instanceof HTMLInputElement) input.value = price;
    setApplied({ line, name: item.name, pricePerKg: Number(item.pricePerKg) });
    form.dispatchEvent(new Event('input', { bubbles: true }));
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
            {filaments && filaments.length > 0 ? (
              <div className="mt-3">
                <label htmlFor={`picker-filament-${line}`} className="mb-1 block text-sm font-medium">
                  {t('picker')} <span className="sr-only">{t('forLine', { n: line })}</span>
                </label>
                <div className="flex gap-2">
                  <select
                    id={`picker-filament-${line}`}
                    name={`selectedFilament${line}`}
                    defaultValue={row.id}
                    onChange={(event) => choose(event, line)}
                    className={`${inputClass} border-surface-line`}
                  >
                    <option value="">{t('manual')}</option>
                    {filaments.map((item) => (
                      <option key={item.id} value={item.id}>
                        {item.name}
                      </option>
                    ))}
                  </select>
                  {hydrated ? null : (
                    <button type="submit" name={ACTION} value={`uebernehmen-${line}`} formAction="/calculator#filamente" aria-label={t('applyLabel', { n: line })} className={`${buttonClass} shrink-0 border-brand-600 text-brand-700`}>
                      {t('apply')}
                    </button>
                  )}
                </div>
                {applied?.line === line ? (
                  <p role="status" className="mt-2 rounded-md border border-success-600/40 bg-success-50 px-3 py-2 text-sm" data-line-applied={line}>
                    <span className="block font-semibold text-success-600">{t('appliedTitle', { n: line })}</span>
                    {t('appliedText', { name: applied.name, price: formatMoney(applied.pricePerKg, '€/kg') })}
                  </p>
                ) : null}
              </div>
            ) : null}
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

/**
 * A line's name in the results and on the print sheet: its library filament's name (with
 * the typed label when that says something else), else the label, else null ('Filament n').
 */
export function filamentLineName(label: string | undefined, libraryName: string | undefined): string | null {
  const typed = label?.trim() || null;
  if (!libraryName) return typed;
  return typed && typed !== libraryName ? `${libraryName} (${typed})` : libraryName;
}

type CostLinesProps = {
  lines: ReadonlyArray<{ grams: number; pricePerKg: number }> | undefined;
  values: CalculatorRawValues;
  /** Each line's library filament name, by line (index 0 = line 1); undefined = entered by hand. */
  libraryNames?: ReadonlyArray<string | undefined>;
};

/**
 * Under 'Filament' in the cost overview and on the print sheet: each line with its
 * name (library filament or label, else 'Filament n'), grams and cost, when there is more than one.
 */
export function FilamentCostLines({ lines, values, libraryNames, quantity, failureRate }: CostLinesProps & { quantity: number; failureRate: number }) {
  const { t } = useTranslation('filament-lines');
  if (!lines || lines.length < 2) return null;
  const texts = filamentLineTexts(values);
  const costs = filamentLineCosts(lines, quantity, failureRate);
  return (
    <ul className="mt-1 space-y-0.5 text-xs text-ink-faint" data-filament-cost-lines>
      {lines.map((line, index) => (
        <li key={index} className="flex justify-between gap-2" data-filament-cost-line={index + 1}>
          <span className="[overflow-wrap:anywhere]">
            {t('costLine', { name: filamentLineName(texts[index]?.label, libraryNames?.[index]) ?? t('line', { n: index + 1 }), grams: formatDecimalInput(line.grams) })}
          </span>
          <span className="tabular-nums">{formatEuro(costs[index])}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The print sheet's inputs with several lines: one row per line ('Filament 2: PETG' —
 * grams and € per kg) instead of line 1's weight and price alone. Rows of the sheet's list.
 */
export function FilamentSheetRows({ lines, values, libraryNames }: CostLinesProps) {
  const { t } = useTranslation('filament-lines');
  if (!lines || lines.length < 2) return null;
  const texts = filamentLineTexts(values);
  return (
    <>
      {lines.map((line, index) => {
        const name = filamentLineName(texts[index]?.label, libraryNames?.[index]);
        return (
          <div key={index} className="flex justify-between gap-2 border-b border-surface-line py-0.5">
            <dt className="[overflow-wrap:anywhere]">{name ? t('sheetLineNamed', { n: index + 1, name }) : t('line', { n: index + 1 })}</dt>
            <dd className="whitespace-nowrap tabular-nums" data-print-filament-line={index + 1}>
              {t('sheetLineValue', { grams: formatNumber(line.grams, 2), price: formatEuro(line.pricePerKg) })}
            </dd>
          </div>
        );
      })}
    </>
  );
}
