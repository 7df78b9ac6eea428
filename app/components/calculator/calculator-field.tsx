import { useTranslation } from 'react-i18next';
import { parseDecimal, formatDecimalInput } from '~/utils/number';
import type { CalculatorFieldName } from '~/calculator/fields';

type Props = {
  name: CalculatorFieldName;
  defaultValue: string;
  error?: string;
  /** Arrow keys step by this much (the inputs are text so German commas work everywhere). */
  step?: number;
  min?: number;
  max?: number;
  integer?: boolean;
  kind?: 'number' | 'text';
  /** Label override key, e.g. for the hour/minute pair. */
  labelKey?: string;
  className?: string;
};

/**
 * One calculator input with label, unit and its German error message.
 * Numbers are `type="text" inputMode="decimal"`: a number input would drop a
 * typed "0,35" in browsers with an English locale, and the server parses both.
 */
export function CalculatorField({ name, defaultValue, error, step, min, max, integer, kind = 'number', labelKey, className }: Props) {
  const { t } = useTranslation('calculator');
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  const hintKey = `fields.${name}.hint`;
  const hint = t(hintKey, { defaultValue: '' });
  const unit = t(`fields.${name}.unit`, { defaultValue: '' });
  const describedBy = [error ? errorId : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (!step || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    const current = parseDecimal(event.currentTarget.value) ?? 0;
    let next = current + (event.key === 'ArrowUp' ? step : -step);
    next = Math.round(next * 1e6) / 1e6;
    if (min !== undefined) next = Math.max(min, next);
    if (max !== undefined) next = Math.min(max, next);
    event.preventDefault();
    event.currentTarget.value = formatDecimalInput(next);
    // Let the form's change handler see the new value like a typed one.
    event.currentTarget.dispatchEvent(new Event('input', { bubbles: true }));
  }

  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-ink">
        {t(labelKey ?? `fields.${name}.label`)}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type="text"
          inputMode={kind === 'number' ? (integer ? 'numeric' : 'decimal') : undefined}
          autoComplete="off"
          placeholder={kind === 'text' ? t(`fields.${name}.placeholder`, { defaultValue: '' }) : undefined}
          defaultValue={defaultValue}
          onKeyDown={kind === 'number' ? onKeyDown : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-step={step}
          className={`block w-full rounded-md border bg-surface px-3 py-2 text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 ${
            unit ? 'pr-14' : ''
          } ${error ? 'border-danger-600' : 'border-surface-line'}`}
        />
        {unit ? (
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-ink-faint">
            {unit}
          </span>
        ) : null}
      </div>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-ink-faint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-danger-700" data-field-error={name}>
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}
