import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalculatorEvaluation } from '~/calculator/evaluate';
import type { CalculatorFieldName, FieldView } from '~/calculator/fields';
import { formatEuro, formatNumber } from '~/lib/number';

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
  usedItems = null,
}: {
  fields: readonly FieldView[];
  values: { projectName: string };
  evaluation: CalculatorEvaluation;
  sellerName: string | null;
  /** Issue 23: with several filament lines, their list (filament-lines.tsx) stands in for line 1's weight and price. */
  filamentRows?: ReactNode;
  /**
   * Issue 24 §4: the product image and the library items chosen in the pickers
   * (./print-sheet-used.tsx). Signed-in users only, so it comes with their lazily
   * loaded parts and is never part of a visitor's first visit (issue 21).
   */
  usedItems?: ReactNode;
}) {
  const { t } = useTranslation('calculator');
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
      {usedItems}
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
