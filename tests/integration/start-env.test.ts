import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm start with a malformed variable', () => {
  // tsx directly, not through npx (npm's own start-up was most of the time); on a loaded
  // 2-core machine starting TypeScript alone can take 20 s, hence the generous limits.
  it('stops before doing anything and names the variable', { timeout: 60_000 }, () => {
    const result = spawnSync('node_modules/.bin/tsx', ['scripts/start.ts'], {
      env: { ...process.env, PORT: 'dreitausend' },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toMatch(/Invalid environment variables/);
  });
});
