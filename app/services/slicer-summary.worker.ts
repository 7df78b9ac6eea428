/**
 * The worker thread behind slicer-summary.server.ts: reads one file's summary per message.
 * Loaded through tsx (plain TypeScript, relative imports only), never by the app's bundle.
 */
import { parentPort } from 'node:worker_threads';
import { readSlicerSummary } from '../slicer/index';
import type { SlicerSlices } from '../slicer/types';

type Job = { id: number; size: number; head: Uint8Array; tail: Uint8Array };

parentPort!.on('message', async (job: Job) => {
  const slices: SlicerSlices = { size: job.size, head: job.head, tail: job.tail };
  parentPort!.postMessage({ id: job.id, result: await readSlicerSummary(slices) });
});
parentPort!.postMessage({ ready: true });
