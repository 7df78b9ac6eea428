/**
 * A map whose entries expire after `ttlMs` (or sooner, per entry) and which keeps at most
 * `maxEntries` and, given `sizeOf`, at most `maxBytes`, dropping the least recently used
 * first. Both page caches (render-cache.server.ts, visitor-page-cache.server.ts) keep their
 * pages in one: by entries alone, a few hundred large pages could hold hundreds of MB per worker.
 */
export class BoundedCache<V> {
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  private entries = new Map<string, { value: V; expires: number; bytes: number }>();
  private totalBytes = 0;

  constructor(
    private readonly options: { maxEntries: number; ttlMs: number; maxBytes?: number; sizeOf?: (value: V) => number; now?: () => number },
  ) {}

  /** The bytes the entries hold, as `sizeOf` counts them (0 without it). */
  get bytes() {
    return this.totalBytes;
  }

  private now() {
    return (this.options.now ?? Date.now)();
  }

  get size() {
    return this.entries.size;
  }

  get(key: string): V | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    this.entries.delete(key);
    if (entry.expires <= this.now()) {
      this.totalBytes -= entry.bytes;
      return null;
    }
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * `ttlMs` shortens this entry's life below the cache's own limit (e.g. a response's max-age).
   * Call it again after changing a stored value in place, so its size is counted anew.
   */
  set(key: string, value: V, ttlMs = this.options.ttlMs) {
    this.delete(key);
    const bytes = this.options.sizeOf?.(value) ?? 0;
    // A value larger than the whole budget is not kept (it would push out everything else).
    if (this.options.maxBytes !== undefined && bytes > this.options.maxBytes) return;
    this.entries.set(key, { value, bytes, expires: this.now() + Math.min(ttlMs, this.options.ttlMs) });
    this.totalBytes += bytes;
    const maxBytes = this.options.maxBytes ?? Infinity;
    while (this.entries.size > this.options.maxEntries || this.totalBytes > maxBytes) this.delete(this.entries.keys().next().value!);
  }

  private delete(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
  }

  clear() {
    this.entries.clear();
    this.totalBytes = 0;
  }
}
