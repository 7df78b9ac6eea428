import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

describe('the test run itself', () => {
  it('exits non-zero when a test fails, so `npm test` and CI fail with it', () => {
    // A separate Vitest run with the suite's configuration (and its embedded PostgreSQL), one failing test.
    const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'tests/fixtures/exit-code/vitest.config.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0' },
      timeout: 120_000,
    });
    expect(run.stdout + run.stderr).toContain('fails on purpose');
    expect(run.status).toBe(1);
  }, 150_000);
});
