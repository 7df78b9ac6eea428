import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalculatorFieldName, CalculatorRawValues, CalculatorSection, FieldView } from '~/calculator/fields';
import { Card } from '../ui/card';
import { CalculatorField } from './calculator-field';

type FieldSectionProps = {
  section: CalculatorSection;
  /** The field table's view of the visible fields, in form order (from the loader). */
  fields: readonly FieldView[];
  /** The texts the inputs start with; the inputs are uncontrolled, so these never change after mount. */
  values: CalculatorRawValues;
  errors: Partial<Record<CalculatorFieldName, string>>;
  /** The field being typed in while its text is still incomplete: it shows its hint, not an error. */
  typing?: CalculatorFieldName | null;
  onStep?: (input: HTMLInputElement, direction: 1 | -1) => void;
  /** Shown above / below the inputs (pickers, image upload). */
  before?: ReactNode;
  after?: ReactNode;
};

const inSection = (fields: readonly FieldView[], section: CalculatorSection, name: string | null | undefined) =>
  !!name && fields.some((field) => field.name === name && field.section === section);

/**
 * A keystroke re-renders the results, not the twenty inputs: a section renders
 * again only when one of its own error messages or its typing state changes.
 * `before`/`after` depend only on who is signed in and `onStep` is stable; a
 * navigation remounts the form anyway.
 */
function sameSectionProps(a: FieldSectionProps, b: FieldSectionProps): boolean {
  if (a.values !== b.values || a.section !== b.section || a.fields !== b.fields) return false;
  if (a.typing !== b.typing && (inSection(a.fields, a.section, a.typing) || inSection(b.fields, b.section, b.typing))) return false;
  const names = new Set([...Object.keys(a.errors), ...Object.keys(b.errors)]) as Set<CalculatorFieldName>;
  for (const name of names) if (a.errors[name] !== b.errors[name]) return false;
  return true;
}

// Layout only; which field sits in which card, in which order, is the field table's.
const SECTION_COLUMNS: Record<CalculatorSection, string> = {
  basics: 'sm:grid-cols-2',
  pricing: 'sm:grid-cols-2',
  printerFilament: 'sm:grid-cols-2',
  packagingShipping: 'sm:grid-cols-2',
  marketplace: 'sm:grid-cols-2',
  labor: 'sm:grid-cols-3',
};

/** One card of the form: the table's fields of `section`, grouped fields in one fieldset. */
export const FieldSection = memo(function FieldSection({ section, fields, values, errors, typing, onStep, before, after }: FieldSectionProps) {
  const { t } = useTranslation('calculator');
  const input = (view: FieldView, className?: string) => (
    <CalculatorField
      key={view.name}
      view={view}
      defaultValue={values[view.name]}
      error={errors[view.name]}
      typing={typing === view.name}
      onStep={onStep}
      className={className}
    />
  );
  const items: ReactNode[] = [];
  const views = fields.filter((view) => view.section === section);
  for (let i = 0; i < views.length; i++) {
    const group = views[i].group;
    if (!group) {
      items.push(input(views[i], views[i].wide ? 'sm:col-span-full' : undefined));
      continue;
    }
    const members: FieldView[] = [];
    while (i < views.length && views[i].group === group) members.push(views[i++]);
    i--;
    items.push(
      <fieldset key={group} className="sm:col-span-full">
        <legend className="mb-1 text-sm font-medium">{t(`fields.${group}.label`)}</legend>
        <div className="grid grid-cols-2 gap-4">{members.map((member) => input(member))}</div>
      </fieldset>,
    );
  }
  return (
    <Card title={t(`sections.${section}`)} titleId={`section-${section.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}>
      {before ? <div className="mb-4">{before}</div> : null}
      <div className={`grid gap-4 ${SECTION_COLUMNS[section]}`}>{items}</div>
      {after ? <div className="mt-4">{after}</div> : null}
    </Card>
  );
}, sameSectionProps);
