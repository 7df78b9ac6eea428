/**
 * Plain G-code: picks the reader by the generator line, else by the summary
 * keys present (PrusaSlicer family, Cura, Simplify3D, in that order).
 */
import { collectComments, textStart, type GcodeComments } from './gcode-text';
import { hasCuraKeys, isCura, readCura } from './cura';
import { hasPrusaFamilyKeys, identifyPrusaFamily, readPrusaFamily } from './prusa';
import { hasSimplify3dKeys, readSimplify3d } from './simplify3d';
import { SlicerReadError, type SlicerSummary } from './types';

/** `chunks`: whole lines of the file (its head and tail, see wholeLines). */
export function readGcodeBytes(chunks: Uint8Array[]): SlicerSummary {
  return readGcodeComments(collectComments(chunks), textStart(chunks));
}

export function readGcodeComments(comments: GcodeComments, start = ''): SlicerSummary {
  if (identifyPrusaFamily(comments)) return readPrusaFamily(comments);
  if (isCura(comments)) return readCura(comments);
  if (hasPrusaFamilyKeys(comments)) return readPrusaFamily(comments);
  if (hasCuraKeys(comments)) return readCura(comments);
  if (hasSimplify3dKeys(comments)) return readSimplify3d(comments);
  // G-code without any summary comment: say what is missing, not "unknown file".
  // `[ \t]*`, not `\s*`: `\s` spans newlines, and with `m` a run of blank lines was rescanned
  // from every one of its line starts (quadratic, issue 18 §1).
  if (comments.firstLines.length > 0 || /^[ \t]*[GM]\d/m.test(start)) {
    throw new SlicerReadError('noSummary');
  }
  throw new SlicerReadError('notSlicerFile');
}
