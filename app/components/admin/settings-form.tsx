import { getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import type { SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ErrorList, FormAlert, SubmitButton, inputClassName } from '~/components/ui/field';
import { settingsSchemas, type SettingsTab } from '~/domain/admin-schemas';

/**
 * One settings tab of /admin: a Conform form posting to the page's action
 * (intent=save), so it works without JavaScript. Secret fields never carry
 * the stored value: they show whether one is stored, a blank field keeps it,
 * and a checkbox clears it. `children` go inside the form (the e-mail tab's
 * connection test posts the entered values).
 */
type FieldKind = 'text' | 'secret' | 'number' | 'checkbox' | 'textarea' | 'email' | 'url';
type FieldSpec = { name: string; kind: FieldKind; hint?: boolean; autoComplete?: string };

export const SETTINGS_FIELDS: Record<SettingsTab, FieldSpec[]> = {
  stripe: [
    { name: 'publicKey', kind: 'text' },
    { name: 'secretKey', kind: 'secret' },
    { name: 'productId', kind: 'text' },
    { name: 'priceId', kind: 'text' },
    { name: 'webhookSecret', kind: 'secret' },
    { name: 'currency', kind: 'text' },
    { name: 'monthlyPrice', kind: 'number', hint: true },
  ],
  'google-ads': [
    { name: 'clientId', kind: 'text' },
    { name: 'adSlotId', kind: 'text' },
    { name: 'enableAds', kind: 'checkbox' },
    { name: 'testMode', kind: 'checkbox' },
  ],
  email: [
    { name: 'host', kind: 'text' },
    { name: 'port', kind: 'number', hint: true },
    { name: 'secure', kind: 'checkbox' },
    { name: 'user', kind: 'text', autoComplete: 'off' },
    { name: 'password', kind: 'secret' },
    { name: 'fromEmail', kind: 'email' },
    { name: 'fromName', kind: 'text' },
    { name: 'verificationSubject', kind: 'text' },
    { name: 'verificationUrl', kind: 'url' },
  ],
  contact: [
    { name: 'contactEmail', kind: 'email', hint: true },
    { name: 'autoReplySubject', kind: 'text' },
    { name: 'autoReplyMessage', kind: 'textarea', hint: true },
    { name: 'enabled', kind: 'checkbox' },
  ],
  operator: [
    { name: 'name', kind: 'text' },
    { name: 'address', kind: 'textarea' },
    { name: 'phone', kind: 'text' },
    { name: 'email', kind: 'email' },
    { name: 'responsiblePerson', kind: 'text' },
    { name: 'register', kind: 'text' },
    { name: 'vatId', kind: 'text' },
  ],
};

const clearName = (field: string) => `clear${field[0].toUpperCase()}${field.slice(1)}`;

export function SettingsForm({
  tab,
  values,
  lastResult,
  children,
}: {
  tab: SettingsTab;
  values: Record<string, unknown>;
  lastResult?: SubmissionResult<string[]> | null;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('admin');
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'save';
  const schema = settingsSchemas[tab];
  const defaultValue: Record<string, string | boolean> = {};
  for (const field of SETTINGS_FIELDS[tab]) {
    const value = values[field.name];
    if (field.kind === 'secret') continue;
    if (field.kind === 'checkbox') defaultValue[field.name] = value === true ? 'on' : '';
    else defaultValue[field.name] = value === undefined || value === null ? '' : String(value);
  }
  const [form, fields] = useForm({
    id: `settings-${tab}`,
    lastResult: lastResult ?? undefined,
    defaultValue,
    constraint: getZodConstraint(schema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const all = fields as unknown as Record<string, FieldMetadata<string | undefined>>;

  return (
    <Form method="post" action={`/admin?tab=${tab}`} {...getFormProps(form)} className="space-y-5" data-settings-form={tab}>
      <input type="hidden" name="tab" value={tab} />
      <FormAlert id={form.errorId} errors={form.errors} title={t('saveFailedTitle')} />
      {tab === 'operator' ? <p className="text-sm text-ink-muted">{t('hints.operator')}</p> : null}
      <div className="grid gap-5 sm:grid-cols-2">
        {SETTINGS_FIELDS[tab].map((field) => (
          <SettingsField key={field.name} spec={field} meta={all[field.name]} values={values} />
        ))}
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <SubmitButton pending={pending} pendingLabel={t('saving')} name="intent" value="save">
          {t('save')}
        </SubmitButton>
      </div>
      {children}
    </Form>
  );
}

function SettingsField({ spec, meta, values }: { spec: FieldSpec; meta: FieldMetadata<string | undefined>; values: Record<string, unknown> }) {
  const { t } = useTranslation('admin');
  const label = t(`fields.${spec.name}`);
  const hintId = `${meta.id}-hint`;
  const wide = spec.kind === 'textarea' ? 'sm:col-span-2' : '';

  if (spec.kind === 'checkbox') {
    const { key, ...props } = getInputProps(meta, { type: 'checkbox' });
    return (
      <div className={`flex items-start gap-2 sm:col-span-2 ${wide}`}>
        <input key={key} {...props} className="mt-1 size-4 accent-brand-600" />
        <label htmlFor={meta.id} className="text-sm text-ink">
          {label}
        </label>
        <ErrorList id={meta.errorId} errors={meta.errors} />
      </div>
    );
  }

  let hint: string | null = spec.hint ? t(`hints.${spec.name}`) : null;
  let control: React.ReactNode;
  if (spec.kind === 'textarea') {
    const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hint ? hintId : undefined });
    control = <textarea key={key} {...props} rows={5} className={inputClassName} />;
  } else if (spec.kind === 'secret') {
    const set = values[`${spec.name}Set`] === true;
    const unreadable = values[`${spec.name}Unreadable`] === true;
    hint = unreadable ? t('secret.undecryptable') : set ? t('secret.set') : t('secret.notSet');
    const { key, ...props } = getInputProps(meta, { type: 'password', ariaDescribedBy: hintId, value: false });
    control = (
      <>
        <input key={key} {...props} defaultValue="" autoComplete="new-password" className={inputClassName} data-secret-set={set ? 'true' : 'false'} />
        {set ? (
          <label className="mt-1.5 flex items-center gap-2 text-sm text-ink">
            <input type="checkbox" name={clearName(spec.name)} className="size-4 accent-brand-600" />
            {t('secret.clear')}
          </label>
        ) : null}
      </>
    );
  } else {
    const type = spec.kind === 'number' ? 'number' : spec.kind === 'email' ? 'email' : spec.kind === 'url' ? 'url' : 'text';
    const { key, ...props } = getInputProps(meta, { type, ariaDescribedBy: hint ? hintId : undefined });
    control = <input key={key} {...props} autoComplete={spec.autoComplete} className={inputClassName} />;
  }
  return (
    <div className={wide}>
      <label htmlFor={meta.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      {control}
      {hint ? (
        <p id={hintId} className={`mt-1 text-xs ${values[`${spec.name}Unreadable`] === true ? 'text-danger-700' : 'text-ink-muted'}`}>
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
