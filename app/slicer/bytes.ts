import { SlicerReadError, type SlicerSlices } from './types';

/**
 * Random access to a file that may be only partly at hand: a range inside
 * the head or the tail is served from there, anything else through `read`
 * (a browser Blob); without it the range is unavailable.
 */
export class ByteSource {
  constructor(private readonly slices: SlicerSlices) {}

  get size() {
    return this.slices.size;
  }

  get head() {
    return this.slices.head;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    const { head, tail, size, read } = this.slices;
    if (offset < 0 || length < 0 || offset + length > size) throw new SlicerReadError('zipDamaged');
    if (offset + length <= head.length) return head.subarray(offset, offset + length);
    const tailStart = size - tail.length;
    if (offset >= tailStart) return tail.subarray(offset - tailStart, offset - tailStart + length);
    if (read) {
      const bytes = await read(offset, length);
      if (bytes.length !== length) throw new SlicerReadError('zipDamaged');
      return bytes;
    }
    throw new SlicerReadError('zipPartUnavailable');
  }
}

export function u16(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8);
}

export function u32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16)) + bytes[at + 3] * 0x1000000;
}

export function u64(bytes: Uint8Array, at: number): number {
  // Offsets in files of at most 1 GB fit a double exactly.
  return u32(bytes, at) + u32(bytes, at + 4) * 0x100000000;
}

export function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

/**
 * Inflates `data` (a whole stream or only its beginning) with the platform's
 * DecompressionStream (browsers and Node alike), stopping after `maxOut`
 * bytes. A cut-off stream yields what it decoded so far; a broken one throws.
 */
export async function inflate(data: Uint8Array, format: 'deflate' | 'deflate-raw', maxOut: number, partial = false): Promise<Uint8Array> {
  const stream = new DecompressionStream(format);
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const CHUNK = 64 * 1024;
  const writing = (async () => {
    for (let i = 0; i < data.length; i += CHUNK) await writer.write(data.subarray(i, i + CHUNK) as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  writing.catch(() => {});
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < maxOut) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } catch {
    if (!partial || total === 0) throw new SlicerReadError('zipDamaged');
  } finally {
    reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(Math.min(total, maxOut));
  let at = 0;
  for (const chunk of chunks) {
    if (at >= out.length) break;
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}
