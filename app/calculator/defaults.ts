/**
 * Calculator defaults (product spec §9 "Calculator defaults").
 * `printTime` is decimal hours; the form shows it as two inputs
 * (`printTimeHours` + `printTimeMinutes`), 3.5 h = 3 h 30 min.
 */
import type { CalculatorInput } from './engine';

export type CalculatorDefaults = Readonly<
  CalculatorInput & { projectName: string; printTimeHours: number; printTimeMinutes: number }
>;

export const calculatorDefaults: CalculatorDefaults = Object.freeze({
  projectName: '',
  quantity: 1,
  filamentWeight: 25,
  filamentPricePerKg: 25,
  printTime: 3.5,
  printTimeHours: 3,
  printTimeMinutes: 30,
  printerWattage: 200,
  electricityRate: 0.32,
  preparationTime: 15,
  postProcessingTime: 10,
  hourlyRate: 15,
  packagingCost: 0.5,
  shippingCost: 4.95,
  marketplaceFeePercent: 5,
  marketplaceFeeFixed: 0.3,
  profitMargin: 25,
  targetPrice: 0,
  printerCost: 300,
  printerLifetimeHours: 3000,
  vatPercent: 19,
});
