import { SlicerReadError, type SlicerExtruder, type SlicerSummary, type SlicerWarning } from './types';
import { roundGrams } from './materials';

/**
 * Builds a summary from what a reader found, or throws the message code naming
 * what is missing. Extruders that used nothing (`0.00` in a multi-extruder
 * list) are left out, so "2 Filamente" counts filaments really used.
 */
export function finishSummary(found: {
  slicer: string;
  slicerVersion: string | null;
  extruders: SlicerExtruder[];
  printSeconds: number | undefined;
  warnings: SlicerWarning[];
  purgeGrams?: number;
  purgeEstimate?: { changes: number };
}): SlicerSummary {
  const extruders = found.extruders
    .filter((extruder) => Number.isFinite(extruder.filamentGrams) && extruder.filamentGrams > 0)
    .map((extruder) => ({ ...extruder, filamentGrams: roundGrams(extruder.filamentGrams) }));
  const grams = extruders.reduce((sum, extruder) => sum + extruder.filamentGrams, 0);
  const seconds = found.printSeconds !== undefined && found.printSeconds > 0 ? found.printSeconds : undefined;
  if (grams <= 0 && seconds === undefined) throw new SlicerReadError('noSummary');
  if (grams <= 0) throw new SlicerReadError('noWeight');
  if (seconds === undefined) throw new SlicerReadError('noTime');
  return {
    slicer: found.slicer,
    slicerVersion: found.slicerVersion,
    filamentGrams: roundGrams(grams),
    printSeconds: seconds,
    perExtruder: extruders,
    ...(found.purgeGrams !== undefined && Number.isFinite(found.purgeGrams) && found.purgeGrams > 0
      ? { purgeGrams: roundGrams(found.purgeGrams), ...(found.purgeEstimate ? { purgeEstimate: found.purgeEstimate } : {}) }
      : {}),
    warnings: found.warnings,
  };
}

/** `01.08.04.51` → `1.8.4.51`, `2.7.1+win64` → `2.7.1`. */
export function cleanVersion(version: string | undefined): string | null {
  if (!version) return null;
  const plain = version.trim().replace(/\+.*$/, '');
  if (!/^\d/.test(plain)) return plain || null;
  return plain
    .split('.')
    .map((part) => part.replace(/^0+(?=\d)/, ''))
    .join('.');
}
