import { getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4';
import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionStatus } from '~/components/section-status';
import { buttonClassName } from '~/components/ui/button-link';
import { BUSINESS_LOGO_MAX_BYTES } from '~/domain/limits';
import { ErrorList, FormAlert, SubmitButton, TextField, inputClassName } from '~/components/ui/field';
import { businessDetailsSchema } from '~/domain/quotes';

export const BUSINESS_DETAILS_INTENT = 'saveBusinessDetails';

type FormShape = Record<'businessName' | 'address' | 'email' | 'phone' | 'taxId' | 'smallBusiness' | 'bankDetails' | 'validityDays' | 'closingText', string>;

export type BusinessDetailsValues = {
  businessName: string;
  address: string;
  email: string;
  phone: string | null;
  taxId: string | null;
  smallBusiness: boolean;
  bankDetails: string | null;
  validityDays: number;
  closingText: string;
};

/**
 * 'Geschäftsdaten' on /profile (issue 26 §1): what quotes print as the seller.
 * Its own intent on the profile action; works without JavaScript (the answer
 * opens at #geschaeftsdaten, where its errors are).
 */
export function BusinessDetailsCard({
  details,
  lastResult,
  logo = null,
  logoError = null,
}: {
  details: BusinessDetailsValues | null;
  lastResult?: SubmissionResult<string[]>;
  /** The current logo's address (/images/logo/…), or null. */
  logo?: string | null;
  /** The refused upload's German message (the server's answer without scripts). */
  logoError?: string | null;
}) {
  const { t } = useTranslation('quotes');
  const navigation = useNavigation();
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === BUSINESS_DETAILS_INTENT;
  const [form, fields] = useForm<FormShape>({
    id: 'business-details',
    lastResult,
    defaultValue: details
      ? {
          ...details,
          phone: details.phone ?? '',
          taxId: details.taxId ?? '',
          bankDetails: details.bankDetails ?? '',
          validityDays: String(details.validityDays),
          smallBusiness: details.smallBusiness ? 'on' : '',
        }
      : { validityDays: '14' },
    constraint: getZodConstraint(businessDetailsSchema),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: businessDetailsSchema }) as never,
  });
  return (
    <section id="geschaeftsdaten" aria-labelledby="business-details-title" className="rounded-card border border-surface-line bg-surface p-5 shadow-card sm:p-6">
      <h2 id="business-details-title" className="text-lg font-semibold text-ink">
        {t('business.title')}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{t('business.intro')}</p>
      <SectionStatus section="geschaeftsdaten" className="mt-4" />
      <div className="mt-4">
        <FormAlert id={form.errorId} errors={form.errors} title={t('business.error')} />
      </div>
      <Form method="post" action="/profile#geschaeftsdaten" {...getFormProps(form)} className="mt-4 space-y-4">
        <input type="hidden" name="intent" value={BUSINESS_DETAILS_INTENT} />
        <TextField label={t('business.businessName')} meta={fields.businessName} autoComplete="organization" />
        <TextArea label={t('business.address')} meta={fields.address} rows={3} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('business.email')} meta={fields.email} type="email" autoComplete="email" hint={t('business.emailHint')} />
          <TextField label={t('business.phone')} meta={fields.phone} autoComplete="tel" />
        </div>
        <TextField label={t('business.taxId')} meta={fields.taxId} />
        <div>
          <label className="flex items-start gap-2 text-sm text-ink">
            <input {...getInputProps(fields.smallBusiness, { type: 'checkbox' })} key={fields.smallBusiness.key} className="mt-0.5 size-4 accent-brand-600" />
            <span>
              <span className="font-medium">{t('business.smallBusiness')}</span>
              <span className="block text-xs text-ink-muted">{t('business.smallBusinessHint')}</span>
            </span>
          </label>
        </div>
        <TextArea label={t('business.bankDetails')} meta={fields.bankDetails} rows={2} />
        <TextField label={t('business.validityDays')} meta={fields.validityDays} hint={t('business.validityDaysHint')} />
        <TextArea label={t('business.closingText')} meta={fields.closingText} rows={3} />
        <div className="flex justify-end">
          <SubmitButton pending={pending} pendingLabel={t('business.savePending')}>
            {t('business.save')}
          </SubmitButton>
        </div>
      </Form>
      <LogoForms hasDetails={details !== null} logo={logo} serverError={logoError} />
    </section>
  );
}

/**
 * The logo (optional): its own multipart form, posted to /profile?logo so the server knows the form even when it
 * refuses the file unread; removal is a plain form. Both work without scripts; with them a too large file is
 * refused before it is sent.
 */
function LogoForms({ hasDetails, logo, serverError }: { hasDetails: boolean; logo: string | null; serverError: string | null }) {
  const { t } = useTranslation('quotes');
  const navigation = useNavigation();
  const [clientError, setClientError] = useState<string | null>(null);
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'uploadLogo';
  const error = clientError ?? serverError;
  return (
    <div id="geschaeftsdaten-logo" className="mt-6 border-t border-surface-line pt-4">
      <h3 className="text-base font-semibold text-ink">{t('logo.title')}</h3>
      <p id="logo-hint" className="mt-1 text-sm text-ink-muted">
        {t('logo.hint')}
      </p>
      {error ? (
        <p id="logo-error" role="alert" className="mt-2 rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2 text-sm text-danger-700">
          {error}
        </p>
      ) : null}
      {logo ? (
        <img src={logo} alt={t('logo.current')} className="mt-3 max-h-20 max-w-48 rounded border border-surface-line bg-white object-contain p-1" data-business-logo />
      ) : null}
      {hasDetails ? (
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <Form
            method="post"
            action="/profile?logo#geschaeftsdaten"
            encType="multipart/form-data"
            className="flex flex-wrap items-end gap-2"
            onChange={() => setClientError(null)}
            onSubmit={(event) => {
              const file = new FormData(event.currentTarget).get('image');
              if (file instanceof File && file.size > BUSINESS_LOGO_MAX_BYTES) {
                event.preventDefault();
                setClientError(t('logo.tooLarge'));
              }
            }}
          >
            <input type="hidden" name="intent" value="uploadLogo" />
            <div className="min-w-0">
              <label htmlFor="business-logo" className="mb-1.5 block text-sm font-medium text-ink">
                {logo ? t('logo.replace') : t('logo.choose')}
              </label>
              <input
                id="business-logo"
                name="image"
                type="file"
                accept="image/jpeg,image/png"
                required
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? 'logo-error logo-hint' : 'logo-hint'}
                className="block w-full max-w-full text-sm text-ink file:mr-3 file:rounded-md file:border file:border-surface-line file:bg-surface-subtle file:px-3 file:py-1.5 file:text-sm file:font-medium"
              />
            </div>
            <button type="submit" disabled={pending} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
              {pending ? t('logo.uploadPending') : t('logo.upload')}
            </button>
          </Form>
          {logo ? (
            <Form method="post" action="/profile#geschaeftsdaten">
              <input type="hidden" name="intent" value="removeLogo" />
              <button type="submit" className={buttonClassName({ variant: 'ghost', size: 'sm', className: 'text-danger-700' })}>
                {t('logo.remove')}
              </button>
            </Form>
          ) : null}
        </div>
      ) : (
        <p className="mt-2 text-sm text-ink-muted">{t('logo.detailsFirst')}</p>
      )}
    </div>
  );
}

export function TextArea({ label, meta, rows = 3 }: { label: string; meta: FieldMetadata<string>; rows?: number }) {
  const { key, ...props } = getTextareaProps(meta);
  return (
    <div>
      <label htmlFor={meta.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      <textarea key={key} {...props} rows={rows} className={inputClassName} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}
