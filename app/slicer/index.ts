/**
 * `readSlicerSummary`: grams and print time from a sliced file, in the browser
 * (the file never leaves the machine) and on the server (no-JS upload, API).
 * Pure: no Node or DOM APIs beyond TextDecoder and DecompressionStream.
 *
 * The format is recognised by its first bytes, not by the file name:
 *   `PK\3\4`  → ZIP: `.gcode.3mf`/`.3mf` (bambu-3mf.ts) or `.ufp` (ufp.ts)
 *   `GCDE`    → PrusaSlicer binary G-code (bgcode.ts)
 *   an image  → refused with its own message (a renamed thumbnail is common)
 *   text      → plain G-code (gcode.ts: prusa.ts, cura.ts, simplify3d.ts)
 * It never throws: every failure is an error code for a German message.
 */
import { read3mf, is3mf } from './bambu-3mf';
import { BGCODE_MAGIC, readBgcode } from './bgcode';
import { SLICER_MAX_BYTES } from '../domain/limits';
import { ByteSource, startsWith } from './bytes';
import { readGcodeBytes } from './gcode';
import { wholeLines } from './gcode-text';
import {
  SLICER_HEAD_BYTES,
  SLICER_TAIL_BYTES,
  SlicerReadError,
  type SlicerInput,
  type SlicerReadResult,
  type SlicerSlices,
  type SlicerSummary,
} from './types';
import { readZippedGcode } from './ufp';
import { readZipDirectory } from './zip';

export * from './types';
export { printTimeParts } from './import-link';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ZIP_MAGIC = [0x50, 0x4b, 0x05, 0x06];
const IMAGE_MAGICS = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x42, 0x4d], // BMP
];

export async function readSlicerSummary(input: SlicerInput): Promise<SlicerReadResult> {
  const slices = toSlices(input);
  try {
    return { ok: true, summary: await read(slices) };
  } catch (error) {
    if (error instanceof SlicerReadError) return { ok: false, error: { code: error.code, ...(error.params ? { params: error.params } : {}) } };
    // A bug or a file shaped to break us: a message, never a crash.
    return { ok: false, error: { code: 'notSlicerFile' } };
  }
}

/** The whole file as slices: the readers see the same first and last bytes either way. */
function toSlices(input: SlicerInput): SlicerSlices {
  if (!(input instanceof Uint8Array)) return input;
  const bytes = input;
  return {
    size: bytes.length,
    head: bytes.subarray(0, SLICER_HEAD_BYTES),
    tail: bytes.subarray(Math.max(0, bytes.length - SLICER_TAIL_BYTES)),
    read: async (offset, length) => bytes.subarray(offset, offset + length),
  };
}

async function read(slices: SlicerSlices): Promise<SlicerSummary> {
  const { head, tail, size } = slices;
  if (size === 0 || head.length === 0) throw new SlicerReadError('empty');
  if (size > SLICER_MAX_BYTES) throw new SlicerReadError('tooLarge');
  const source = new ByteSource(slices);

  if (startsWith(head, ZIP_MAGIC) || startsWith(head, EMPTY_ZIP_MAGIC)) {
    const entries = await readZipDirectory(source);
    return is3mf(entries) ? read3mf(source, entries) : readZippedGcode(source, entries);
  }
  if (startsWith(head, BGCODE_MAGIC)) return readBgcode(source);
  if (IMAGE_MAGICS.some((magic) => startsWith(head, magic)) || isWebp(head)) throw new SlicerReadError('image');
  if (looksBinary(head)) throw new SlicerReadError('notSlicerFile');
  return readGcodeBytes(wholeLines(head, tail, size));
}

function isWebp(bytes: Uint8Array) {
  return startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP';
}

/** G-code is text: NUL or many control bytes in its first 4 kB mean something else. */
function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 4096);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return control > sample.length / 20;
}
