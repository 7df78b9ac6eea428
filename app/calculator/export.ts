import { evaluateCalculator } from './evaluate';
import { exportFieldNames, filamentLinesOf, type CalculatorRawValues } from './fields';
import { calculatorSchema } from './schema';

/** Cents for amounts and percentages in the file; inputs keep what was typed, minus float noise. */
const roundTo = (value: number, digits: number) => {
  const factor = 10 ** digits;
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded;
};

function roundAll<T extends Record<string, number>>(values: T, digits: number): T {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, roundTo(v, digits)])) as T;
}

/** A filament line in the export (issue 23), only when there are several: line 1 is filamentWeight/filamentPricePerKg. */
export type ExportedFilamentLine = { label?: string; grams: number; pricePerKg: number };

export type CalculatorExport = {
  exportedAt: string;
  currency: 'EUR';
  projectName: string;
  inputs: Record<string, number | string | boolean | ExportedFilamentLine[]>;
  results: Record<string, number> | null;
  error?: 'marketplaceFeeTooHigh';
  partialResults?: Record<string, number>;
};

/**
 * The JSON export (spec §7 "Local only": form input, calculation, timestamp).
 * Pure, so the browser builds the file itself and the no-JS route
 * (/calculator/export) sends the very same bytes. Null when the input is invalid.
 */
export function buildCalculatorExport(values: CalculatorRawValues, now: Date): CalculatorExport | null {
  const evaluation = evaluateCalculator(values);
  if (evaluation.status === 'invalid') return null;
  const parsed = calculatorSchema.safeParse(values);
  if (!parsed.success) return null;

  const inputs: CalculatorExport['inputs'] = {};
  for (const name of exportFieldNames) {
    if (name === 'projectName') continue;
    const value = (parsed.data as Record<string, unknown>)[name];
    if (value === undefined) continue;
    inputs[name] = typeof value === 'number' ? roundTo(value, 6) : (value as string | boolean);
  }
  // The decimal hours the engine calculated with, next to the two inputs.
  inputs.printTime = roundTo(evaluation.input.printTime, 6);
  const lines = filamentLinesOf(parsed.data as Record<string, unknown>);
  if (lines.length > 1) {
    inputs.filaments = lines.map(({ label, grams, pricePerKg }) => ({
      ...(label ? { label } : {}),
      grams: roundTo(grams, 6),
      pricePerKg: roundTo(pricePerKg, 6),
    }));
  }

  return {
    exportedAt: now.toISOString(),
    currency: 'EUR',
    projectName: parsed.data.projectName,
    inputs,
    results: evaluation.status === 'ok' ? roundAll(evaluation.result, 2) : null,
    ...(evaluation.status === 'impossible'
      ? { error: 'marketplaceFeeTooHigh' as const, partialResults: roundAll(evaluation.partial, 2) }
      : {}),
  };
}

/** `druckpreis-kalkulation-2026-11-23.json`; the prefix is a translated text. */
export function exportFileName(prefix: string, now: Date): string {
  return `${prefix}-${now.toISOString().slice(0, 10)}.json`;
}

export function serializeExport(body: CalculatorExport): string {
  return JSON.stringify(body, null, 2);
}


/**
 * Browser only: builds the file and hands it to the browser as a download.
 * False when the input is invalid. Lives here, in the lazily loaded chunk,
 * so the first visit does not carry it.
 */
export function downloadCalculatorExport(values: CalculatorRawValues, filePrefix: string): boolean {
  const now = new Date();
  const body = buildCalculatorExport(values, now);
  if (!body) return false;
  const url = URL.createObjectURL(new Blob([serializeExport(body)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(filePrefix, now);
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  return true;
}
