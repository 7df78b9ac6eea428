import { SLICER_BODY_OVERHEAD_BYTES, SLICER_MAX_BYTES } from '../domain/limits';
import { HeadTailCollector } from '../slicer/head-tail-collector';
import type { SlicerUpload } from '../slicer/types';
import { firstValues, readMultipart } from './multipart.server';

/** The multipart field that carries the slicer file (form and API alike). */
export const SLICER_FILE_FIELD = 'file';

/**
 * Reads a slicer upload as it streams (app/web/multipart.server.ts): the text
 * fields, and of the file only its head and tail. Nothing is written anywhere,
 * and a file over `maxBytes` (1 GB) stops the reading there; the whole body may
 * carry 1 MB more (a second file part is skipped, not free).
 */
export async function readSlicerUpload(request: Request, maxBytes = SLICER_MAX_BYTES): Promise<SlicerUpload> {
  const read = await readMultipart(request, {
    file: { name: SLICER_FILE_FIELD, maxBytes, collect: () => new HeadTailCollector(), whenTooLarge: 'stop' },
    maxBodyBytes: maxBytes + SLICER_BODY_OVERHEAD_BYTES,
  });
  if (read.status !== 'ok') return read;
  const fields = firstValues(read.fields);
  return read.file ? { status: 'ok', fields, file: read.file.collector.slices() } : { status: 'missingFile', fields };
}
