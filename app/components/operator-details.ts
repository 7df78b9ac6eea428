import type { LegalBlock, LegalSection } from '~/components/legal-page';

/** The operator as the legal pages show it (see app/models/operator.server.ts); browser-safe. */
export type OperatorDetails = {
  name: string;
  addressLines: string[];
  phone: string;
  email: string;
  responsiblePerson: string;
  register: string;
  vatId: string;
};

type T = (key: string, options?: Record<string, unknown>) => string;

/** Markdown-ish link text for the legal blocks (`[label](href)`), with brackets in the label escaped away. */
const link = (label: string, href: string) => `[${label.replace(/[[\]]/g, '')}](${href})`;

/**
 * The legal texts with the operator's details in place of the sections that
 * name them (Impressum: 'angaben', 'kontakt'; Datenschutz: 'verantwortlicher'),
 * or a clear notice that they are missing.
 */
export function withOperator(sections: LegalSection[], given: OperatorDetails | null, t: T): LegalSection[] {
  // The blocks turn `[label](href)` into links: an operator's text never may.
  const clean = (value: string) => value.replace(/[[\]()]/g, (char) => ({ '[': '(', ']': ')' })[char] ?? char);
  const operator: OperatorDetails | null = given && {
    name: clean(given.name),
    addressLines: given.addressLines.map(clean),
    phone: clean(given.phone),
    email: clean(given.email),
    responsiblePerson: clean(given.responsiblePerson),
    register: clean(given.register),
    vatId: clean(given.vatId),
  };
  const missing: LegalBlock[] = [t('admin:legal.missing')];
  return sections.map((section) => {
    switch (section.id) {
      case 'angaben': {
        if (!operator) return { ...section, content: missing };
        const content: LegalBlock[] = [{ lines: [operator.name, ...operator.addressLines] }];
        if (operator.responsiblePerson) content.push(t('admin:legal.responsible', { name: operator.responsiblePerson }));
        if (operator.register) content.push(t('admin:legal.register', { register: operator.register }));
        if (operator.vatId) content.push(t('admin:legal.vatId', { vatId: operator.vatId }));
        return { ...section, content };
      }
      case 'kontakt': {
        if (!operator) return { ...section, content: [...missing, ...section.content.slice(-1)] };
        const lines = [`${t('admin:legal.email')}: ${link(operator.email, `mailto:${operator.email}`)}`];
        if (operator.phone) lines.push(`${t('admin:legal.phone')}: ${link(operator.phone, `tel:${operator.phone.replace(/[^+\d]/g, '')}`)}`);
        return { ...section, content: [{ lines }, ...section.content.slice(-1)] };
      }
      case 'verantwortlicher': {
        const [intro, , ...rest] = section.content;
        if (!operator) return { ...section, content: [intro, ...missing, ...rest] };
        return {
          ...section,
          content: [intro, { lines: [operator.name, ...operator.addressLines, `${t('admin:legal.email')}: ${link(operator.email, `mailto:${operator.email}`)}`] }, ...rest],
        };
      }
      default:
        return section;
    }
  });
}
