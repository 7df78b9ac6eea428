import { MULTIPART_FIELD_MAX_BYTES } from '../domain/limits';

/**
 * The one multipart/form-data reader (slicer import, product image, profile
 * picture): it reads the body as it streams, keeps the text fields (each
 * capped) and hands the bytes of one named file field to a collector, which
 * decides what stays in memory (all of a capped image, or only the head and
 * tail of a slicer file). Every other file part is skipped unread; the whole
 * body counts toward `maxBodyBytes`, so nothing here grows with the upload.
 *
 * Our own small parser rather than Remix's `unstable_parseMultipartFormData`
 * or `request.formData()`: those search for the boundary in JavaScript (3,3 s
 * per 100 MB here) or keep the whole body; Buffer.indexOf (native) makes the
 * upload as fast as the socket. The caps come from app/domain/limits.ts.
 */

/** Where a file's bytes go; `push` is only called while the file is within its cap. */
export type FileCollector = { push(chunk: Uint8Array): void };

export type MultipartRules<C extends FileCollector> = {
  /** The file field that is read (its first non-empty file part); other file parts are skipped. */
  file: {
    name: string;
    maxBytes: number;
    collect: () => C;
    /**
     * Over `maxBytes`: `stop` refuses the body at once (`tooLarge`); `skip`
     * drops the file, reads the rest and reports `fileTooLarge`, so a page
     * can answer with what was typed.
     */
    whenTooLarge: 'stop' | 'skip';
  };
  /** The whole body, file, texts and skipped parts together. */
  maxBodyBytes: number;
};

export type MultipartRead<C> =
  | {
      status: 'ok';
      /** The text fields in the order sent (a name may repeat, as in a FormData). */
      fields: [string, string][];
      /** The file's collector and size, null when no non-empty file came (or it was over its cap). */
      file: { collector: C; size: number } | null;
      fileTooLarge: boolean;
    }
  | { status: 'tooLarge' }
  | { status: 'badRequest' };

const MAX_FIELDS = 200;
const MAX_HEADER_BYTES = 16 * 1024;

class BadBody extends Error {
  constructor(readonly status: 'tooLarge' | 'badRequest') {
    super(status);
  }
}

/** Keeps all of a file (the caller's cap bounds it). */
export class BytesCollector implements FileCollector {
  private readonly chunks: Buffer[] = [];
  push(chunk: Uint8Array) {
    this.chunks.push(Buffer.from(chunk));
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** The first value of each text field (what `FormData.get` gives). */
export function firstValues(fields: [string, string][]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of fields) if (!(name in values)) values[name] = value;
  return values;
}

/** The text fields as a FormData, for the schema helpers that read one. */
export function toFormData(fields: [string, string][]): FormData {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

export function isMultipart(request: Request): boolean {
  return request.headers.get('content-type')?.toLowerCase().startsWith('multipart/form-data') ?? false;
}

/**
 * Reads a multipart/form-data request by `rules`. A body that is not
 * multipart, is cut off or malformed is `badRequest`; one over its limits
 * `tooLarge` (the file's with `stop`, the body's always).
 */
export async function readMultipart<C extends FileCollector>(request: Request, rules: MultipartRules<C>): Promise<MultipartRead<C>> {
  const type = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(request.headers.get('content-type') ?? '');
  if (!type || !request.body) return { status: 'badRequest' };
  try {
    return await parse(request.body as unknown as AsyncIterable<Uint8Array>, type[1] ?? type[2], rules);
  } catch (error) {
    if (error instanceof BadBody) return { status: error.status };
    return { status: 'badRequest' };
  }
}

/** A part being read: the file (to its collector), a text field, or another file (skipped). */
type Part<C> = { name: string; file: { collector: C; size: number } | null; skip: boolean; text: Buffer[]; textLength: number };

async function parse<C extends FileCollector>(body: AsyncIterable<Uint8Array>, boundary: string, rules: MultipartRules<C>): Promise<MultipartRead<C>> {
  // Every boundary but the first follows a CRLF; starting the buffer with one makes them all alike.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const headerEnd = Buffer.from('\r\n\r\n');
  let buffer: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let epilogue = 0;
  let part: Part<C> | null = null;
  let file: { collector: C; size: number } | null = null;
  let fileTooLarge = false;
  const fields: [string, string][] = [];
  let partCount = 0;
  let received = 0;

  const write = (bytes: Buffer) => {
    if (!part || part.skip || bytes.length === 0) return;
    if (part.file) {
      part.file.size += bytes.length;
      if (part.file.size > rules.file.maxBytes) {
        if (rules.file.whenTooLarge === 'stop') throw new BadBody('tooLarge');
        // The file is dropped (its bytes so far freed) and the rest of it read past.
        fileTooLarge = true;
        part.file = null;
        part.skip = true;
        return;
      }
      part.file.collector.push(bytes);
    } else {
      part.textLength += bytes.length;
      // A text over the form limit is what an urlencoded body of that size is: too large (413).
      if (part.textLength > MULTIPART_FIELD_MAX_BYTES) throw new BadBody('tooLarge');
      part.text.push(Buffer.from(bytes));
    }
  };
  const finish = () => {
    if (!part) return;
    if (part.file) {
      // An empty file input still sends a part, with no bytes.
      if (part.file.size > 0) file = part.file;
    } else if (!part.skip && part.name) {
      fields.push([part.name, Buffer.concat(part.text).toString('utf8')]);
    }
    part = null;
  };

  let failure: BadBody | null = null;
  for await (const chunk of body) {
    received += chunk.length;
    if (received > rules.maxBodyBytes) throw new BadBody('tooLarge');
    // Once refused, the rest (within maxBodyBytes) is read and dropped: answering before the
    // body's end would reset the connection, and the browser would show no answer at all.
    if (failure) continue;
    try {
      // After the closing delimiter the rest is read and dropped: leaving the loop early
      // would cancel the request stream and reset the connection before the answer.
      if (state === 'done') {
        epilogue += chunk.length;
        if (epilogue > MAX_HEADER_BYTES) throw new BadBody('badRequest');
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
          if (buffer[0] !== 13 || buffer[1] !== 10) throw new BadBody('badRequest');
          buffer = buffer.subarray(2);
          state = 'headers';
        }
        if (state === 'headers') {
          const at = buffer.indexOf(headerEnd);
          if (at === -1) {
            if (buffer.length > MAX_HEADER_BYTES) throw new BadBody('badRequest');
            break;
          }
          const headers = buffer.subarray(0, at).toString('utf8');
          buffer = buffer.subarray(at + headerEnd.length);
          const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? '';
          const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
          const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
          if (++partCount > MAX_FIELDS) throw new BadBody('badRequest');
          // Only the first file of the field is read (and none after one was too large); any other file part is skipped unread.
          const isTheFile = name === rules.file.name && filename !== undefined && !file && !fileTooLarge;
          part = {
            name,
            file: isTheFile ? { collector: rules.file.collect(), size: 0 } : null,
            skip: filename !== undefined && !isTheFile,
            text: [],
            textLength: 0,
          };
          state = 'body';
        }
      }
    } catch (error) {
      if (!(error instanceof BadBody)) throw error;
      failure = error;
      part = null;
      buffer = Buffer.alloc(0);
    }
  }
  if (failure) throw failure;
  // Ended before the closing delimiter: a cut-off upload.
  if (state !== 'done') throw new BadBody('badRequest');
  return { status: 'ok', fields, file, fileTooLarge };
}
