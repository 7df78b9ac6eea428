/**
 * Work that runs after the answer has been sent, so the answer's timing says
 * nothing about it (forgot password: whether the address has an account).
 * Failures are logged; `settleBackgroundWork` lets tests and shutdown wait.
 */
const pending = new Set<Promise<unknown>>();

export function runAfterAnswer(label: string, task: () => Promise<unknown>): void {
  // setImmediate: the request handler returns (and its answer is written) before the task starts.
  const promise = new Promise<void>((resolve) => setImmediate(resolve))
    .then(task)
    .catch((error) => console.error(`[${label}]`, error))
    .finally(() => pending.delete(promise));
  pending.add(promise);
}

export async function settleBackgroundWork(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}
