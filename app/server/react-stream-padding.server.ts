import { Transform } from 'node:stream';

/** React 18's server renderer writes through 2048-byte views (VIEW_SIZE in react-dom/server). */
export const REACT_VIEW_SIZE = 2048;

/**
 * Removes the NUL bytes React 18's streaming renderer leaves in its output.
 *
 * When a text does not fit the rest of its 2048-byte buffer, react-dom/server
 * (`writeStringChunk`) encodes what fits with `TextEncoder.encodeInto`, which
 * never writes half a character, and then sends the WHOLE buffer: when a
 * multi-byte character such as '€' straddles the boundary, the one to three
 * bytes it left unused go out as NULs (`<dd>0,3 \x00€</dd>` in /calculator).
 * React 19 sends only the written part. Such a chunk is exactly 2048 bytes
 * and ends in at most three zero bytes; nothing we render contains a NUL
 * (text rules refuse control characters), so trimming them is exact.
 */
export function trimReactEncoderPadding(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (chunk.length !== REACT_VIEW_SIZE || chunk[chunk.length - 1] !== 0) return callback(null, chunk);
      let end = chunk.length;
      while (end > chunk.length - 3 && chunk[end - 1] === 0) end--;
      callback(null, chunk.subarray(0, end));
    },
  });
}
