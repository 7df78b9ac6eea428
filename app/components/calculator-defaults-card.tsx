import { getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SectionStatus } from '~/components/section-status';
import { ErrorList, FormAlert, SubmitButton, TextField, inputClassName } from '~/components/ui/field';
import { CALCULATOR_DEFAULTS_INTENT, calculatorDefaultsSchema, DEFAULT_ITEM_FIELDS, type DefaultItemField } from '~/domain/calculator-defaults';

export const CALCULATOR_DEFAULTS_ANCHOR = 'standardwerte';

type FormShape = Record<'hourlyRate' | 'profitMargin' | 'vatPercent' | 'failureRate' | 'smallBusiness' | DefaultItemField, string>;

/**
 * 'Meine Standardwerte' on /profile (issue 24 §4): the values a new calculation starts
 * from. Its own intent on the profile action; without JavaScript the answer opens at
 * #standardwerte, where the German messages stand next to their fields.
 */
export function CalculatorDefaultsCard({
  values,
  options,
  lastResult,
}: {
  values: Record<string, string>;
  options: Record<DefaultItemField, Array<{ id: string; name: string }>>;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation(['project-tools', 'calculator']);
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === CALCULATOR_DEFAULTS_INTENT;
  const [form, fields] = useForm<FormShape>({
    id: 'calculator-defaults',
    lastResult,
    defaultValue: values,
    constraint: getZodConstraint(calculatorDefaultsSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: calculatorDefaultsSchema }) as never,
  });
  const number = (name: 'hourlyRate' | 'profitMargin' | 'vatPercent' | 'failureRate') => (
    <TextField
      label={`${t(`calculator:fields.${name}.label`)} (${t(`calculator:fields.${name}.unit`)})`}
      meta={fields[name]}
      placeholder={t(`defaults.placeholder.${name}`)}
      hint={t('defaults.emptyHint')}
    />
  );
  return (
    <section id={CALCULATOR_DEFAULTS_ANCHOR} aria-labelledby="calculator-defaults-title" className="scroll-mt-4 rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="calculator-defaults-title" className="text-lg font-semibold text-ink">
        {t('defaults.title')}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t('defaults.intro')}</p>
      <SectionStatus section={CALCULATOR_DEFAULTS_ANCHOR} className="mt-4" />
      <div className="mt-4">
        <FormAlert id={form.errorId} errors={form.errors} title={t('defaults.error')} />
      </div>
      <Form method="post" action={`/profile#${CALCULATOR_DEFAULTS_ANCHOR}`} {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value={CALCULATOR_DEFAULTS_INTENT} />
        <div className="grid gap-4 sm:grid-cols-2">
          {number('hourlyRate')}
          {number('profitMargin')}
          {number('vatPercent')}
          {number('failureRate')}
        </div>
        <label className="flex items-start gap-2 text-sm text-ink">
          <input {...getInputProps(fields.smallBusiness, { type: 'checkbox' })} key={fields.smallBusiness.key} className="mt-0.5 size-4 accent-brand-600" />
          <span className="font-medium">{t('calculator:fields.smallBusiness.label')}</span>
        </label>
        <div className="grid gap-4 sm:grid-cols-2">
          {(Object.entries(DEFAULT_ITEM_FIELDS) as Array<[string, DefaultItemField]>).map(([picker, name]) => (
            <ItemSelect key={name} label={t(`defaults.items.${picker}`)} meta={fields[name]} options={options[name]} />
          ))}
        </div>
        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel={t('defaults.savePending')}>
            {t('defaults.save')}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function ItemSelect({ label, meta, options }: { label: string; meta: FieldMetadata<string>; options: Array<{ id: string; name: string }> }) {
  const { t } = useTranslation('project-tools');
  const { key, ...props } = getSelectProps(meta);
  return (
    <div className="min-w-0">
      <label htmlFor={meta.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <select key={key} {...props} className={`${inputClassName} min-w-0`}>
        <option value="">{t('defaults.noItem')}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
