import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';

describe('npm run user:admin -- <email>', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('admincli');
    await runMigrations(db.url);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`insert into users (email, password) values ('chef@example.com', 'x')`);
    await client.end();
  });

  afterAll(async () => {
    await db.drop();
  });

  const run = (email: string) =>
    spawnSync('npx', ['tsx', 'scripts/user-admin.ts', email], {
      env: { ...process.env, DATABASE_URL: db.url },
      encoding: 'utf8',
      timeout: 30_000,
    });

  async function isAdmin(email: string) {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('select is_admin from users where email = $1', [email]);
    await client.end();
    return rows[0]?.is_admin;
  }

  it('makes an existing account admin, whatever the capitalisation', async () => {
    expect(await isAdmin('chef@example.com')).toBe(0);
    const result = run('Chef@Example.com');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('chef@example.com is now an admin');
    expect(await isAdmin('chef@example.com')).toBe(1);
  });

  it('fails clearly for an unknown address', () => {
    const result = run('niemand@example.com');
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('No account');
  });
});
