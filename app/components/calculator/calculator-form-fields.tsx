import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalculatorFieldName, CalculatorRawValues } from '~/calculator/fields';
import { Card } from '../ui/card';
import { CalculatorField } from './calculator-field';
import { SignInPrompt } from './sign-in-prompt';
import { SlicerImport, type SlicerNoticeView } from './slicer-import';

type SectionProps = {
  /** The texts the inputs start with; the inputs are uncontrolled, so these never change after mount. */
  values: CalculatorRawValues;
  errors: Partial<Record<CalculatorFieldName, string>>;
};

/**
 * A keystroke re-renders the results, not the twenty inputs: a section renders
 * again only when one of its own error messages changes.
 */
function sameSectionProps(a: SectionProps, b: SectionProps): boolean {
  if (a.values !== b.values) return false;
  const names = new Set([...Object.keys(a.errors), ...Object.keys(b.errors)]) as Set<CalculatorFieldName>;
  for (const name of names) if (a.errors[name] !== b.errors[name]) return false;
  return true;
}

// Steps from spec §5 ("Input steps"); bounds mirror the schema for the arrow keys.
const field = (name: CalculatorFieldName, { values, errors }: SectionProps, extra: Partial<React.ComponentProps<typeof CalculatorField>> = {}) => (
  <CalculatorField key={name} name={name} defaultValue={values[name]} error={errors[name]} {...extra} />
);

export const BasicsSection = memo(function BasicsSection(props: SectionProps & { slicerNotice: SlicerNoticeView | null }) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('sections.basics')} titleId="section-basics">
      <div className="grid gap-4 sm:grid-cols-2">
        {field('projectName', props, { kind: 'text', className: 'sm:col-span-2' })}
        {field('quantity', props, { step: 1, min: 1, integer: true })}
        {field('filamentWeight', props, { step: 0.1, min: 0.1 })}
        <fieldset className="sm:col-span-2">
          <legend className="mb-1 text-sm font-medium">{t('fields.printTime.label')}</legend>
          <div className="grid grid-cols-2 gap-4">
            {field('printTimeHours', props, { step: 1, min: 0, max: 99, integer: true })}
            {field('printTimeMinutes', props, { step: 1, min: 0, max: 59, integer: true })}
          </div>
        </fieldset>
        <SlicerImport initial={props.slicerNotice} />
        <div className="sm:col-span-2">
          <SignInPrompt messageKey="signIn.imageUpload" />
        </div>
      </div>
    </Card>
  );
}, (a, b) => a.slicerNotice === b.slicerNotice && sameSectionProps(a, b));

export const PricingSection = memo(function PricingSection(props: SectionProps) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('sections.pricing')} titleId="section-pricing">
      <div className="grid gap-4 sm:grid-cols-3">
        {field('profitMargin', props, { step: 1, min: 0, max: 200 })}
        {field('vatPercent', props, { step: 1, min: 0, max: 100 })}
        {field('targetPrice', props, { step: 0.01, min: 0 })}
      </div>
    </Card>
  );
}, sameSectionProps);

export const PrinterFilamentSection = memo(function PrinterFilamentSection(props: SectionProps) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('sections.printerFilament')} titleId="section-printer-filament">
      <SignInPrompt messageKey="signIn.pickers" />
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {field('filamentPricePerKg', props, { step: 0.1, min: 0.01 })}
        {field('printerWattage', props, { step: 1, min: 1 })}
        {field('electricityRate', props, { step: 0.01, min: 0.01 })}
        {field('printerCost', props, { step: 10, min: 0 })}
        {field('printerLifetimeHours', props, { step: 100, min: 1 })}
      </div>
    </Card>
  );
}, sameSectionProps);

export const PackagingShippingSection = memo(function PackagingShippingSection(props: SectionProps) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('sections.packagingShipping')} titleId="section-packaging-shipping">
      <div className="grid gap-4 sm:grid-cols-2">
        {field('packagingCost', props, { step: 0.01, min: 0 })}
        {field('shippingCost', props, { step: 0.01, min: 0 })}
      </div>
    </Card>
  );
}, sameSectionProps);

export const MarketplaceSection = memo(function MarketplaceSection(props: SectionProps) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('sections.marketplace')} titleId="section-marketplace">
      <div className="grid gap-4 sm:grid-cols-2">
        {field('marketplaceFeePercent', props, { step: 0.1, min: 0, max: 100 })}
        {field('marketplaceFeeFixed', props, { step: 0.01, min: 0 })}
      </div>
    </Card>
  );
}, sameSectionProps);

export const LaborSection = memo(function LaborSection(props: SectionProps) {
  const { t } = useTranslation('calculator');
  return (
    <Card title={t('sections.labor')} titleId="section-labor">
      <div className="grid gap-4 sm:grid-cols-3">
        {field('preparationTime', props, { step: 1, min: 0 })}
        {field('postProcessingTime', props, { step: 1, min: 0 })}
        {field('hourlyRate', props, { step: 0.5, min: 0.01 })}
      </div>
    </Card>
  );
}, sameSectionProps);
