import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { Eye, EyeOff } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '~/lib/messages';
import { useHydrated } from '~/lib/use-hydrated';
import { buttonClassName, type ButtonVariant } from './button-link';

/*
 * Form pieces for conform forms. Error messages are i18n keys (the zod
 * schemas and the actions speak keys, e.g. 'auth:errors.passwordMin'); they are
 * translated here, so the server render (no JS) and the browser show the same
 * German text next to the field.
 */

export const inputClassName =
  'block w-full rounded-md border border-surface-line bg-surface px-3 py-2 text-ink shadow-sm placeholder:text-ink-faint focus:border-brand-600 focus:outline-2 focus:outline-offset-0 focus:outline-brand-600 aria-[invalid=true]:border-danger-600';

/** The translated messages of a field or form, as a list the input points to. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors || errors.length === 0) return null;
  return (
    <ul id={id} className="mt-1.5 space-y-0.5 text-sm text-danger-700">
      {errors.map((error) => (
        <li key={error}>{translateMessage(t, error)}</li>
      ))}
    </ul>
  );
}

/** A form-level message box (e.g. wrong credentials); role="alert" so it is announced. */
export function FormAlert({ id, errors, title }: { id?: string; errors?: string[] | null; title?: string }) {
  const { t } = useTranslation();
  if (!errors || errors.length === 0) return null;
  return (
    <div id={id} role="alert" className="rounded-md border border-danger-600/40 bg-danger-50 px-3 py-2.5 text-sm text-danger-700">
      {title ? <p className="font-semibold">{title}</p> : null}
      {errors.map((error) => (
        <p key={error}>{translateMessage(t, error)}</p>
      ))}
    </div>
  );
}

type InputType = 'text' | 'email' | 'password';

type FieldProps = {
  label: string;
  meta: FieldMetadata<string | undefined>;
  type?: InputType;
  autoComplete?: string;
  placeholder?: string;
  hint?: ReactNode;
  className?: string;
};

/** Label, input and the field's German errors, wired up for screen readers. */
export function TextField({ label, meta, type = 'text', autoComplete, placeholder, hint, className }: FieldProps) {
  const { key, ...inputProps } = getInputProps(meta, { type, ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <FieldFrame label={label} meta={meta} hint={hint} className={className}>
      <input key={key} {...inputProps} autoComplete={autoComplete} placeholder={placeholder} className={inputClassName} />
    </FieldFrame>
  );
}

/** What every field shares around its input: label, hint and the error list. */
function FieldFrame({
  label,
  meta,
  hint,
  className,
  children,
}: Pick<FieldProps, 'label' | 'meta' | 'hint' | 'className'> & { children: React.ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={meta.id} className="mb-1.5 block text-sm font-medium text-ink">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${meta.id}-hint`} className="mt-1 text-xs text-ink-muted">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

/**
 * A password input with a show/hide toggle. The toggle needs JavaScript, so
 * without it only the (password-type) input is rendered.
 */
export function PasswordField({ label, meta, autoComplete, hint, className }: Omit<FieldProps, 'type' | 'placeholder'>) {
  const { t } = useTranslation('account');
  const hydrated = useHydrated();
  const [visible, setVisible] = useState(false);
  const { key, ...inputProps } = getInputProps(meta, { type: 'password', ariaDescribedBy: hint ? `${meta.id}-hint` : undefined });
  return (
    <FieldFrame label={label} meta={meta} hint={hint} className={className}>
      <div className="relative">
        <input
          key={key}
          {...inputProps}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          className={`${inputClassName} ${hydrated ? 'pr-11' : ''}`}
        />
        {hydrated ? (
          <button
            type="button"
            onClick={() => setVisible((value) => !value)}
            aria-controls={meta.id}
            aria-pressed={visible}
            className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-ink-muted hover:text-ink"
          >
            {visible ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
            <span className="sr-only">{t(visible ? 'fields.hidePassword' : 'fields.showPassword')}</span>
          </button>
        ) : null}
      </div>
    </FieldFrame>
  );
}

/** A submit button that shows its pending text ('Speichert...') while the form is on its way. */
export function SubmitButton({
  pending,
  pendingLabel,
  children,
  name,
  value,
  variant = 'primary',
  className,
  form,
}: {
  pending: boolean;
  pendingLabel: string;
  children: ReactNode;
  name?: string;
  value?: string;
  variant?: ButtonVariant;
  className?: string;
  form?: string;
}) {
  return (
    <button
      type="submit"
      name={name}
      value={value}
      form={form}
      disabled={pending}
      aria-disabled={pending}
      className={buttonClassName({ variant, className })}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
