/**
 * Maps a long list in batches and lets the event loop run between them, so one user's
 * large library (thousands of projects priced by the engine) never holds up the other
 * requests of the process for long. `onBatch` is told after each batch (tests count them).
 */
export async function mapInBatches<T, R>(
  items: readonly T[],
  fn: (item: T) => R,
  { batchSize = 200, onBatch }: { batchSize?: number; onBatch?: () => void } = {},
): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += batchSize) {
    if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const item of items.slice(start, start + batchSize)) out.push(fn(item));
    onBatch?.();
  }
  return out;
}
