import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrmConfig } from '../../mikro-orm.config';
import { clientIp } from '../../app/services/client-ip.server';
import { clearSignInLimits, consumeRateLimit, deviceCounterKey, settleRateLimit, type RateLimitAction, type RateLimitKeys } from '../../app/services/rate-limit.server';
import { runMigrations } from '../../scripts/lib/migrate';
import { createTestDatabase } from '../setup/database';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: MikroORM;
let otherOrm: MikroORM;

beforeAll(async () => {
  database = await createTestDatabase('ratelimit');
  await runMigrations(database.url);
  // Two ORMs = two app instances with their own connection pools.
  orm = await MikroORM.init(createOrmConfig(database.url));
  otherOrm = await MikroORM.init(createOrmConfig(database.url));
});

beforeEach(async () => {
  delete process.env.RATE_LIMIT_FACTOR;
  delete process.env.TRUST_PROXY;
  await orm.em.getConnection().execute('delete from rate_limits');
});

afterEach(() => {
  delete process.env.RATE_LIMIT_FACTOR;
  delete process.env.TRUST_PROXY;
});

afterAll(async () => {
  await orm?.close(true);
  await otherOrm?.close(true);
  await database?.drop();
});

function attempt(action: RateLimitAction, keys: RateLimitKeys, source = orm) {
  return consumeRateLimit(source.em.fork(), action, keys);
}

async function attempts(n: number, action: RateLimitAction, keys: RateLimitKeys) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await attempt(action, keys));
  return results;
}

describe('consumeRateLimit', () => {
  it('refuses the attempt after the limit with a Retry-After', async () => {
    const keys = { ip: '203.0.113.1', email: 'anna@example.de' };
    const allowed = await attempts(10, 'login', keys);
    expect(allowed.every((result) => result.allowed && result.retryAfterSeconds === 0)).toBe(true);

    const refused = await attempt('login', keys);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    // The address is compared case-insensitively.
    expect((await attempt('login', { ip: '203.0.113.1', email: ' ANNA@Example.de ' })).allowed).toBe(false);
  });

  it('counts per IP and per e-mail address independently', async () => {
    // Twenty registrations from one IP (different addresses) use up that IP ...
    for (let i = 0; i < 20; i++) expect((await attempt('register', { ip: '198.51.100.7', email: `u${i}@example.de` })).allowed).toBe(true);
    expect((await attempt('register', { ip: '198.51.100.7', email: 'u99@example.de' })).allowed).toBe(false);
    // ... but another IP may still register.
    expect((await attempt('register', { ip: '198.51.100.8', email: 'u100@example.de' })).allowed).toBe(true);

    // Five reset requests for one address from one IP use up that pair ...
    for (let i = 0; i < 5; i++) expect((await attempt('forgotPassword', { ip: '192.0.2.1', email: 'bert@example.de' })).allowed).toBe(true);
    expect((await attempt('forgotPassword', { ip: '192.0.2.1', email: 'bert@example.de' })).allowed).toBe(false);
    // ... not the address for the owner elsewhere, and the same IP may ask for another address;
    // the actions do not share counters.
    expect((await attempt('forgotPassword', { ip: '192.0.2.99', email: 'bert@example.de' })).allowed).toBe(true);
    expect((await attempt('forgotPassword', { ip: '192.0.2.1', email: 'carla@example.de' })).allowed).toBe(true);
    expect((await attempt('resendVerification', { ip: '192.0.2.1', email: 'bert@example.de' })).allowed).toBe(true);
  });

  it('does not count refused attempts, so a stranger cannot keep an address locked', async () => {
    const victim = 'opfer@example.de';
    for (let i = 0; i < 105; i++) await attempt('login', { ip: '203.0.113.66', email: victim });
    const rows: { key: string; count: number }[] = await orm.em.getConnection().execute(`select key, count from rate_limits where key like 'login:%'`);
    // Ten went through; the 95 refused ones counted nowhere.
    expect(rows.map((row) => row.count).sort()).toEqual([10, 10, 10]);
    expect((await attempt('login', { ip: '203.0.113.67', email: victim })).allowed).toBe(true);
  });

  it('stops clients that failed against an address at its address-wide ceiling, never a new one', async () => {
    const victim = 'ziel@example.de';
    // 100 failures from ten IPs fill the address-wide ceiling (10 per pair).
    for (let ip = 0; ip < 10; ip++) for (let i = 0; i < 10; i++) await attempt('login', { ip: `198.51.100.${ip}`, email: victim });
    const [row] = await orm.em.getConnection().execute(`select count(*)::int as n from rate_limits where key like 'login:email:%' and count = 100`);
    expect(row.n).toBe(1);
    // A known guesser is refused ... (its pair has failures) even below its own pair limit:
    await orm.em.getConnection().execute(`update rate_limits set count = 1 where key like 'login:ip-email:198.51.100.0:%'`);
    expect((await attempt('login', { ip: '198.51.100.0', email: victim })).allowed).toBe(false);
    // ... a machine that has not failed is not.
    expect((await attempt('login', { ip: '198.51.100.200', email: victim })).allowed).toBe(true);
  });

  it('takes back the attempts an outcome does not count (settleRateLimit)', async () => {
    const keys = { ip: '203.0.113.77', email: 'richtig@example.de' };
    for (let i = 0; i < 30; i++) {
      expect((await attempt('login', keys)).allowed).toBe(true);
      await settleRateLimit(orm.em.fork(), 'login', keys, 'success');
    }
  });

  it('limits sign-in per IP across many addresses', async () => {
    for (let i = 0; i < 50; i++) expect((await attempt('login', { ip: '203.0.113.50', email: `p${i}@example.de` })).allowed).toBe(true);
    expect((await attempt('login', { ip: '203.0.113.50', email: 'p99@example.de' })).allowed).toBe(false);
    expect((await attempt('login', { ip: '203.0.113.51', email: 'p99@example.de' })).allowed).toBe(true);
  });

  it('counts one IPv6 /64 as one client', async () => {
    for (let i = 1; i <= 5; i++) expect((await attempt('contact', { ip: `2001:db8:0:7::${i}` })).allowed).toBe(true);
    expect((await attempt('contact', { ip: '2001:db8:0:7:ffff::1' })).allowed).toBe(false);
    expect((await attempt('contact', { ip: '2001:db8:0:8::1' })).allowed).toBe(true);
  });

  it('raises the limits through RATE_LIMIT_FACTOR', async () => {
    process.env.RATE_LIMIT_FACTOR = '3';
    const keys = { ip: '203.0.113.9', email: 'dora@example.de' };
    const results = await attempts(9, 'resendVerification', keys);
    expect(results.every((result) => result.allowed)).toBe(true);
    expect((await attempt('resendVerification', keys)).allowed).toBe(false);

    process.env.RATE_LIMIT_FACTOR = '0';
    await expect(attempt('contact', keys)).rejects.toThrow(/RATE_LIMIT_FACTOR/);
  });

  it('starts a new window once the old one has expired', async () => {
    const keys = { ip: '203.0.113.10' };
    await attempts(5, 'contact', keys);
    expect((await attempt('contact', keys)).allowed).toBe(false);
    await orm.em.getConnection().execute(`update rate_limits set expires_at = now() - interval '1 second'`);
    expect((await attempt('contact', keys)).allowed).toBe(true);
    const [row] = await orm.em.getConnection().execute(`select count from rate_limits where key like 'contact:ip:%'`);
    expect(row.count).toBe(1);
  });

  it('shares the counts between app instances, also under concurrency', async () => {
    const keys = { ip: '203.0.113.20' };
    expect((await attempt('contact', keys, orm)).allowed).toBe(true);
    expect((await attempt('contact', keys, otherOrm)).allowed).toBe(true);
    expect((await attempt('contact', keys, orm)).allowed).toBe(true);
    expect((await attempt('contact', keys, otherOrm)).allowed).toBe(true);
    expect((await attempt('contact', keys, orm)).allowed).toBe(true);
    expect((await attempt('contact', keys, otherOrm)).allowed).toBe(false);

    // 30 simultaneous attempts from both instances: exactly the limit gets through.
    const parallelKeys = { ip: '203.0.113.21', email: 'eva@example.de' };
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => attempt('login', parallelKeys, i % 2 ? orm : otherOrm)),
    );
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
  });

  it('does not store e-mail addresses in clear text', async () => {
    await attempt('forgotPassword', { ip: '203.0.113.30', email: 'geheim@example.de' });
    const rows: { key: string }[] = await orm.em.getConnection().execute('select key from rate_limits');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.key.includes('geheim'))).toBe(false);
  });
});

describe('device cookies and resets (issue 18 §2)', () => {
  it('counts a device cookie on its own: no IP or address counter stops it, and it has a limit of its own', async () => {
    const victim = 'besitzerin@example.de';
    const ip = '198.51.100.42';
    // The address is at its ceiling and this IP has failed: the pair and the ceiling refuse it.
    for (let i = 0; i < 10; i++) await attempt('login', { ip, email: victim });
    await orm.em.getConnection().execute(`update rate_limits set count = 100 where key like 'login:email:%'`);
    expect((await attempt('login', { ip, email: victim })).allowed).toBe(false);

    const device = deviceCounterKey('00000000-0000-4000-8000-000000000001', 'nonce-of-the-owners-browser');
    const results = await attempts(11, 'loginDevice', { ip, device });
    expect(results.map((result) => result.allowed)).toEqual([...Array(10).fill(true), false]);
    // Another cookie of the same account has its own bucket.
    expect((await attempt('loginDevice', { ip, device: deviceCounterKey('00000000-0000-4000-8000-000000000001', 'another-browser') })).allowed).toBe(true);
  });

  it('clearSignInLimits forgets the address, every pair and every device of the account, not the IPs or other accounts', async () => {
    const userId = '00000000-0000-4000-8000-000000000002';
    for (let ip = 1; ip <= 3; ip++) await attempt('login', { ip: `192.0.2.${ip}`, email: 'Reset@Example.de' });
    await attempt('login', { ip: '192.0.2.1', email: 'andere@example.de' });
    await attempt('loginDevice', { ip: '192.0.2.1', device: deviceCounterKey(userId, 'a') });
    await attempt('loginDevice', { ip: '192.0.2.1', device: deviceCounterKey('00000000-0000-4000-8000-000000000003', 'b') });
    await clearSignInLimits(orm.em.fork(), { email: ' reset@example.de', userId });
    const keys: { key: string }[] = await orm.em.getConnection().execute(`select key from rate_limits order by key`);
    const left = keys.map((row) => row.key.replace(/[0-9a-f]{32}$/, 'HASH'));
    expect(left.filter((key) => key.startsWith('login:ip:'))).toHaveLength(3);
    expect(left.filter((key) => key.startsWith('login:email:') || key.startsWith('login:ip-email:'))).toHaveLength(2);
    expect(keys.filter((row) => row.key.startsWith('loginDevice:')).map((row) => row.key.split(':')[2])).toEqual(['00000000-0000-4000-8000-000000000003']);
  });

  it('sign-in links: 5 per address in 15 minutes, 20 per IP in an hour', async () => {
    const results = await attempts(6, 'loginLink', { ip: '203.0.113.90', email: 'link@example.de' });
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results[5].refusedScopes).toEqual(['email']);
    expect(results[5].retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    for (let i = 0; i < 15; i++) await attempt('loginLink', { ip: '203.0.113.90', email: `l${i}@example.de` });
    const refused = await attempt('loginLink', { ip: '203.0.113.90', email: 'l99@example.de' });
    expect(refused.refusedScopes).toEqual(['ip']);
  });
});

describe('clientIp', () => {
  const request = (headers: Record<string, string>) => new Request('http://localhost/auth', { headers });

  it('uses the address the server set and ignores X-Forwarded-For by default', () => {
    expect(clientIp(request({ 'x-druckpreis-client-ip': '::ffff:203.0.113.5', 'x-forwarded-for': '1.2.3.4' }))).toBe('203.0.113.5');
    expect(clientIp(request({ 'x-forwarded-for': '1.2.3.4' }))).toBe('unknown');
    expect(clientIp(request({ 'x-druckpreis-client-ip': 'not an ip' }))).toBe('unknown');
  });

  it('reads X-Forwarded-For only behind trusted proxies, from the right', () => {
    process.env.TRUST_PROXY = 'true';
    expect(clientIp(request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.5' }))).toBe('203.0.113.5');
    process.env.TRUST_PROXY = '2';
    expect(clientIp(request({ 'x-forwarded-for': '6.6.6.6, 203.0.113.5, 10.0.0.2' }))).toBe('203.0.113.5');
    // The server's header still wins.
    expect(clientIp(request({ 'x-druckpreis-client-ip': '198.51.100.1', 'x-forwarded-for': '6.6.6.6' }))).toBe('198.51.100.1');
  });
});
