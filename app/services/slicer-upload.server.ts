import { SLICER_MAX_BYTES } from '~/domain/limits';
import { SLICER_HEAD_BYTES, SLICER_TAIL_BYTES, type SlicerSlices } from '~/slicer/types';

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

const MAX_FIELD_BYTES = 64 * 1024;
/** What a body may carry beside the slicer file (its fields, part headers, skipped parts): the request guard's allowance. */
const BODY_OVERHEAD_BYTES = 1024 * 1024;
const MAX_FIELDS = 200;
const MAX_HEADER_BYTES = 16 * 1024;

class BadUpload extends Error {
  constructor(readonly status: 'tooLarge' | 'badRequest') {
    super(status);
  }
}

/**
 * Reads a multipart/form-data request as it streams: the text fields (small,
 * capped), and of the file field only its head and tail. Nothing is written
 * anywhere, and a file over 1 GB stops the reading there.
 *
 * Our own small parser rather than Remix's `unstable_parseMultipartFormData`:
 * that one searches for the boundary in JavaScript and took 3,3 s per 100 MB
 * here; Buffer.indexOf (native) makes the upload as fast as the socket.
 */
export async function readSlicerUpload(request: Request, maxBytes = SLICER_MAX_BYTES): Promise<SlicerUpload> {
  const type = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(request.headers.get('content-type') ?? '');
  if (!type || !request.body) return { status: 'badRequest' };
  try {
    return await parse(request.body as unknown as AsyncIterable<Uint8Array>, type[1] ?? type[2], maxBytes);
  } catch (error) {
    if (error instanceof BadUpload) return { status: error.status };
    return { status: 'badRequest' };
  }
}

/** A part being read: the slicer file (head and tail kept), a text field, or another file (skipped). */
type Part = { name: string; file: HeadTailCollector | null; skip: boolean; text: Buffer[]; textLength: number };

async function parse(body: AsyncIterable<Uint8Array>, boundary: string, maxBytes: number): Promise<SlicerUpload> {
  // Every boundary but the first follows a CRLF; starting the buffer with one makes them all alike.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const headerEnd = Buffer.from('\r\n\r\n');
  let buffer: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let epilogue = 0;
  let part: Part | null = null;
  let file: HeadTailCollector | null = null;
  const fields: Record<string, string> = {};
  let fieldCount = 0;
  // The limit counts the whole body: a second file part is skipped, not free (it was read unbounded).
  const maxBodyBytes = maxBytes + BODY_OVERHEAD_BYTES;
  let received = 0;

  const write = (bytes: Buffer) => {
    if (!part || part.skip || bytes.length === 0) return;
    if (part.file) {
      part.file.push(bytes);
      if (part.file.size > maxBytes) throw new BadUpload('tooLarge');
    } else {
      part.textLength += bytes.length;
      if (part.textLength > MAX_FIELD_BYTES) throw new BadUpload('badRequest');
      part.text.push(Buffer.from(bytes));
    }
  };
  const finish = () => {
    if (!part) return;
    if (part.file) {
      // An empty file input still sends a part, with no name and no bytes.
      if (part.file.size > 0) file = part.file;
    } else if (!part.skip && part.name && !(part.name in fields)) {
      fields[part.name] = Buffer.concat(part.text).toString('utf8');
    }
    part = null;
  };

  for await (const chunk of body) {
    received += chunk.length;
    if (received > maxBodyBytes) throw new BadUpload('tooLarge');
    // After the closing delimiter the rest is read and dropped: leaving the loop early
    // would cancel the request stream and reset the connection before the answer.
    if (state === 'done') {
      epilogue += chunk.length;
      if (epilogue > MAX_HEADER_BYTES) throw new BadUpload('badRequest');
      continue;
    }
    buffer = buffer.length > 0 ? Buffer.concat([buffer, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      if (state === 'preamble' || state === 'body') {
        const at = buffer.indexOf(delimiter);
        if (at === -1) {
          // Keep what could be the start of a delimiter cut by the chunk edge.
          const safe = Math.max(0, buffer.length - (delimiter.length - 1));
          if (state === 'body') write(buffer.subarray(0, safe));
          buffer = Buffer.from(buffer.subarray(safe));
          break;
        }
        if (state === 'body') {
          write(buffer.subarray(0, at));
          finish();
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = 'delimiter';
      }
      if (state === 'delimiter') {
        if (buffer.length < 2) break;
        if (buffer[0] === 45 && buffer[1] === 45) {
          // `--`: the closing delimiter.
          state = 'done';
          break;
        }
        if (buffer[0] !== 13 || buffer[1] !== 10) throw new BadUpload('badRequest');
        buffer = buffer.subarray(2);
        state = 'headers';
      }
      if (state === 'headers') {
        const at = buffer.indexOf(headerEnd);
        if (at === -1) {
          if (buffer.length > MAX_HEADER_BYTES) throw new BadUpload('badRequest');
          break;
        }
        const headers = buffer.subarray(0, at).toString('utf8');
        buffer = buffer.subarray(at + headerEnd.length);
        const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
        const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
        const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
        if (++fieldCount > MAX_FIELDS) throw new BadUpload('badRequest');
        const isSlicerFile = name === SLICER_FILE_FIELD && filename !== undefined && !file;
        // Only the first slicer file is read; any other file part is skipped unread.
        part = { name, file: isSlicerFile ? new HeadTailCollector() : null, skip: filename !== undefined && !isSlicerFile, text: [], textLength: 0 };
        state = 'body';
      }
    }
  }
  // Ended before the closing delimiter: a cut-off upload.
  if (state !== 'done') throw new BadUpload('badRequest');
  const collected = file as HeadTailCollector | null;
  return collected ? { status: 'ok', fields, file: collected.slices() } : { status: 'missingFile', fields };
}
