/**
 * Plain G-code: picks the reader by the generator line, else by the summary
 * keys present (PrusaSlicer family, Cura, Simplify3D, in that order).
 */
import { collectComments, type GcodeComments } from './gcode-text';
import { hasCuraKeys, isCura, readCura } from './cura';
import { hasPrusaFamilyKeys, identifyPrusaFamily, readPrusaFamily } from './prusa';
import { hasSimplify3dKeys, readSimplify3d } from './simplify3d';
import { SlicerReadError, type SlicerSummary } from './types';

export function readGcodeTexts(texts: string[]): SlicerSummary {
  return readGcodeComments(collectComments(texts), texts);
}

export function readGcodeComments(comments: GcodeComments, texts: string[] = []): SlicerSummary {
  if (identifyPrusaFamily(comments)) return readPrusaFamily(comments);
  if (isCura(comments)) return readCura(comments);
  if (hasPrusaFamilyKeys(comments)) return readPrusaFamily(comments);
  if (hasCuraKeys(comments)) return readCura(comments);
  if (hasSimplify3dKeys(comments)) return readSimplify3d(comments);
  // G-code without any summary comment: say what is missing, not "unknown file".
  if (comments.firstLines.length > 0 || texts.some((text) => /^\s*[GM]\d/m.test(text.slice(0, 65536)))) {
    throw new SlicerReadError('noSummary');
  }
  throw new SlicerReadError('notSlicerFile');
}
