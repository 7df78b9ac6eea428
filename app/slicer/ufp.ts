/**
 * UltiMaker Format Package (`.ufp`, a ZIP): the G-code is `/3D/model.gcode`,
 * read by its Cura/Griffin header (see cura.ts). Any other ZIP with a
 * `.gcode` entry is read the same way.
 */
import { ByteSource } from './bytes';
import { readGcodeBytes } from './gcode';
import { wholeLines } from './gcode-text';
import { SLICER_HEAD_BYTES, SlicerReadError, type SlicerSummary } from './types';
import { readZipEntry, type ZipEntry } from './zip';

export async function readZippedGcode(source: ByteSource, entries: ZipEntry[]): Promise<SlicerSummary> {
  const gcode = entries.find((entry) => entry.name === '3D/model.gcode') ?? entries.find((entry) => /\.gcode$/i.test(entry.name));
  if (!gcode) throw new SlicerReadError('zipNoGcode');
  const head = await readZipEntry(source, gcode, SLICER_HEAD_BYTES);
  return readGcodeBytes(wholeLines(head, new Uint8Array(), Math.max(gcode.size, head.length)));
}
