import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm start with a malformed variable', () => {
  it('stops before doing anything and names the variable', () => {
    const result = spawnSync('npx', ['tsx', 'scripts/start.ts'], {
      env: { ...process.env, PORT: 'dreitausend' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
    expect(result.stderr).toMatch(/Invalid environment variables/);
  });
});
