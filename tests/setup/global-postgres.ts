import { chmodSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../scripts/lib/embedded-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}

/** Starts a throwaway embedded PostgreSQL on a free port for the whole test run. */
export default async function setup(project: TestProject) {
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
