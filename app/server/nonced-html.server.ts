import zlib from 'node:zlib';

/**
 * A rendered page cut at every occurrence of its CSP nonce, so a stored copy
 * can be sent again with another response's nonce by joining bytes, without
 * searching or re-encoding text. The nonce is 16 random bytes, so page content
 * never contains it by chance.
 */
export type NoncedHtml = readonly Buffer[];

export function splitAtNonce(html: Buffer, nonce: string): NoncedHtml {
  if (!nonce) return [html];
  const needle = Buffer.from(nonce);
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = html.indexOf(needle); at !== -1; at = html.indexOf(needle, start)) {
    parts.push(html.subarray(start, at));
    start = at + needle.length;
  }
  parts.push(html.subarray(start));
  return parts;
}

/**
 * What a stored page holds in memory, for the caches' byte budgets: its bytes,
 * and the gzip pieces deflated from them on the first reuse (HTML compresses to
 * well under a third; counted as a third).
 */
export function storedBytes(parts: NoncedHtml): number {
  let bytes = 0;
  for (const part of parts) bytes += part.length;
  return Math.ceil(bytes * (4 / 3));
}

export function joinWithNonce(parts: NoncedHtml, nonce: string): Buffer {
  if (parts.length === 1) return parts[0];
  const needle = Buffer.from(nonce);
  const pieces: Buffer[] = [];
  parts.forEach((part, index) => {
    if (index > 0) pieces.push(needle);
    pieces.push(part);
  });
  return Buffer.concat(pieces);
}

type Encoding = 'gzip' | 'br' | null;

/**
 * A stored page, with this response's nonce, compressed for the client's
 * Accept-Encoding.
 *
 * gzip is preferred: each part of the page is deflated once, at a high level,
 * the first time the page is sent again, and every later response only joins
 * those pieces around its nonce (sent as an uncompressed deflate block) and
 * adds the checksum. That costs a few microseconds instead of compressing
 * ~100 KB per hit, and the result is smaller than brotli at the quality a
 * per-response compression could afford. Clients that accept brotli but not
 * gzip get brotli at quality 1, the fastest setting browsers accept.
 */
export function compressHtml(parts: NoncedHtml, nonce: string, acceptEncoding: string | null | undefined): { encoding: Encoding; body: Buffer } {
  const accepts = acceptedCodings(acceptEncoding ?? '');
  if (accepts('gzip')) return { encoding: 'gzip', body: gzipWithNonce(parts, nonce) };
  const html = joinWithNonce(parts, nonce);
  if (accepts('br')) {
    const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length };
    return { encoding: 'br', body: zlib.brotliCompressSync(html, { params }) };
  }
  return { encoding: null, body: html };
}

/**
 * Whether an Accept-Encoding header allows a coding (RFC 9110 §12.5.3): listed
 * with a weight above 0, or not listed while `*` is; `gzip;q=0` refuses it.
 */
export function acceptedCodings(header: string): (coding: string) => boolean {
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return (coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
}

// Raw deflate of each part, each ending byte-aligned (a sync flush), so pieces can be joined (RFC 1951).
const deflatedParts = new WeakMap<NoncedHtml, Buffer[]>();

function deflateParts(parts: NoncedHtml): Buffer[] {
  let deflated = deflatedParts.get(parts);
  if (!deflated) {
    deflated = parts.map((part) => zlib.deflateRawSync(part, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    deflatedParts.set(parts, deflated);
  }
  return deflated;
}

// RFC 1952: magic, deflate, no flags, no time, no extra flags, unknown OS.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
// The last block: final, stored, empty.
const FINAL_EMPTY_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

/** A stored (uncompressed), non-final deflate block; the stream is byte-aligned before it. */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block[0] = 0;
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

let crcTable: Uint32Array | undefined;
/** CRC-32 as gzip uses it, continuing from `crc`: for Node 20 releases before 20.15, which lack zlib.crc32. */
export function crc32WithTable(bytes: Buffer, crc: number): number {
  crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = ~crc >>> 0;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}
// package.json allows any Node 20.
const crc32: (bytes: Buffer, crc: number) => number = typeof zlib.crc32 === 'function' ? zlib.crc32 : crc32WithTable;

export function gzipWithNonce(parts: NoncedHtml, nonce: string): Buffer {
  const deflated = deflateParts(parts);
  const needle = storedBlock(Buffer.from(nonce));
  const nonceBytes = Buffer.from(nonce);
  const pieces: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  parts.forEach((part, index) => {
    if (index > 0) {
      pieces.push(needle);
      crc = crc32(nonceBytes, crc);
      size += nonceBytes.length;
    }
    pieces.push(deflated[index]);
    crc = crc32(part, crc);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  pieces.push(FINAL_EMPTY_BLOCK, trailer);
  return Buffer.concat(pieces);
}
