/**
 * Calculator defaults (product spec §9 "Calculator defaults") as the engine
 * sees them, plus the form's project name and print-time parts. The values
 * themselves are declared once, in ./fields.ts.
 */
import { fieldDefaults, toEngineInput, type CalculatorInput } from './fields';

export type CalculatorDefaults = Readonly<
  CalculatorInput & { projectName: string; printTimeHours: number; printTimeMinutes: number }
>;

export const calculatorDefaults: CalculatorDefaults = Object.freeze({
  projectName: fieldDefaults.projectName,
  ...toEngineInput(fieldDefaults),
  printTimeHours: fieldDefaults.printTimeHours,
  printTimeMinutes: fieldDefaults.printTimeMinutes,
});
