import { describe, expect, it } from 'vitest';
import { BoundedCache } from '~/server/bounded-cache.server';

describe('BoundedCache', () => {
  it('drops the least recently used entry beyond its size', () => {
    const cache = new BoundedCache<string>({ maxEntries: 2, ttlMs: 1000 });
    cache.set('a', 'A');
    cache.set('b', 'B');
    expect(cache.get('a')).toBe('A'); // a is now the most recently used
    cache.set('c', 'C');
    expect(cache.get('b')).toBeNull();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.size).toBe(2);
  });

  it('forgets an entry once its time is up', () => {
    let now = 0;
    const cache = new BoundedCache<number>({ maxEntries: 5, ttlMs: 100, now: () => now });
    cache.set('k', 1);
    now = 99;
    expect(cache.get('k')).toBe(1);
    now = 100;
    expect(cache.get('k')).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('keeps within its byte budget, dropping the least recently used first, and never keeps one value larger than all of it', () => {
    const cache = new BoundedCache<string>({ maxEntries: 100, ttlMs: 1000, maxBytes: 10, sizeOf: (value) => value.length });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.bytes).toBe(8);
    expect(cache.get('a')).toBe('aaaa'); // b is now the least recently used
    cache.set('c', 'cccc');
    expect(cache.get('b')).toBeNull();
    expect(cache.bytes).toBe(8);
    // Replacing a value counts its new size, not both.
    cache.set('a', 'a');
    expect(cache.bytes).toBe(5);
    cache.set('huge', 'x'.repeat(11));
    expect(cache.get('huge')).toBeNull();
    expect(cache.get('a')).toBe('a');
    expect(cache.get('c')).toBe('cccc');
    cache.clear();
    expect(cache.bytes).toBe(0);
  });
});
