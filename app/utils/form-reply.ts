import type { SubmissionResult } from '@conform-to/react';

/**
 * A Conform reply echoes what was submitted, into the input and again into
 * the hydration data. A value longer than its field's rule is cut to that
 * length first: an oversized value gets its German message, never a page
 * carrying it twice.
 */
export function withBoundedValues<T extends SubmissionResult<string[]>>(reply: T, maxLengths: Record<string, number>, fallback = 1000): T {
  const initial = reply.initialValue;
  if (!initial) return reply;
  const clamp = (value: unknown, max: number): unknown =>
    typeof value === 'string' ? value.slice(0, max) : Array.isArray(value) ? value.map((item) => clamp(item, max)) : value;
  const bounded = Object.fromEntries(Object.entries(initial).map(([name, value]) => [name, clamp(value, maxLengths[name] ?? fallback)]));
  return { ...reply, initialValue: bounded };
}
