/**
 * `npx tsx scripts/bench-slicer-patterns.ts [runs]`: the real figures behind
 * tests/unit/slicer-pathological.test.ts (which only sets a 2 s ceiling). For each hostile input
 * (tests/fixtures/slicer/hostile-inputs.ts) the median time of `runs` runs (default 5) at the
 * test's size and at 8×, and their ratio (where the 1× time is over 0.5 ms; below, it is noise):
 * about 8 or less means linear, about 64 quadratic. Measure on a quiet machine.
 */
import { performance } from 'node:perf_hooks';
import { hostileCases } from '../tests/fixtures/slicer/hostile-inputs';

const runs = Math.max(1, Number(process.argv[2] ?? 5));
const SCALE = 8;

async function median(run: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const small = hostileCases(1);
const large = hostileCases(SCALE);
const width = Math.max(...small.map((entry) => entry.label.length));
console.log(`${'input'.padEnd(width)}  ${'1×'.padStart(9)}  ${`${SCALE}×`.padStart(9)}  growth`);
for (let i = 0; i < small.length; i++) {
  const one = await median(small[i].run);
  const many = await median(large[i].run);
  // Below half a millisecond the ratio is timer, JIT and GC noise (many inputs stop early at a length cap).
  const growth = one < 0.5 ? '–' : `${(many / one).toFixed(1)}×`;
  console.log(`${small[i].label.padEnd(width)}  ${one.toFixed(2).padStart(6)} ms  ${many.toFixed(2).padStart(6)} ms  ${growth}`);
}
