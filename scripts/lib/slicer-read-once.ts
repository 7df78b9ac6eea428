/**
 * One summary read of the file named on the command line, as the server does
 * it (first and last 4 MB); prints the time and this process's peak RSS as JSON.
 * Run by scripts/lib/slicer-bench.ts in its own process.
 */
import { open } from 'node:fs/promises';
import { readSlicerSummary } from '../../app/slicer/index';
import { SLICER_HEAD_BYTES, SLICER_TAIL_BYTES } from '../../app/slicer/types';

const file = process.argv[2];
const rssBeforeMb = process.memoryUsage().rss / 1024 / 1024;
const started = performance.now();
const handle = await open(file, 'r');
const { size } = await handle.stat();
const head = new Uint8Array(Math.min(size, SLICER_HEAD_BYTES));
await handle.read(head, 0, head.length, 0);
const tail = new Uint8Array(Math.min(size, SLICER_TAIL_BYTES));
await handle.read(tail, 0, tail.length, size - tail.length);
await handle.close();
const result = await readSlicerSummary({ size, head, tail });
const ms = performance.now() - started;
if (!result.ok) throw new Error(`read failed: ${result.error.code}`);
// maxRSS is in kB.
const peakRssMb = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ ms, rssBeforeMb, peakRssMb, grams: result.summary.filamentGrams, seconds: result.summary.printSeconds }));
