import { defaultRawValues, rawValuesToSearchParams, type CalculatorRawValues } from './fields';
import { WORKED_EXAMPLE_PARAM } from './page';

/**
 * The landing page's worked example (spec §1: miniature figure, 1 h print) as
 * calculator inputs. The spec's example puts the 10,5 % fee on cost plus
 * margin, which the calculator's fee rule does not (it grosses the fee up), so
 * the example's selling price 11,97 € travels as the (net) target price: the
 * calculator shows it with the profit it leaves under the spec's fee rule.
 */
export const workedExampleValues: Partial<CalculatorRawValues> = {
  quantity: '1',
  filamentWeight: '25',
  filamentPricePerKg: '18',
  printTimeHours: '1',
  printTimeMinutes: '0',
  printerWattage: '250',
  electricityRate: '0,35',
  printerCost: '450',
  printerLifetimeHours: '8.000',
  preparationTime: '10',
  postProcessingTime: '0',
  hourlyRate: '15',
  packagingCost: '0,40',
  shippingCost: '4,95',
  marketplaceFeePercent: '10,5',
  marketplaceFeeFixed: '0,30',
  profitMargin: '25',
  targetPrice: '11,97',
};

export function workedExampleHref(): string {
  const query = rawValuesToSearchParams({ ...defaultRawValues(), ...workedExampleValues });
  query.set(WORKED_EXAMPLE_PARAM, '1');
  return `/calculator?${query}`;
}
