/**
 * Reading a chosen or dropped file in the browser: only its first and last
 * few MB are read (Blob.slice), plus, for a ZIP, the directory and the
 * entries wanted. Loaded lazily, when a file is chosen, together with what
 * turns the result into form values and the notice.
 */
import { readSlicerSummary } from './index';
import { SLICER_HEAD_BYTES, SLICER_MAX_BYTES, SLICER_TAIL_BYTES, type SlicerReadResult } from './types';

export { importedFieldValues, importInfoFromSummary } from './import-link';
export { buildImportView } from './import-view';

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

export async function readSlicerFile(file: Blob): Promise<SlicerReadResult> {
  const size = file.size;
  if (size > SLICER_MAX_BYTES) return { ok: false, error: { code: 'tooLarge' } };
  const head = await bytesOf(file.slice(0, SLICER_HEAD_BYTES));
  const tail = size <= head.length ? head : await bytesOf(file.slice(Math.max(0, size - SLICER_TAIL_BYTES), size));
  return readSlicerSummary({ size, head, tail, read: async (offset, length) => bytesOf(file.slice(offset, offset + length)) });
}
