import { useTranslation } from 'react-i18next';
import { calculatorFields, MAX_NUMBER, type CalculatorFieldName, type FieldSpec } from '~/calculator/fields';
import { parseDecimal, formatDecimalInput } from '~/utils/number';

type Props = {
  name: CalculatorFieldName;
  defaultValue: string;
  error?: string;
  className?: string;
};

/**
 * One calculator input with label, unit and its German error message.
 * Numbers are `type="text" inputMode="decimal"`: a number input would drop a
 * typed "0,35" in browsers with an English locale, and the server parses both.
 */
export function CalculatorField({ name, defaultValue, error, className }: Props) {
  const { t } = useTranslation('calculator');
  // Bounds, step and kind come from the field table; the arrow keys respect the schema's bounds.
  const spec = calculatorFields[name] as FieldSpec;
  const kind = spec.kind;
  const step = spec.kind === 'number' ? spec.step : undefined;
  const min = spec.kind === 'number' ? spec.min : undefined;
  const max = spec.kind === 'number' ? (spec.max ?? MAX_NUMBER) : undefined;
  const integer = spec.kind === 'number' && spec.integer;
  // Quick choices (VAT 19 % / 7 %): a native list, offered by the browser with or without scripts.
  const suggestions = spec.kind === 'number' ? spec.suggestions : undefined;
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

  if (kind === 'boolean') {
    return (
      <div className={className}>
        <label htmlFor={id} className="flex items-start gap-2 text-sm font-medium text-ink">
          <input
            id={id}
            name={name}
            type="checkbox"
            defaultChecked={defaultValue !== ''}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className="mt-0.5 h-4 w-4 rounded border-surface-line accent-brand-600"
          />
          <span>{t(`fields.${name}.label`)}</span>
        </label>
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

  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-ink">
        {t(`fields.${name}.label`)}
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
          list={suggestions ? `${id}-choices` : undefined}
          className={`block w-full rounded-md border bg-surface px-3 py-2 text-ink shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200 ${
            unit ? 'pr-14' : ''
          } ${error ? 'border-danger-600' : 'border-surface-line'}`}
        />
        {suggestions ? (
          <datalist id={`${id}-choices`}>
            {suggestions.map((value) => (
              <option key={value} value={value} />
            ))}
          </datalist>
        ) : null}
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
