import { describe, expect, it } from 'vitest';
import { eurosToCents, formatCents, mulDivRound, quoteTotals } from '../../app/domain/quote-totals';

describe('quote totals (issue 26, docs/quotes.md)', () => {
  it('19 %: the VAT contained in the end price, rounded once per rate', () => {
    // 2 × 11,90 € = 23,80 € gross → 3,80 € VAT, 20,00 € net.
    const totals = quoteTotals([{ quantity: 2, unitPriceCents: 1190, vatRate: 19 }]);
    expect(totals).toMatchObject({ subtotalCents: 2380, discountCents: 0, grossCents: 2380, netCents: 2000, vat: [{ rate: 19, cents: 380 }] });
  });

  it('7 % and 19 % side by side: one VAT line per rate, highest first, net + VAT = gross', () => {
    const totals = quoteTotals([
      { quantity: 1, unitPriceCents: 1070, vatRate: 7 },
      { quantity: 3, unitPriceCents: 999, vatRate: 19 },
    ]);
    // 29,97 × 19/119 = 4,7852… → 4,79; 10,70 × 7/107 = 0,70.
    expect(totals.vat).toEqual([
      { rate: 19, cents: 479 },
      { rate: 7, cents: 70 },
    ]);
    expect(totals.grossCents).toBe(2997 + 1070);
    expect(totals.netCents + totals.vat.reduce((s, v) => s + v.cents, 0)).toBe(totals.grossCents);
    expect(totals.netCents).toBe(2997 - 479 + 1070 - 70);
  });

  it('rounds the VAT per rate, not per line (per line would give one cent more here)', () => {
    // Each 0,10 € line holds 0,01597 € VAT: per line 3 × 0,02 = 0,06; on the sum 0,30 × 19/119 = 0,0479 → 0,05.
    const lines = Array.from({ length: 3 }, () => ({ quantity: 1, unitPriceCents: 10, vatRate: 19 }));
    expect(quoteTotals(lines).vat).toEqual([{ rate: 19, cents: 5 }]);
  });

  it('§ 19 UStG: no VAT line, net = gross, whatever rate a line carries', () => {
    const totals = quoteTotals([{ quantity: 4, unitPriceCents: 1234, vatRate: 19 }], { smallBusiness: true });
    expect(totals).toMatchObject({ grossCents: 4936, netCents: 4936, vat: [] });
  });

  it('discount: taken off each rate before the VAT, rounded half up to the cent', () => {
    // 10 % of 33,35 € = 3,335 → 3,34 (half up); 30,01 € remain, VAT 30,01 × 19/119 = 4,7915… → 4,79.
    const totals = quoteTotals([{ quantity: 1, unitPriceCents: 3335, vatRate: 19 }], { discountBasisPoints: 1000 });
    expect(totals).toMatchObject({ subtotalCents: 3335, discountCents: 334, grossCents: 3001, vat: [{ rate: 19, cents: 479 }], netCents: 2522 });
  });

  it('a 100 % discount leaves nothing; a discount out of range is clamped', () => {
    expect(quoteTotals([{ quantity: 1, unitPriceCents: 500, vatRate: 19 }], { discountBasisPoints: 10_000 }).grossCents).toBe(0);
    expect(quoteTotals([{ quantity: 1, unitPriceCents: 500, vatRate: 19 }], { discountBasisPoints: 20_000 }).grossCents).toBe(0);
    expect(quoteTotals([{ quantity: 1, unitPriceCents: 500, vatRate: 19 }], { discountBasisPoints: -5 }).grossCents).toBe(500);
  });

  it('half-up rounding and large amounts stay exact', () => {
    expect(mulDivRound(1, 1, 2)).toBe(1);
    expect(mulDivRound(3, 1, 2)).toBe(2);
    expect(mulDivRound(1, 1, 3)).toBe(0);
    expect(mulDivRound(9_999_999_999, 1900, 11_900)).toBe(1_596_638_655);
    expect(eurosToCents(1.005)).toBe(101);
    expect(eurosToCents(12.344999)).toBe(1234);
    expect(formatCents(123456)).toBe('1.234,56\u00a0€');
    expect(formatCents(5)).toBe('0,05\u00a0€');
  });
});
