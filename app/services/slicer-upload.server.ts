import {
  unstable_composeUploadHandlers as composeUploadHandlers,
  unstable_createMemoryUploadHandler as createMemoryUploadHandler,
  unstable_parseMultipartFormData as parseMultipartFormData,
  type UploadHandler,
} from '@remix-run/node';
import { SLICER_HEAD_BYTES, SLICER_MAX_BYTES, SLICER_TAIL_BYTES, type SlicerSlices } from '~/slicer/types';

/** The multipart field that carries the slicer file (form and API alike). */
export const SLICER_FILE_FIELD = 'file';

/**
 * Keeps the first and the last bytes of a stream (a ring buffer for the
 * tail) and counts the rest: memory stays at head + tail whatever the size.
 */
export class HeadTailCollector {
  private readonly head = new Uint8Array(SLICER_HEAD_BYTES);
  private headLength = 0;
  private readonly ring = new Uint8Array(SLICER_TAIL_BYTES);
  private ringEnd = 0;
  size = 0;

  push(chunk: Uint8Array) {
    this.size += chunk.length;
    const toHead = Math.min(chunk.length, this.head.length - this.headLength);
    if (toHead > 0) {
      this.head.set(chunk.subarray(0, toHead), this.headLength);
      this.headLength += toHead;
    }
    // Everything goes into the tail ring too; only its last TAIL bytes survive.
    let rest = chunk.length > this.ring.length ? chunk.subarray(chunk.length - this.ring.length) : chunk;
    while (rest.length > 0) {
      const n = Math.min(rest.length, this.ring.length - (this.ringEnd % this.ring.length));
      const at = this.ringEnd % this.ring.length;
      this.ring.set(rest.subarray(0, n), at);
      this.ringEnd += n;
      rest = rest.subarray(n);
    }
  }

  slices(): SlicerSlices {
    const tailLength = Math.min(this.size, this.ring.length);
    const tail = new Uint8Array(tailLength);
    const end = this.ringEnd % this.ring.length;
    if (this.ringEnd <= this.ring.length) {
      tail.set(this.ring.subarray(this.ringEnd - tailLength, this.ringEnd));
    } else {
      tail.set(this.ring.subarray(end));
      tail.set(this.ring.subarray(0, end), this.ring.length - end);
    }
    return { size: this.size, head: this.head.subarray(0, this.headLength), tail };
  }
}

export type SlicerUpload =
  | { status: 'ok'; fields: Record<string, string>; file: SlicerSlices }
  | { status: 'missingFile'; fields: Record<string, string> }
  | { status: 'tooLarge' }
  | { status: 'badRequest' };

class UploadTooLarge extends Error {}

/**
 * Reads a multipart request as it streams: the text fields (small), and of
 * the file only its head and tail. Nothing is written anywhere; a file over
 * 1 GB stops the reading at that point.
 */
export async function readSlicerUpload(request: Request): Promise<SlicerUpload> {
  let file: HeadTailCollector | null = null;
  const fileHandler: UploadHandler = async ({ name, filename, data }) => {
    if (name !== SLICER_FILE_FIELD || filename === undefined) return undefined;
    const collector = new HeadTailCollector();
    for await (const chunk of data) {
      collector.push(chunk);
      if (collector.size > SLICER_MAX_BYTES) throw new UploadTooLarge();
    }
    // An empty file input still sends a part (no name, no bytes).
    if (collector.size > 0 || filename !== '') file = collector;
    return '';
  };
  let form: FormData;
  try {
    form = await parseMultipartFormData(
      request,
      composeUploadHandlers(fileHandler, createMemoryUploadHandler({ maxPartSize: 64 * 1024 })),
    );
  } catch (error) {
    return error instanceof UploadTooLarge ? { status: 'tooLarge' } : { status: 'badRequest' };
  }
  const fields: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === 'string' && key !== SLICER_FILE_FIELD) fields[key] = value;
  const collected = file as HeadTailCollector | null;
  return collected ? { status: 'ok', fields, file: collected.slices() } : { status: 'missingFile', fields };
}
