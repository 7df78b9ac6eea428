import { useTranslation } from 'react-i18next';
import type { FieldView } from '~/calculator/fields';

type Props = {
  view: FieldView;
  defaultValue: string;
  error?: string;
  /** Being typed in and not yet complete ("0,"): show how the number is written. */
  typing?: boolean;
  /** Arrow up/down: the page steps the value by the field table's step (loaded with the live chunk). */
  onStep?: (input: HTMLInputElement, direction: 1 | -1) => void;
  className?: string;
};

/**
 * One calculator input with label, unit and its German error message.
 * Numbers are `type="text" inputMode="decimal"`: a number input would drop a
 * typed "0,35" in browsers with an English locale, and the server parses both.
 */
export function CalculatorField({ view, defaultValue, error, typing = false, onStep, className }: Props) {
  const { t } = useTranslation('calculator');
  const { name, kind } = view;
  // Quick choices (VAT 19 % / 7 %): a native list, offered by the browser with or without scripts.
  const suggestions = view.suggestions;
  const id = `field-${name}`;
  const errorId = `${id}-error`;
  const ownHint = t(`fields.${name}.hint`, { defaultValue: '' });
  // While typing, the field's own hint and how such a number is written.
  const typingHint =
    typing && kind === 'number' ? t(view.integer ? 'typingHint.integer' : view.money ? 'typingHint.money' : 'typingHint.decimal') : '';
  const hint = [ownHint, typingHint].filter(Boolean).join(' · ');
  const unit = t(`fields.${name}.unit`, { defaultValue: '' });
  const describedBy = [error ? errorId : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;

  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (!onStep || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    onStep(event.currentTarget, event.key === 'ArrowUp' ? 1 : -1);
  }

  const hintElement = hint ? (
    <p id={`${id}-hint`} className="mt-1 text-xs text-ink-faint" data-field-hint={typing ? 'typing' : undefined}>
      {hint}
    </p>
  ) : null;
  const errorElement = error ? (
    <p id={errorId} className="mt-1 text-sm text-danger-700" data-field-error={name}>
      {t(error)}
    </p>
  ) : null;

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
        {hintElement}
        {errorElement}
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
          inputMode={kind === 'number' ? (view.integer ? 'numeric' : 'decimal') : undefined}
          autoComplete="off"
          placeholder={kind === 'text' ? t(`fields.${name}.placeholder`, { defaultValue: '' }) : undefined}
          defaultValue={defaultValue}
          onKeyDown={kind === 'number' ? onKeyDown : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
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
      {hintElement}
      {errorElement}
    </div>
  );
}
