/**
 * A small ZIP reader: the end-of-central-directory record (ZIP64 too), the
 * central directory, and one entry's bytes (stored or deflated). Enough for
 * `.gcode.3mf` and `.ufp`, which are ZIP containers; it reads only the
 * directory and the entries asked for, never the whole archive.
 */
import { ByteSource, inflate, u16, u32, u64 } from './bytes';
import { SlicerReadError } from './types';

export type ZipEntry = { name: string; method: number; compressedSize: number; size: number; localOffset: number };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_COMMENT = 0xffff;

export async function readZipDirectory(source: ByteSource): Promise<ZipEntry[]> {
  const searchLength = Math.min(source.size, 22 + MAX_COMMENT);
  const end = await source.read(source.size - searchLength, searchLength);
  let at = -1;
  for (let i = end.length - 22; i >= 0; i--) {
    if (u32(end, i) === EOCD) {
      at = i;
      break;
    }
  }
  // A cut-off download has no end record.
  if (at === -1) throw new SlicerReadError('zipDamaged');
  let count = u16(end, at + 10);
  let directorySize = u32(end, at + 12);
  let directoryOffset = u32(end, at + 16);
  if (directoryOffset === 0xffffffff || count === 0xffff || directorySize === 0xffffffff) {
    if (at < 20 || u32(end, at - 20) !== ZIP64_LOCATOR) throw new SlicerReadError('zipDamaged');
    const recordOffset = u64(end, at - 20 + 8);
    const record = await source.read(recordOffset, 56);
    if (u32(record, 0) !== ZIP64_EOCD) throw new SlicerReadError('zipDamaged');
    count = u64(record, 32);
    directorySize = u64(record, 40);
    directoryOffset = u64(record, 48);
  }
  if (directoryOffset + directorySize > source.size || count > 100_000) throw new SlicerReadError('zipDamaged');
  const directory = await source.read(directoryOffset, directorySize);
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > directory.length || u32(directory, p) !== CENTRAL) throw new SlicerReadError('zipDamaged');
    const nameLength = u16(directory, p + 28);
    const extraLength = u16(directory, p + 30);
    const commentLength = u16(directory, p + 32);
    const entry: ZipEntry = {
      method: u16(directory, p + 10),
      compressedSize: u32(directory, p + 20),
      size: u32(directory, p + 24),
      localOffset: u32(directory, p + 42),
      name: decoder.decode(directory.subarray(p + 46, p + 46 + nameLength)),
    };
    readZip64Extra(directory.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), entry);
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** ZIP64 extra field (id 1): the 64-bit values of those fields that read 0xFFFFFFFF, in this order. */
function readZip64Extra(extra: Uint8Array, entry: ZipEntry) {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = u16(extra, p);
    const length = u16(extra, p + 2);
    if (id === 1) {
      let q = p + 4;
      if (entry.size === 0xffffffff) {
        entry.size = u64(extra, q);
        q += 8;
      }
      if (entry.compressedSize === 0xffffffff) {
        entry.compressedSize = u64(extra, q);
        q += 8;
      }
      if (entry.localOffset === 0xffffffff) entry.localOffset = u64(extra, q);
      return;
    }
    p += 4 + length;
  }
}

/**
 * An entry's bytes, at most `maxBytes` of them: a whole small file, or only
 * the beginning of a large one (a G-code header).
 */
export async function readZipEntry(source: ByteSource, entry: ZipEntry, maxBytes: number): Promise<Uint8Array> {
  const local = await source.read(entry.localOffset, 30);
  if (u32(local, 0) !== LOCAL) throw new SlicerReadError('zipDamaged');
  const dataOffset = entry.localOffset + 30 + u16(local, 26) + u16(local, 28);
  const wantsAll = entry.size <= maxBytes;
  if (entry.method === 0) {
    return source.read(dataOffset, Math.min(entry.size, maxBytes));
  }
  if (entry.method !== 8) throw new SlicerReadError('zipUnsupported', { method: entry.method });
  // G-code deflates to well under half its size, so this many compressed bytes yield maxBytes.
  const compressed = await source.read(dataOffset, wantsAll ? entry.compressedSize : Math.min(entry.compressedSize, maxBytes));
  const bytes = await inflate(compressed, 'deflate-raw', maxBytes, !wantsAll);
  if (wantsAll && bytes.length !== entry.size) throw new SlicerReadError('zipDamaged');
  return bytes;
}
