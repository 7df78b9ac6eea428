import { formatDecimalInput } from '../utils/number';
import { calculatorDefaults } from './defaults';

/** The calculator's form fields, in form order (also the order of a shared URL). */
export const calculatorFieldNames = [
  'projectName',
  'quantity',
  'filamentWeight',
  'printTimeHours',
  'printTimeMinutes',
  'profitMargin',
  'vatPercent',
  'targetPrice',
  'filamentPricePerKg',
  'printerWattage',
  'electricityRate',
  'printerCost',
  'printerLifetimeHours',
  'packagingCost',
  'shippingCost',
  'marketplaceFeePercent',
  'marketplaceFeeFixed',
  'preparationTime',
  'postProcessingTime',
  'hourlyRate',
] as const;

export type CalculatorFieldName = (typeof calculatorFieldNames)[number];
/** What the inputs show: the text as typed (German decimals allowed). */
export type CalculatorRawValues = Record<CalculatorFieldName, string>;

// Formatted once: every calculator request starts from these texts.
const DEFAULT_RAW_VALUES: Readonly<CalculatorRawValues> = Object.freeze(
  Object.fromEntries(
    calculatorFieldNames.map((name) => {
      const value = calculatorDefaults[name];
      return [name, typeof value === 'number' ? formatDecimalInput(value) : value];
    }),
  ) as CalculatorRawValues,
);

export function defaultRawValues(): CalculatorRawValues {
  return { ...DEFAULT_RAW_VALUES };
}

/** Field texts from a query string; a missing field shows its default. */
export function rawValuesFromSearchParams(params: URLSearchParams): CalculatorRawValues {
  const values = defaultRawValues();
  for (const name of calculatorFieldNames) {
    const value = params.get(name);
    if (value !== null) values[name] = value;
  }
  return values;
}

export function rawValuesToSearchParams(values: CalculatorRawValues): URLSearchParams {
  return new URLSearchParams(calculatorFieldNames.map((name) => [name, values[name]]));
}
