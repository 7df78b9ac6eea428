import { memo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  calculatorFields,
  fieldsOfSection,
  type CalculatorFieldName,
  type CalculatorRawValues,
  type CalculatorSection,
} from '~/calculator/fields';
import { Card } from '../ui/card';
import { CalculatorField } from './calculator-field';

type SectionProps = {
  /** The texts the inputs start with; the inputs are uncontrolled, so these never change after mount. */
  values: CalculatorRawValues;
  errors: Partial<Record<CalculatorFieldName, string>>;
};

/**
 * A keystroke re-renders the results, not the twenty inputs: a section renders
 * again only when one of its own error messages changes.
 */
function sameSectionProps(a: FieldSectionProps, b: FieldSectionProps): boolean {
  // `before`/`after` depend only on who is signed in, which a navigation (a remount) changes.
  if (a.values !== b.values || a.section !== b.section) return false;
  const names = new Set([...Object.keys(a.errors), ...Object.keys(b.errors)]) as Set<CalculatorFieldName>;
  for (const name of names) if (a.errors[name] !== b.errors[name]) return false;
  return true;
}

// Layout only; which field sits in which card, in which order, is the field table's.
const SECTION_COLUMNS: Record<CalculatorSection, string> = {
  basics: 'sm:grid-cols-2',
  pricing: 'sm:grid-cols-3',
  printerFilament: 'sm:grid-cols-2',
  packagingShipping: 'sm:grid-cols-2',
  marketplace: 'sm:grid-cols-2',
  labor: 'sm:grid-cols-3',
};

type FieldSectionProps = SectionProps & {
  section: CalculatorSection;
  /** Shown above / below the inputs (pickers, image upload). */
  before?: ReactNode;
  after?: ReactNode;
};

/** One card of the form: the table's fields of `section`, grouped fields in one fieldset. */
export const FieldSection = memo(function FieldSection({ section, values, errors, before, after }: FieldSectionProps) {
  const { t } = useTranslation('calculator');
  const items: ReactNode[] = [];
  const names = fieldsOfSection(section);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const spec = calculatorFields[name] as { group?: string; wide?: boolean };
    if (spec.group) {
      const group = spec.group;
      const members: CalculatorFieldName[] = [];
      while (i < names.length && (calculatorFields[names[i]] as { group?: string }).group === group) members.push(names[i++]);
      i--;
      items.push(
        <fieldset key={group} className="sm:col-span-full">
          <legend className="mb-1 text-sm font-medium">{t(`fields.${group}.label`)}</legend>
          <div className="grid grid-cols-2 gap-4">
            {members.map((member) => (
              <CalculatorField key={member} name={member} defaultValue={values[member]} error={errors[member]} />
            ))}
          </div>
        </fieldset>,
      );
    } else {
      items.push(
        <CalculatorField
          key={name}
          name={name}
          defaultValue={values[name]}
          error={errors[name]}
          className={spec.wide ? 'sm:col-span-full' : undefined}
        />,
      );
    }
  }
  return (
    <Card title={t(`sections.${section}`)} titleId={`section-${section.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`}>
      {before ? <div className="mb-4">{before}</div> : null}
      <div className={`grid gap-4 ${SECTION_COLUMNS[section]}`}>{items}</div>
      {after ? <div className="mt-4">{after}</div> : null}
    </Card>
  );
}, sameSectionProps);
