import { SLICER_HEAD_BYTES, SLICER_TAIL_BYTES, type SlicerSlices } from './types';

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
