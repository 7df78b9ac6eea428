/**
 * A map whose entries expire after `ttlMs` (or sooner, per entry) and which keeps at most
 * `maxEntries`, dropping the least recently used first. Both page caches
 * (render-cache.server.ts, visitor-page-cache.server.ts) keep their pages in one.
 */
export class BoundedCache<V> {
  // A Map iterates in insertion order; re-inserting on use keeps the least recently used first.
  private entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly options: { maxEntries: number; ttlMs: number; now?: () => number }) {}

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
    if (entry.expires <= this.now()) return null;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** `ttlMs` shortens this entry's life below the cache's own limit (e.g. a response's max-age). */
  set(key: string, value: V, ttlMs = this.options.ttlMs) {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: this.now() + Math.min(ttlMs, this.options.ttlMs) });
    while (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  clear() {
    this.entries.clear();
  }
}
