import { describe, expect, it } from 'vitest';
import {
  isNumberInProgress,
  parseGermanNumber,
  formatDecimalInput,
  formatEuro,
  formatMoney,
  formatMoneyInput,
  formatNumber,
  formatQuantity,
  formatPercent,
  parseDecimal,
} from '~/lib/number';

const NBSP = '\u00A0';

describe('parseDecimal', () => {
  it.each([
    ['0,35', 0.35],
    ['0.35', 0.35],
    ['1.234,56', 1234.56],
    ['12.345.678,9', 12345678.9],
    ['1234,56', 1234.56],
    [' 12 ', 12],
    ['-3', -3],
    ['-0,5', -0.5],
    [',5', 0.5],
    ['.5', 0.5],
    ['3000', 3000],
    ['1.234', 1234], // a dot before exactly three digits is a German thousands separator (issue 8 §2)
    ['1.5', 1.5], // any other single dot is a decimal point
    ['0', 0],
    ['-0', 0],
  ])('parses %j as %d', (raw, expected) => {
    expect(parseDecimal(raw)).toBe(expected);
  });

  it.each([
    '',
    '   ',
    'abc',
    '1,2,3',
    '1e5',
    '1E5',
    'Infinity',
    '-Infinity',
    'NaN',
    '0x10',
    '5,',
    '1.23,4', // misplaced thousands separator
    '1.2.3', // several dots that are not thousands groups
    '1.234.56',
    '12 345',
    '+-1',
    '--1',
    '1-',
    '€5',
    '9'.repeat(400), // overflows to Infinity
  ])('rejects %j', (raw) => {
    expect(parseDecimal(raw)).toBeUndefined();
  });
});

// Entries seen from real German sellers (issue 8 §2): what a German reads.
describe('parseGermanNumber: real entries', () => {
  it.each([
    ['5.000', 5000], // printer lifetime in hours
    ['1.200', 1200], // printer price in €
    ['1.200,50', 1200.5],
    ['0,35', 0.35], // electricity €/kWh
    ['0.35', 0.35],
    ['0,5', 0.5],
    ['4,95', 4.95],
    ['4.95', 4.95], // two digits after the dot: a decimal point
    ['0.350', 0.35], // a leading 0 cannot start a thousands group
    ['12.345.678', 12345678],
    ['12.345.678,9', 12345678.9],
    ['3000', 3000],
    ['18', 18],
    ['10,5', 10.5], // marketplace fee %
    ['-2', -2],
  ])('%j means %d', (raw, expected) => {
    expect(parseGermanNumber(raw)).toEqual({ status: 'ok', value: expected });
  });

  it.each(['1,234.56', '1,200.50', '1,234,567'])('%j mixes English grouping: ambiguous, not guessed', (raw) => {
    expect(parseGermanNumber(raw)).toEqual({ status: 'ambiguous' });
    expect(parseDecimal(raw)).toBeUndefined();
  });

  it.each(['', '  '])('%j is empty', (raw) => {
    expect(parseGermanNumber(raw)).toEqual({ status: 'empty' });
  });

  it.each(['abc', '1,2,3', '1.23,4', '5,', '1e5', '€5'])('%j is invalid', (raw) => {
    expect(parseGermanNumber(raw)).toEqual({ status: 'invalid' });
  });
});

describe('isNumberInProgress', () => {
  it.each(['', '-', '0,', '12.', ','])('%j may still become a number', (raw) => {
    expect(isNumberInProgress(raw)).toBe(true);
  });
  it.each(['0,35', '12', 'abc', '1,2,3', '1,234.56'])('%j is finished (a number or never one)', (raw) => {
    expect(isNumberInProgress(raw)).toBe(false);
  });
});

describe('formatting', () => {
  it('formatEuro uses German format with a non-breaking space before €', () => {
    expect(formatEuro(1234.56)).toBe(`1.234,56${NBSP}€`);
    expect(formatEuro(0.5)).toBe(`0,50${NBSP}€`);
    expect(formatEuro(20.6668552631579)).toBe(`20,67${NBSP}€`);
    expect(formatEuro(-3.699)).toBe(`-3,70${NBSP}€`);
    expect(formatEuro(-0.001)).toBe(`0,00${NBSP}€`);
  });

  it('formatPercent takes a value already in percent', () => {
    expect(formatPercent(25)).toBe(`25${NBSP}%`);
    expect(formatPercent(12.5)).toBe(`12,5${NBSP}%`);
    expect(formatPercent(73.0223544882)).toBe(`73,02${NBSP}%`);
    expect(formatPercent(1000)).toBe(`1.000${NBSP}%`);
  });

  it('formatNumber', () => {
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatNumber(3.14159, 3)).toBe('3,142');
    expect(formatNumber(2, 0)).toBe('2');
    expect(formatNumber(0.005, 1)).toBe('0');
  });

  it('formatMoney: one rule for money the pages show, two decimals and a thousands dot (issue 24 §1)', () => {
    expect(formatMoney(1299.5)).toBe(`1.299,50${NBSP}€`);
    expect(formatMoney(27.9, '€/kg')).toBe(`27,90${NBSP}€/kg`);
    expect(formatMoney(0.8)).toBe(`0,80${NBSP}€`);
    expect(formatMoney(0)).toBe(`0,00${NBSP}€`);
    // An entered rate keeps the decimals it was given.
    expect(formatMoney(0.285, '€/kWh')).toBe(`0,285${NBSP}€/kWh`);
    expect(formatMoney(Number.NaN)).toBe('–');
  });

  it('formatQuantity: a German number with its unit', () => {
    expect(formatQuantity(6000, 'h')).toBe(`6.000${NBSP}h`);
    expect(formatQuantity(1.24, 'g/cm³')).toBe(`1,24${NBSP}g/cm³`);
    expect(formatQuantity(8000, '')).toBe('8.000');
  });

  it('formatMoneyInput pre-fills a money input with two decimals the parser reads back', () => {
    expect(formatMoneyInput(0.5)).toBe('0,50');
    expect(formatMoneyInput(29.9)).toBe('29,90');
    expect(formatMoneyInput(1299.5)).toBe('1299,50');
    expect(formatMoneyInput(0.285)).toBe('0,285');
    expect(formatMoneyInput(300)).toBe('300,00');
    for (const n of [0, 0.5, 29.9, 1299.5, 0.285, 300]) expect(parseDecimal(formatMoneyInput(n))).toBe(n);
  });

  it('formatDecimalInput produces German input text without grouping', () => {
    expect(formatDecimalInput(0.32)).toBe('0,32');
    expect(formatDecimalInput(3000)).toBe('3000');
    expect(formatDecimalInput(4.95)).toBe('4,95');
    expect(formatDecimalInput(1234567.5)).toBe('1234567,5');
    expect(formatDecimalInput(0.1 + 0.2)).toBe('0,3');
  });

  it('formatDecimalInput round-trips through parseDecimal', () => {
    for (const n of [0, 0.32, 3000, 4.95, 25, 0.5, 19, 1234567.89, -2.5]) {
      expect(parseDecimal(formatDecimalInput(n))).toBe(n);
    }
  });

  it('non-finite values', () => {
    expect(formatEuro(Number.NaN)).toBe('–');
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe('–');
    expect(formatNumber(Number.NaN)).toBe('–');
    expect(formatDecimalInput(Number.NaN)).toBe('');
  });
});
