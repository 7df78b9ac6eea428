/**
 * `npx tsx scripts/js-budget.ts`: the JavaScript a first visit to /calculator
 * downloads (gzip -9), against its budget (107.4 kB since issue 21), without the whole bench.
 * Builds first when the build is missing or older than the sources. Exits 1
 * when the budget is exceeded.
 */
import { existsSync } from 'node:fs';
import { buildIfNeeded } from './lib/build-if-needed';
import { CLIENT_MANIFEST, FIRST_VISIT_BUDGET_BYTES, formatFirstVisitJs, measureFirstVisitJs } from './lib/first-visit-js';

process.env.NODE_ENV ??= 'production';
// A build from before the manifest was kept has none: build again.
buildIfNeeded({ force: !existsSync(CLIENT_MANIFEST) });
const measured = measureFirstVisitJs();
console.log(formatFirstVisitJs('/calculator', measured, FIRST_VISIT_BUDGET_BYTES));
if (measured.totalGzipBytes > FIRST_VISIT_BUDGET_BYTES) process.exitCode = 1;
