import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';

describe('GET /healthz', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase('healthz');
    await runMigrations(db.url);
  });

  afterAll(async () => {
    const { closeOrm } = await import('~/services/db.server');
    await closeOrm();
    await db.drop();
    vi.unstubAllEnvs();
  });

  it('answers 503 while the database is unreachable, then 200 once it answers', async () => {
    vi.resetModules();
    // Nothing listens on port 1: the first requests find no database.
    vi.stubEnv('DATABASE_URL', 'postgresql://postgres:postgres@127.0.0.1:1/none');
    const { loader } = await import('~/routes/_resources+/healthz');
    const down = await loader();
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unavailable' });

    // The database comes back (here: the URL now points at a running one) and the app recovers
    // without a restart, because a failed connection attempt is not cached.
    vi.stubEnv('DATABASE_URL', db.url);
    const up = await loader();
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ status: 'ok' });
    expect(up.headers.get('cache-control')).toBe('no-store');
  });
});
