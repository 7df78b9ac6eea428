import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { addDays, applyQuoteLineAction, berlinDate, businessDetailsSchema, createQuoteSchema, displayStatus, MAX_QUOTE_LINES, quoteInputSchema, type QuoteInput } from '../../app/domain/quotes';

type Parsed = { status?: string; error?: Record<string, string[] | null> | null };
const errorsOf = (submission: unknown) => (submission as Parsed).error ?? {};

const form = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
};

describe('quote form schemas (as the pages parse them with Conform, and as JSON)', () => {
  it('new quote: empty optional fields are null, not "Invalid input"', () => {
    const submission = parseWithZod(form({ projectId: 'p', customerName: 'Erika', customerAddress: '', customerEmail: '' }), { schema: createQuoteSchema });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value).toEqual({ projectId: 'p', customerName: 'Erika', customerAddress: null, customerEmail: null });
    const missing = parseWithZod(form({ projectId: 'p', customerName: '' }), { schema: createQuoteSchema });
    expect(errorsOf(missing).customerName).toEqual(['quotes:errors.required']);
    expect(createQuoteSchema.safeParse({ projectId: 'p', customerName: 'E', customerEmail: null }).success).toBe(true);
    expect(createQuoteSchema.safeParse({ projectId: 'p', customerName: 'E', customerEmail: 'nope' }).error?.issues[0].message).toBe('quotes:errors.email');
  });

  it('business details: checkbox, default validity, German numbers', () => {
    const base = { businessName: 'Müller', address: 'Weg 1\n12345 Ort', email: 'a@example.de' };
    const plain = parseWithZod(form(base), { schema: businessDetailsSchema });
    expect(plain.status === 'success' && plain.value).toMatchObject({ smallBusiness: false, validityDays: 14, phone: null, closingText: '' });
    const checked = parseWithZod(form({ ...base, smallBusiness: 'on', validityDays: '30' }), { schema: businessDetailsSchema });
    expect(checked.status === 'success' && checked.value).toMatchObject({ smallBusiness: true, validityDays: 30 });
    expect(errorsOf(parseWithZod(form({ ...base, validityDays: '0' }), { schema: businessDetailsSchema })).validityDays).toEqual(['quotes:errors.validityDays']);
    expect(errorsOf(parseWithZod(form({ ...base, businessName: 'a\u0007b' }), { schema: businessDetailsSchema })).businessName).toEqual(['quotes:errors.controlCharacters']);
  });

  it('quote input: German prices to cents, discount empty = 0, dates checked', () => {
    const body = {
      customerName: 'Erika',
      quoteDate: '2026-11-26',
      validUntil: '2026-12-10',
      discountPercent: '',
      lines: [{ description: 'Vase', quantity: '2', unitPrice: '1.234,56', vatRate: '7' }],
    };
    const parsed = quoteInputSchema.parse(body);
    expect(parsed.lines[0]).toEqual({ kind: 'free', description: 'Vase', quantity: 2, unitPrice: 123456, vatRate: 7 });
    expect(parsed.discountPercent).toBe(0);
    expect(quoteInputSchema.safeParse({ ...body, quoteDate: '2026-13-01' }).success).toBe(false);
    // PostgreSQL has no year 0: such a date was a 500 from the database (attacker review).
    for (const quoteDate of ['0000-01-01', '0001-01-01', '9999-12-31']) expect(quoteInputSchema.safeParse({ ...body, quoteDate, validUntil: '9999-12-31' }).success, quoteDate).toBe(false);
    expect(quoteInputSchema.safeParse({ ...body, lines: [{ ...body.lines[0], unitPrice: '-1' }] }).success).toBe(false);
    expect(quoteInputSchema.safeParse({ ...body, lines: [{ ...body.lines[0], quantity: '1,5' }] }).success).toBe(false);
  });

  it('Abgelaufen is derived from the date; dates are German calendar days', () => {
    expect(displayStatus({ status: 'sent', validUntil: '2026-12-10' }, '2026-12-10')).toBe('sent');
    expect(displayStatus({ status: 'sent', validUntil: '2026-12-10' }, '2026-12-11')).toBe('expired');
    expect(displayStatus({ status: 'draft', validUntil: '2026-12-10' }, '2027-01-01')).toBe('draft');
    expect(displayStatus({ status: 'accepted', validUntil: '2026-12-10' }, '2027-01-01')).toBe('accepted');
    expect(berlinDate(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(addDays('2026-12-25', 14)).toBe('2027-01-08');
  });
});

describe('adding and removing quote lines (applyQuoteLineAction)', () => {
  const base = { customerName: 'Erika', lines: [{ kind: 'project' as const, description: 'Vase', quantity: 2, unitPrice: 10, vatRate: 7 }] } as unknown as QuoteInput;
  it('adds a line at the first line’s VAT rate, removes any but the last, and ignores unknown actions', () => {
    const added = applyQuoteLineAction(base, 'addLine:shipping', (key) => `T:${key}`);
    expect(added.lines).toHaveLength(2);
    expect(added.lines[1]).toMatchObject({ kind: 'shipping', description: 'T:kinds.shipping', quantity: 1, unitPrice: 0, vatRate: 7 });
    expect(applyQuoteLineAction(added, 'removeLine:0', String).lines.map((line) => line.kind)).toEqual(['shipping']);
    expect(applyQuoteLineAction(base, 'removeLine:0', String).lines).toHaveLength(1);
    expect(applyQuoteLineAction(base, 'addLine:nope', String)).toBe(base);
    const full = { ...base, lines: Array.from({ length: MAX_QUOTE_LINES }, () => base.lines[0]) };
    expect(applyQuoteLineAction(full, 'addLine:free', String).lines).toHaveLength(MAX_QUOTE_LINES);
  });
});

describe('typedQuoteTotals (the edit form’s figures before saving)', () => {
  it('parses as the schema does and sums by the same rule; a refused line has no total and holds back the totals', async () => {
    const { typedQuoteTotals } = await import('../../app/domain/quotes');
    const typed = [
      { quantity: '2', unitPrice: '24,99', vatRate: '19' },
      { quantity: '1', unitPrice: '5.49', vatRate: '19' },
      { quantity: '1', unitPrice: '10,70', vatRate: '7' },
    ];
    const live = typedQuoteTotals(typed, '10', false);
    expect(live.lineCents).toEqual([4998, 549, 1070]);
    // (49,98 + 5,49) − 10 % = 49,92 at 19 %, 10,70 − 10 % = 9,63 at 7 %.
    expect(live.totals).toMatchObject({ grossCents: 5955, vat: [{ rate: 19, cents: 797 }, { rate: 7, cents: 63 }] });
    expect(typedQuoteTotals(typed, '', true).totals).toMatchObject({ grossCents: 6617, vat: [] });
    const refused = typedQuoteTotals([typed[0], { ...typed[1], unitPrice: '1e308' }], '0', false);
    expect(refused).toEqual({ lineCents: [4998, null], totals: null });
    expect(typedQuoteTotals(typed, '150', false).totals).toBeNull();
    expect(typedQuoteTotals([], '0', false).totals).toBeNull();
  });
});
