import type * as Evaluate from './evaluate';

export type LiveCalculator = typeof Evaluate;

let pending: Promise<LiveCalculator> | undefined;

/**
 * The schema and engine for recalculating in the browser, as a separate chunk:
 * the first render uses the server's result, so this is fetched only once the
 * visitor focuses or points at the form (and only once).
 */
export function loadLiveCalculator(): Promise<LiveCalculator> {
  pending ??= import('./evaluate');
  return pending;
}
