import { describe, expect, it } from 'vitest';
import { contactPersonOf, isCompanyName, quoteGreeting } from '../../app/domain/quote-greeting';

describe('quoteGreeting: whom the default quote mail greets', () => {
  it('greets a contact person named in the address, also for a company', () => {
    expect(quoteGreeting('Müller GmbH', 'z. Hd. Frau Anna Schmidt\nWerkstraße 5\n80331 München')).toEqual({ kind: 'contact', name: 'Frau Anna Schmidt' });
    expect(quoteGreeting('Müller GmbH', 'Werkstraße 5\nz.Hd. Herrn Jan Brandt,\n80331 München')).toEqual({ kind: 'contact', name: 'Herrn Jan Brandt' });
    expect(quoteGreeting('Acme Ltd.', 'Attn: Jane Doe')).toEqual({ kind: 'contact', name: 'Jane Doe' });
    expect(quoteGreeting('Verein', 'zu Händen von Petra Lang')).toEqual({ kind: 'contact', name: 'Petra Lang' });
    expect(quoteGreeting('Druckerei Lang', 'Ansprechpartnerin: Petra Lang')).toEqual({ kind: 'contact', name: 'Petra Lang' });
  });

  it('never greets a company by its name', () => {
    for (const name of ['Müller GmbH', 'Kaiser & Co. KG', 'Schmidt 3D UG (haftungsbeschränkt)', 'Bäckerei Brot e. K.', 'Modellbahnfreunde Nord e.V.', 'Firma Weber', 'Acme Ltd.', 'Siemens AG']) {
      expect(isCompanyName(name), name).toBe(true);
      expect(quoteGreeting(name, 'Hauptstraße 1\n10115 Berlin'), name).toEqual({ kind: 'company' });
    }
  });

  it('greets a person by name, and nobody by name when there is none', () => {
    for (const name of ['Jörg Weiß', 'Agnes Ag', 'Kurt Geyer', 'Ute Eger', 'Sebastian Seba']) {
      expect(isCompanyName(name), name).toBe(false);
      expect(quoteGreeting(name, 'Hauptstraße 1'), name).toEqual({ kind: 'person', name });
    }
    expect(quoteGreeting('  ', null)).toEqual({ kind: 'none' });
  });

  it('reads no contact from an ordinary address', () => {
    expect(contactPersonOf('Zehdenicker Straße 4\n10119 Berlin')).toBeNull();
    expect(contactPersonOf('z. Hd.')).toBeNull();
    expect(contactPersonOf(undefined)).toBeNull();
    expect(contactPersonOf('Attnanger Straße 2')).toBeNull();
  });
});

describe('contact lines of any length', () => {
  it('reads a contact line followed by 200,000 spaces at once (the pattern never backtracks over them)', () => {
    expect(contactPersonOf(`z. Hd. Frau Anna Schmidt${' '.repeat(200_000)}`)).toBe('Frau Anna Schmidt');
    expect(contactPersonOf(`Attn: ${'a '.repeat(100_000)}x`)).toMatch(/^a a .* x$/);
  });
});
