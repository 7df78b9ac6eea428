import { describe, expect, it } from 'vitest';
import { formatMonthlyPrice, formatPeriodEnd } from '~/components/premium/format';

describe('Premium page formats (German)', () => {
  it('formats the price from cents', () => {
    expect(formatMonthlyPrice(399, 'eur')).toBe('3,99\u00a0€');
    expect(formatMonthlyPrice(1250, 'EUR')).toBe('12,50\u00a0€');
  });

  it('formats the period end (Unix seconds) as a German date in Berlin time', () => {
    expect(formatPeriodEnd(Date.UTC(2026, 11, 31, 23, 30) / 1000)).toBe('01.01.2027');
    expect(formatPeriodEnd(Date.UTC(2026, 0, 5, 12) / 1000)).toBe('05.01.2026');
  });
});
