import { useTranslation } from 'react-i18next';
import { calculatorFieldNames, type CalculatorRawValues } from '~/calculator/fields';

/**
 * Only on paper: title, date and the inputs, above the result cards. With the
 * form hidden by the print stylesheet this makes a one-page cost sheet.
 */
export function PrintSheetHeader({ values }: { values: CalculatorRawValues }) {
  const { t } = useTranslation('calculator');
  // § 19 UStG: no VAT line; the result card prints the legal note instead of the switch.
  const skipped = new Set(['projectName', 'printTimeMinutes', 'smallBusiness', ...(values.smallBusiness ? ['vatPercent'] : [])]);
  const inputs = calculatorFieldNames.filter((name) => !skipped.has(name));
  return (
    <div className="print-only mb-4">
      <p className="text-sm text-ink-muted">{t('print.footer')}</p>
      <h1 className="text-2xl font-bold">
        {t('print.title')}: {values.projectName || t('print.untitled')}
      </h1>
      <p className="text-sm" suppressHydrationWarning>
        {t('print.date', { date: new Date().toLocaleDateString('de-DE') })}
      </p>
      <h2 className="mt-3 font-semibold">{t('print.inputs')}</h2>
      <dl className="mt-1 grid grid-cols-2 gap-x-6 text-xs">
        {inputs.map((name) => (
          <div key={name} className="flex justify-between border-b border-surface-line py-0.5">
            <dt>{t(name === 'printTimeHours' ? 'fields.printTime.label' : `fields.${name}.label`)}</dt>
            <dd>
              {name === 'printTimeHours'
                ? `${values.printTimeHours} h ${values.printTimeMinutes} min`
                : `${values[name]} ${t(`fields.${name}.unit`, { defaultValue: '' })}`}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
