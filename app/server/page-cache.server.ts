import { LRUCache } from 'lru-cache';

/**
 * The bounds both page caches keep (render-cache.server.ts, visitor-page-cache.server.ts),
 * on lru-cache: at most `maxEntries` pages and `maxBytes` bytes as `sizeOf` counts them, each
 * for at most `ttlMs` (a `set` may ask for less), dropping the least recently used first; a
 * page larger than the whole byte budget is not kept. By entries alone, a few hundred large
 * pages could hold hundreds of MB per worker. A value changed in place is measured anew only
 * when it is set as a new object.
 */
export function pageCache<V extends object>(options: {
  maxEntries: number;
  ttlMs: number;
  maxBytes: number;
  sizeOf: (value: V) => number;
  now?: () => number;
}): LRUCache<string, V> {
  return new LRUCache<string, V>({
    max: options.maxEntries,
    ttl: options.ttlMs,
    maxSize: options.maxBytes,
    // lru-cache counts sizes from 1.
    sizeCalculation: (value) => Math.max(1, options.sizeOf(value)),
    // The clock is read at every look-up (a cached reading would outlive a test's clock).
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
}
