import { parseWithZod } from '@conform-to/zod/v4';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calculatorDefaults } from '~/calculator/defaults';
import {
  calculatorErrorKeys,
  calculatorSchema,
  toCalculatorInput,
  type CalculatorFormValues,
} from '~/calculator/schema';

function submit(query: string | Record<string, string>) {
  return parseWithZod(new URLSearchParams(query), { schema: calculatorSchema });
}

function values(query: string | Record<string, string>): CalculatorFormValues {
  const submission = submit(query);
  if (submission.status !== 'success') {
    throw new Error(`expected success, got ${JSON.stringify(submission.error)}`);
  }
  return submission.value;
}

function errors(query: string | Record<string, string>): Record<string, string[] | null> {
  const submission = submit(query);
  expect(submission.status).toBe('error');
  return (submission.status === 'error' ? submission.error : {}) ?? {};
}

const {
  projectName: _name,
  printTime: _printTime,
  printTimeHours: _h,
  printTimeMinutes: _m,
  ...numericDefaults
} = calculatorDefaults;

describe('calculatorSchema through parseWithZod', () => {
  it('falls back to the defaults for missing fields', () => {
    const v = values('');
    expect(v).toEqual({ ...numericDefaults, printTimeHours: 3, printTimeMinutes: 30, projectName: '' });
    expect(toCalculatorInput(v)).toEqual({ ...numericDefaults, printTime: 3.5 });
  });

  it('overrides single fields from the query (/calculator?filamentWeight=50)', () => {
    const v = values('filamentWeight=50');
    expect(v.filamentWeight).toBe(50);
    expect(v.quantity).toBe(1);
    expect(v.electricityRate).toBe(0.32);
  });

  it('parses German decimals', () => {
    const v = values({
      electricityRate: '0,35',
      filamentPricePerKg: '1.234,56',
      shippingCost: '4.95',
      marketplaceFeePercent: '6,5',
      marketplaceFeeFixed: ' 0,25 ',
      targetPrice: '19,99',
    });
    expect(v.electricityRate).toBe(0.35);
    expect(v.filamentPricePerKg).toBe(1234.56);
    expect(v.shippingCost).toBe(4.95);
    expect(v.marketplaceFeePercent).toBe(6.5);
    expect(v.marketplaceFeeFixed).toBe(0.25);
    expect(v.targetPrice).toBe(19.99);
  });

  it('combines hours and minutes into decimal printTime and drops the strings', () => {
    const v = values({
      printTimeHours: '1',
      printTimeMinutes: '45',
      projectName: 'Vase',
      selectedPrinter: 'abc',
    });
    const input = toCalculatorInput(v);
    expect(input.printTime).toBeCloseTo(1.75, 12);
    expect(input).not.toHaveProperty('projectName');
    expect(input).not.toHaveProperty('selectedPrinter');
    expect(input).not.toHaveProperty('printTimeHours');
    expect(v.selectedPrinter).toBe('abc');
    expect(v.projectName).toBe('Vase');
  });

  it('treats a present-but-empty number as required, but empty targetPrice as 0', () => {
    expect(errors('filamentWeight=')).toEqual({ filamentWeight: [calculatorErrorKeys.required] });
    expect(errors('quantity=%20%20')).toEqual({ quantity: [calculatorErrorKeys.required] });
    expect(values('targetPrice=').targetPrice).toBe(0);
  });

  it('does not require a project name for calculating; empty optional strings become undefined', () => {
    const v = values('projectName=&selectedFilament=&productImagePath=');
    expect(v.projectName).toBe('');
    expect(v.selectedFilament).toBeUndefined();
    expect(v.productImagePath).toBeUndefined();
  });

  it('reports several errors at once (print-time rule runs even if other fields fail)', () => {
    const e = errors('quantity=0&printTimeHours=0&printTimeMinutes=0&profitMargin=201');
    expect(e).toEqual({
      quantity: [calculatorErrorKeys.quantityMin],
      printTimeHours: [calculatorErrorKeys.printTimeMin],
      profitMargin: [calculatorErrorKeys.profitMarginRange],
    });
  });

  it.each<[string, string, string]>([
    ['quantity', 'abc', calculatorErrorKeys.notANumber],
    ['quantity', '1e5', calculatorErrorKeys.notANumber],
    ['quantity', '1,5', calculatorErrorKeys.notAnInteger],
    ['quantity', '0', calculatorErrorKeys.quantityMin],
    ['quantity', '100001', calculatorErrorKeys.quantityMax],
    ['filamentWeight', '0,09', calculatorErrorKeys.filamentWeightMin],
    ['filamentWeight', '1000001', calculatorErrorKeys.tooLarge],
    ['filamentPricePerKg', '0', calculatorErrorKeys.filamentPricePerKgMin],
    ['printTimeHours', '100', calculatorErrorKeys.printTimeHoursRange],
    ['printTimeHours', '-1', calculatorErrorKeys.printTimeHoursRange],
    ['printTimeHours', '1,5', calculatorErrorKeys.notAnInteger],
    ['printTimeMinutes', '60', calculatorErrorKeys.printTimeMinutesRange],
    ['printTimeMinutes', '-1', calculatorErrorKeys.printTimeMinutesRange],
    ['printerWattage', '0,5', calculatorErrorKeys.printerWattageMin],
    ['electricityRate', '0', calculatorErrorKeys.electricityRateMin],
    ['preparationTime', '-1', calculatorErrorKeys.preparationTimeMin],
    ['postProcessingTime', '-0,1', calculatorErrorKeys.postProcessingTimeMin],
    ['hourlyRate', '0', calculatorErrorKeys.hourlyRateMin],
    ['packagingCost', '-1', calculatorErrorKeys.packagingCostMin],
    ['shippingCost', '-1', calculatorErrorKeys.shippingCostMin],
    ['marketplaceFeePercent', '100,1', calculatorErrorKeys.marketplaceFeeRange],
    ['marketplaceFeePercent', '-1', calculatorErrorKeys.marketplaceFeeRange],
    ['marketplaceFeeFixed', '-0,3', calculatorErrorKeys.marketplaceFeeFixedMin],
    ['profitMargin', '201', calculatorErrorKeys.profitMarginRange],
    ['profitMargin', '-1', calculatorErrorKeys.profitMarginRange],
    ['targetPrice', '-5', calculatorErrorKeys.targetPriceMin],
    ['printerCost', '-10', calculatorErrorKeys.printerCostMin],
    ['printerLifetimeHours', '0', calculatorErrorKeys.printerLifetimeHoursMin],
    ['vatPercent', '101', calculatorErrorKeys.vatPercentRange],
    ['projectName', 'x'.repeat(201), calculatorErrorKeys.projectNameTooLong],
    ['selectedMarketplace', 'x'.repeat(201), calculatorErrorKeys.textTooLong],
  ])('%s=%s → %s', (field, raw, key) => {
    expect(errors({ [field]: raw })).toEqual({ [field]: [key] });
  });

  it('accepts the bounds themselves', () => {
    const v = values({
      quantity: '100000',
      printTimeHours: '99',
      printTimeMinutes: '59',
      marketplaceFeePercent: '100',
      profitMargin: '200',
      vatPercent: '0',
      preparationTime: '0',
      filamentWeight: '0,1',
    });
    expect(v.marketplaceFeePercent).toBe(100);
    expect(v.printTimeHours).toBe(99);
  });

  it('rejects a print time of 0 h 0 min and of 0 h 5 min (< 0.1 h), accepts 0 h 6 min', () => {
    expect(errors('printTimeHours=0&printTimeMinutes=0')).toEqual({
      printTimeHours: [calculatorErrorKeys.printTimeMin],
    });
    expect(errors('printTimeHours=0&printTimeMinutes=5')).toEqual({
      printTimeHours: [calculatorErrorKeys.printTimeMin],
    });
    expect(toCalculatorInput(values('printTimeHours=0&printTimeMinutes=6')).printTime).toBeCloseTo(0.1, 12);
    // missing minutes fall back to 30 → 0 h 30 min is fine
    expect(toCalculatorInput(values('printTimeHours=0')).printTime).toBe(0.5);
  });

  it('rejects a repeated query key', () => {
    expect(errors('quantity=1&quantity=2')).toEqual({ quantity: [calculatorErrorKeys.notANumber] });
  });

  it('also works with plain safeParse and numeric input', () => {
    const r = calculatorSchema.safeParse({ quantity: 2, filamentWeight: '12,5' });
    expect(r.success).toBe(true);
    expect(r.data?.quantity).toBe(2);
    expect(r.data?.filamentWeight).toBe(12.5);
  });
});

describe('locale file', () => {
  it('has a German text for every error key', () => {
    const json = JSON.parse(
      readFileSync(new URL('../../public/locales/de/calculator.json', import.meta.url), 'utf8'),
    ) as { errors: Record<string, string> };
    for (const key of Object.values(calculatorErrorKeys)) {
      const name = key.replace('calculator:errors.', '');
      expect(json.errors[name], key).toEqual(expect.any(String));
    }
    expect(json.errors.marketplaceFeeRange).toBe('Gebühr muss zwischen 0 und 100% liegen');
    expect(json.errors.profitMarginRange).toBe('Gewinnmarge muss zwischen 0 und 200% liegen');
    expect(json.errors.projectNameRequired).toBe('Projektname ist erforderlich');
  });
});
