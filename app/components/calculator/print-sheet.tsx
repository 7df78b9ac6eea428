import { useEffect, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { CalculatorEvaluation } from '~/calculator/evaluate';
import { calculatorPickers, type PickerState } from '~/calculator/pickers';
import { productImageUrl } from '~/domain/product-images';
import type { CalculatorFieldName, FieldView } from '~/calculator/fields';
import { formatDecimalInput, formatEuro, formatNumber } from '~/lib/number';

/**
 * Only on paper: seller, title, date and the inputs, above the result cards.
 * With the form hidden by the print stylesheet this makes a one-page cost
 * sheet. The inputs are the checked values the results were calculated from,
 * never the raw texts (no "NaN Stück"); invalid input prints no figures.
 */
export function PrintSheetHeader({
  fields,
  values,
  evaluation,
  sellerName,
  filamentRows,
  filamentLines = [],
  pickers = null,
  imagePath = '',
  submitted,
}: {
  fields: readonly FieldView[];
  values: { projectName: string };
  evaluation: CalculatorEvaluation;
  sellerName: string | null;
  /** Issue 23: with several filament lines, their list (filament-lines.tsx) stands in for line 1's weight and price. */
  filamentRows?: ReactNode;
  /** Every filament line's name (library filament or label, '' = none) and grams, for 'Verwendet'. */
  filamentLines?: ReadonlyArray<{ name: string; grams: number }>;
  /** Issue 24 §4: the library items chosen in the pickers are named on the sheet (signed-in users). */
  pickers?: PickerState | null;
  /** The product image's path in the form, printed when there is one. */
  imagePath?: string;
  /** The hidden fields of a refused save or a no-JS image upload: what was submitted, not the address's choice. */
  submitted?: Record<string, string>;
}) {
  const { t } = useTranslation('calculator');
  const picked = useUsedItems(pickers, imagePath, submitted);
  const used = { ...picked, items: withFilamentLines(picked.items, filamentLines) };
  const image = productImageUrl(used.imagePath);
  const input = evaluation.status === 'invalid' ? null : (evaluation.input as unknown as Record<string, number | boolean>);
  const unit = (name: string) => t(`fields.${name}.unit`, { defaultValue: '' });

  function format({ name, money }: FieldView): string | null {
    if (!input) return null;
    if (name === 'printTimeHours') {
      const totalMinutes = Math.round(input.printTime as number * 60);
      return t('print.printTime', { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60 });
    }
    const value = input[name];
    if (value === undefined) return null;
    if (typeof value === 'boolean') return t(value ? 'print.yes' : 'print.no');
    // Money with cents and its unit ("0,50 €", "25,00 €/kg"), other figures grouped ("3.000 h").
    const text = money ? formatEuro(value).replace('€', unit(name)) : `${formatNumber(value, 2)}\u00A0${unit(name)}`;
    return text.trim();
  }

  const severalLines = input !== null && evaluation.status !== 'invalid' && (evaluation.input.filaments?.length ?? 0) > 1;
  const rows = fields
    .filter(({ name }) => name !== 'projectName' && name !== 'printTimeMinutes')
    .filter(({ name }) => !(severalLines && (name === 'filamentWeight' || name === 'filamentPricePerKg')))
    // § 19 UStG: no VAT line; the result card prints the legal note instead of the switch.
    .filter(({ name }) => name !== 'smallBusiness' && !(name === 'vatPercent' && input?.smallBusiness))
    // The empty target price is "none", not a figure.
    .filter(({ name }) => !(name === 'targetPrice' && input && !input.targetPrice))
    .map((view) => ({ name: view.name as CalculatorFieldName, value: format(view) }))
    .flatMap((row) => (row.value === null ? [] : [{ name: row.name, value: row.value }]));

  return (
    <div className="print-only mb-4" data-print-sheet>
      {sellerName ? (
        <p className="text-base font-semibold" data-print-seller>
          {sellerName}
        </p>
      ) : null}
      <p className="text-sm text-ink-muted">{t('print.footer')}</p>
      <h1 className="text-2xl font-bold">
        {t('print.title', { name: values.projectName.trim() || t('print.untitled') })}
      </h1>
      <p className="text-sm" suppressHydrationWarning>
        {t('print.date', { date: new Date().toLocaleDateString('de-DE') })}
      </p>
      <UsedItems image={image} projectName={values.projectName} items={used.items} />
      <h2 className="mt-3 font-semibold">{t('print.inputs')}</h2>
      {rows.length > 0 ? (
        <dl className="mt-1 grid grid-cols-2 gap-x-6 text-xs">
          {rows.map(({ name, value }) => (
            <div key={name} className="flex justify-between gap-2 border-b border-surface-line py-0.5">
              <dt>{t(name === 'printTimeHours' ? 'fields.printTime.label' : `fields.${name}.label`)}</dt>
              <dd className="whitespace-nowrap tabular-nums" data-print-input={name}>
                {value}
              </dd>
            </div>
          ))}
          {severalLines ? (
            <div className="col-span-2 border-b border-surface-line py-0.5" data-print-filament-lines>
              <dt>{t('results.categories.filament')}</dt>
              <dd>{filamentRows}</dd>
            </div>
          ) : null}
        </dl>
      ) : (
        <p className="text-sm">{t('results.invalid')}</p>
      )}
    </div>
  );
}

type UsedItem = { picker: string; name: string; line?: number };

/**
 * With several filament lines (issue 23) 'Verwendet' names each line's filament (its library
 * name or label, and grams) instead of line 1's picker alone, when any line has a name.
 */
function withFilamentLines(items: UsedItem[], lines: ReadonlyArray<{ name: string; grams: number }>): UsedItem[] {
  if (lines.length < 2 || !lines.some(({ name }) => name !== '')) return items;
  const perLine = lines.map(({ name, grams }, index) => ({ picker: 'filament', line: index + 1, name: `${name ? `${name} · ` : ''}${formatDecimalInput(grams)}\u00A0g` }));
  // In the pickers' order: after the printer, where line 1's filament stood.
  const others = items.filter(({ picker }) => picker !== 'filament');
  const afterPrinter = others.findIndex(({ picker }) => picker !== 'printer');
  const cut = afterPrinter === -1 ? others.length : afterPrinter;
  return [...others.slice(0, cut), ...perLine, ...others.slice(cut)];
}

/**
 * What the sheet names: the chosen library items and the image. The server renders
 * the loader's choice; with scripts the form's current selects and image field are read
 * on every change and once more just before printing (`beforeprint`, committed at once),
 * so the paper shows what the seller sees.
 */
function useUsedItems(pickers: PickerState | null, imagePath: string, submitted: Record<string, string> | undefined): { items: UsedItem[]; imagePath: string } {
  const initial: Record<string, string> = { productImagePath: imagePath };
  if (pickers) for (const picker of calculatorPickers) initial[picker.param] = (submitted ? submitted[picker.param] : pickers.selected[picker.id]) ?? '';
  const [live, setLive] = useState<Record<string, string> | null>(null);
  useEffect(() => {
    const form = document.getElementById('calculator-form');
    if (!(form instanceof HTMLFormElement)) return;
    const read = () => {
      const data = new FormData(form);
      const names = ['productImagePath', ...calculatorPickers.map((picker) => picker.param)];
      setLive(Object.fromEntries(names.map((name) => [name, typeof data.get(name) === 'string' ? String(data.get(name)) : ''])));
    };
    const beforePrint = () => flushSync(read);
    form.addEventListener('change', read);
    window.addEventListener('beforeprint', beforePrint);
    // An uploaded or removed image changes a hidden input's value (its attribute), which fires no event.
    const observer = new MutationObserver(read);
    observer.observe(form, { subtree: true, attributes: true, attributeFilter: ['value'] });
    return () => {
      observer.disconnect();
      form.removeEventListener('change', read);
      window.removeEventListener('beforeprint', beforePrint);
    };
  }, []);
  const current = live ?? initial;
  const items = pickers
    ? calculatorPickers.flatMap((picker) => {
        const item = pickers.items[picker.id].find((candidate) => candidate.id === current[picker.param]);
        return item ? [{ picker: picker.id, name: item.name }] : [];
      })
    : [];
  return { items, imagePath: current.productImagePath ?? '' };
}

function UsedItems({ image, projectName, items }: { image: string | null; projectName: string; items: UsedItem[] }) {
  const { t } = useTranslation('project-tools');
  if (!image && items.length === 0) return null;
  return (
    <div className="mt-3 flex items-start gap-4" data-print-used>
      {image ? (
        <img src={image} alt={t('printSheet.imageAlt', { name: projectName.trim() || t('printSheet.untitled') })} className="h-28 w-28 shrink-0 rounded-md object-cover" data-print-image />
      ) : null}
      {items.length > 0 ? (
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold">{t('printSheet.used')}</h2>
          <dl className="mt-1 grid grid-cols-2 gap-x-6 text-xs">
            {items.map(({ picker, name, line }) => (
              <div key={line ? `${picker}-${line}` : picker} className="flex justify-between gap-2 border-b border-surface-line py-0.5">
                <dt>{line ? t('printSheet.filamentLine', { n: line }) : t(`printSheet.${picker}`)}</dt>
                {line ? (
                  <dd className="text-right break-words" data-print-used-filament-line={line}>
                    {name}
                  </dd>
                ) : (
                  <dd className="text-right break-words" data-print-used-item={picker}>
                    {name}
                  </dd>
                )}
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </div>
  );
}
