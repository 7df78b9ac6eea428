import { describe, expect, it } from 'vitest';
import { pageCache } from '~/server/page-cache.server';

describe('pageCache', () => {
  it('drops the least recently used entry beyond its size', () => {
    const cache = pageCache<string[]>({ maxEntries: 2, ttlMs: 1000, maxBytes: 1000, sizeOf: () => 1 });
    cache.set('a', ['A']);
    cache.set('b', ['B']);
    expect(cache.get('a')).toEqual(['A']); // a is now the most recently used
    cache.set('c', ['C']);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual(['A']);
    expect(cache.get('c')).toEqual(['C']);
    expect(cache.size).toBe(2);
  });

  it('forgets an entry once its time is up', () => {
    let now = 1_000;
    const cache = pageCache<number[]>({ maxEntries: 5, ttlMs: 100, maxBytes: 1000, sizeOf: () => 1, now: () => now });
    cache.set('k', [1]);
    now = 1_099;
    expect(cache.get('k')).toEqual([1]);
    now = 1_101;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps within its byte budget, dropping the least recently used first, and never keeps one value larger than all of it', () => {
    const cache = pageCache<{ text: string }>({ maxEntries: 100, ttlMs: 1000, maxBytes: 10, sizeOf: (value) => value.text.length });
    cache.set('a', { text: 'aaaa' });
    cache.set('b', { text: 'bbbb' });
    expect(cache.calculatedSize).toBe(8);
    expect(cache.get('a')?.text).toBe('aaaa'); // b is now the least recently used
    cache.set('c', { text: 'cccc' });
    expect(cache.get('b')).toBeUndefined();
    expect(cache.calculatedSize).toBe(8);
    // Replacing a value counts its new size, not both.
    cache.set('a', { text: 'a' });
    expect(cache.calculatedSize).toBe(5);
    cache.set('huge', { text: 'x'.repeat(11) });
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')?.text).toBe('a');
    expect(cache.get('c')?.text).toBe('cccc');
    cache.clear();
    expect(cache.calculatedSize).toBe(0);
  });
});

describe('pageCache, as the visitor page cache uses it', () => {
  it('counts a changed value anew when it is set as a new object', () => {
    const cache = pageCache<{ parts: string[] }>({ maxEntries: 10, ttlMs: 1000, maxBytes: 100, sizeOf: (value) => value.parts.join('').length });
    const value = { parts: ['aa'] };
    cache.set('k', value);
    value.parts.push('bbbb');
    cache.set('k', { ...value });
    expect(cache.calculatedSize).toBe(6);
  });
});
