import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SlicerReadResult, SlicerSlices } from '~/slicer/types';

/**
 * The server's slicer summary, off the request's event loop and within a time budget (issue 18 §1).
 *
 * The readers are linear in their input, but a reader is parser code that takes files from
 * strangers: should a future change bring back a pattern that takes seconds, it costs one thread
 * that is ended after SUMMARY_BUDGET_MS, not the worker process and every request it serves.
 * A summary of a 500 MB G-code takes ~25 ms; the budget leaves a busy machine ample room.
 *
 * Threads are started on demand (about 0,2 s, before the budget starts), at most
 * MAX_THREADS per process at once (further files wait their turn), and one is kept warm.
 */
export const SUMMARY_BUDGET_MS = 3_000;
const MAX_THREADS = 2;

type Thread = { worker: Worker; ready: Promise<void> };

let idle: Thread | null = null;
let running = 0;
const waiting: (() => void)[] = [];
let nextId = 1;

export async function summarizeSlicerFile(slices: SlicerSlices, budgetMs = SUMMARY_BUDGET_MS): Promise<SlicerReadResult> {
  if (running >= MAX_THREADS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    const thread = idle ?? startThread();
    idle = null;
    await thread.ready;
    const outcome = await runJob(thread, slices, budgetMs);
    if (outcome.keep && !idle) idle = thread;
    else void thread.worker.terminate();
    return outcome.result;
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function runJob(thread: Thread, slices: SlicerSlices, budgetMs: number): Promise<{ result: SlicerReadResult; keep: boolean }> {
  const id = nextId++;
  // Copies, so that transferring them leaves the caller's buffers intact.
  const head = slices.head.slice();
  const tail = slices.tail.slice();
  return new Promise((resolve) => {
    const done = (result: SlicerReadResult, keep: boolean) => {
      clearTimeout(timer);
      thread.worker.off('message', onMessage);
      thread.worker.off('error', onError);
      resolve({ result, keep });
    };
    const onMessage = (message: { id?: number; result?: SlicerReadResult }) => {
      if (message.id === id && message.result) done(message.result, true);
    };
    const onError = (error: Error) => {
      console.error(`[slicer] summary thread failed: ${error.message}`);
      done({ ok: false, error: { code: 'notSlicerFile' } }, false);
    };
    const timer = setTimeout(() => {
      console.error(`[slicer] summary of a ${slices.size}-byte file took over ${budgetMs} ms; thread ended`);
      done({ ok: false, error: { code: 'tooSlow' } }, false);
    }, budgetMs);
    thread.worker.on('message', onMessage);
    thread.worker.on('error', onError);
    thread.worker.postMessage({ id, size: slices.size, head, tail }, [head.buffer, tail.buffer]);
  });
}

function startThread(): Thread {
  const worker = newWorker();
  // A thread never keeps the process alive (shutdown, tests).
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (!message.ready) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
  return { worker, ready };
}

/**
 * The thread's module: from the sources through tsx where tsx is installed (`npm start`, tests),
 * else the plain JavaScript that `npm run build:scripts` made (the production image ships no
 * TypeScript runner). Both are found from this module upwards, which works from the sources and
 * from the built server in build/server/.
 */
const SOURCE_PATH = path.join('app', 'services', 'slicer-summary.worker.ts');
const COMPILED_PATH = path.join('build', 'scripts', 'slicer-summary-worker.js');

function newWorker(): Worker {
  const tsxApi = resolveOrNull('tsx/esm/api');
  const source = tsxApi ? findUpwards(SOURCE_PATH) : null;
  if (tsxApi && source) {
    const url = JSON.stringify(pathToFileURL(source).href);
    return new Worker(`import(${JSON.stringify(pathToFileURL(tsxApi).href)}).then(({ tsImport }) => tsImport(${url}, ${url}))`, { eval: true });
  }
  const compiled = findUpwards(COMPILED_PATH);
  if (!compiled) throw new Error(`neither tsx with ${SOURCE_PATH} nor ${COMPILED_PATH} (npm run build:scripts) found`);
  return new Worker(compiled);
}

function findUpwards(relative: string): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}

function resolveOrNull(specifier: string): string | null {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    return null;
  }
}
