import { describe, expect, it } from 'vitest';
import { csvDate, csvHours, csvLine } from '../../app/lib/csv';
import { asNumericColumn } from '../../app/lib/numeric-column';

describe('German CSV cells (security review follow-up)', () => {
  it('print time: German hours with at most two decimals', () => {
    expect(csvHours(5.25)).toBe('5,25');
    expect(csvHours(2.3333333)).toBe('2,33');
    expect(csvHours(2.5)).toBe('2,5');
    expect(csvHours(3)).toBe('3');
    expect(csvHours(0.004)).toBe('0');
    expect(csvHours(null)).toBe('');
  });

  it('dates: dd.mm.yyyy on the Berlin calendar', () => {
    expect(csvDate(new Date('2026-11-27T10:00:00Z'))).toBe('27.11.2026');
    // 23:30 UTC on 31 December is already New Year in Berlin.
    expect(csvDate(new Date('2026-12-31T23:30:00Z'))).toBe('01.01.2027');
    expect(csvDate(new Date('2026-03-05T12:00:00Z'))).toBe('05.03.2026');
  });

  it('a line is its cells joined by semicolons and ended by CRLF', () => {
    expect(csvLine(['a', 1, null, 'b;c'])).toBe('a;1;;"b;c"\r\n');
  });
});

describe('asNumericColumn', () => {
  it('rounds the decimal text half away from zero at the scale', () => {
    expect(asNumericColumn(30.37037037037037, 4)).toBe(30.3704);
    expect(asNumericColumn(1.00005, 4)).toBe(1.0001);
    expect(asNumericColumn(-2.345, 2)).toBe(-2.35);
    expect(asNumericColumn(5e-7, 6)).toBe(0.000001);
    expect(Object.is(asNumericColumn(-0.00001, 4), 0)).toBe(true);
    expect(asNumericColumn(12, 4)).toBe(12);
  });
});
