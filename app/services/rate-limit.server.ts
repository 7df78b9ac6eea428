import crypto from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { parseEnv } from '~/lib/env.server';
import { normalizeIp } from './client-ip.server';
import { RATE_LIMIT_RULES, type RateLimitOutcome, type RateLimitRule, type RateLimitScope } from '../domain/limits';

export type RateLimitAction = keyof typeof RATE_LIMIT_RULES;

const PURGE_EVERY_MS = 10 * 60 * 1000;
let lastPurge = 0;

type Counter = { key: string; rule: RateLimitRule; limit: number };

/**
 * Who an attempt is counted against. `device` is the key of a device cookie
 * (`deviceCounterKey`), used by rules of scope `device`.
 */
export type RateLimitKeys = { ip: string; email?: string; device?: string };

function countersFor(action: RateLimitAction, keys: RateLimitKeys): Counter[] {
  const factor = parseEnv().RATE_LIMIT_FACTOR;
  const email = keys.email?.trim().toLowerCase() || undefined;
  return (RATE_LIMIT_RULES[action] as readonly RateLimitRule[])
    .map((rule) => {
      const key = counterKey(action, rule.scope, keys.ip, email, keys.device);
      return key ? { key, rule, limit: Math.max(1, Math.ceil(rule.limit * factor)) } : null;
    })
    .filter((counter) => counter !== null)
    // One lock order for every request, so two requests of the same keys never deadlock.
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export type RateLimitDecision = { allowed: boolean; retryAfterSeconds: number; refusedScopes: RateLimitScope[] };

/**
 * Checks every counter of `action` (IP, e-mail, IP + e-mail) and, only when
 * none is at its limit, counts this attempt under all of them. A refused
 * attempt counts nowhere. Counters live in `rate_limits`; the check and the
 * count run under per-key transaction locks, so every app instance sees the
 * same counts and concurrent requests cannot slip past a limit together.
 *
 * Rules with `refundOn` are settled with `settleRateLimit` once the outcome
 * is known. Run it outside the request's own transaction: a rolled-back
 * transaction would forget the attempt.
 */
export async function consumeRateLimit(
  em: EntityManager,
  action: RateLimitAction,
  keys: RateLimitKeys,
): Promise<RateLimitDecision> {
  const counters = countersFor(action, keys);
  await purgeExpired(em);
  if (counters.length === 0) return { allowed: true, retryAfterSeconds: 0, refusedScopes: [] };

  return em.fork().transactional(async (tx) => {
    for (const counter of counters) await tx.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [counter.key]);
    const live: { key: string; count: number; retry_after: number | string }[] = await tx.execute(
      `select key, count, ceil(extract(epoch from (expires_at - now())))::int as retry_after
       from rate_limits where key in (${counters.map(() => '?').join(', ')}) and expires_at > now()`,
      counters.map((counter) => counter.key),
    );
    const countOf = (key: string | undefined) => Number(live.find((row) => row.key === key)?.count ?? 0);
    const pair = counters.find((counter) => counter.rule.scope === 'ipEmail');

    let retryAfterSeconds = 0;
    const refusedScopes: RateLimitScope[] = [];
    for (const counter of counters) {
      if (countOf(counter.key) < counter.limit) continue;
      // An address-wide ceiling does not stop a client that has not counted against the address itself.
      if (counter.rule.onlyAfterPairFailure && countOf(pair?.key) === 0) continue;
      const row = live.find((candidate) => candidate.key === counter.key)!;
      retryAfterSeconds = Math.max(retryAfterSeconds, Number(row.retry_after), 1);
      refusedScopes.push(counter.rule.scope);
    }
    if (refusedScopes.length > 0) return { allowed: false, retryAfterSeconds, refusedScopes };

    // Fixed window: a live row counts up; an expired one restarts at 1 with a new window.
    const values = counters.map(() => `(?, now(), 1, now() + make_interval(secs => ?))`).join(', ');
    await tx.execute(
      `insert into rate_limits (key, window_start, count, expires_at) values ${values}
       on conflict (key) do update set
         window_start = case when rate_limits.expires_at <= now() then excluded.window_start else rate_limits.window_start end,
         count = case when rate_limits.expires_at <= now() then 1 else rate_limits.count + 1 end,
         expires_at = case when rate_limits.expires_at <= now() then excluded.expires_at else rate_limits.expires_at end`,
      counters.flatMap((counter) => [counter.key, counter.rule.windowSeconds]),
    );
    return { allowed: true, retryAfterSeconds: 0, refusedScopes: [] };
  });
}

/**
 * Takes back the attempt counted by `consumeRateLimit` from the rules that
 * do not count this outcome (`refundOn`): a correct password, a refused
 * registration.
 */
export async function settleRateLimit(
  em: EntityManager,
  action: RateLimitAction,
  keys: RateLimitKeys,
  outcome: RateLimitOutcome,
): Promise<void> {
  const refunded = countersFor(action, keys).filter((counter) => counter.rule.refundOn === outcome);
  if (refunded.length === 0) return;
  await em.execute(
    `update rate_limits set count = greatest(count - 1, 0)
     where key in (${refunded.map(() => '?').join(', ')}) and expires_at > now()`,
    refunded.map((counter) => counter.key),
  );
}

function counterKey(action: RateLimitAction, scope: RateLimitScope, ip: string, email: string | undefined, device: string | undefined): string | null {
  const ipKey = ipBucket(ip);
  switch (scope) {
    case 'device':
      return device ? `${action}:device:${device}` : null;
    case 'ip':
      return `${action}:ip:${ipKey}`;
    case 'email':
      return email ? `${action}:email:${hashEmail(email)}` : null;
    case 'ipEmail':
      return email ? `${action}:ip-email:${ipKey}:${hashEmail(email)}` : null;
  }
}

/**
 * The counter key of a device cookie: the account's id and a hash of the
 * cookie's nonce, so `clearSignInLimits` finds every device of an account.
 */
export function deviceCounterKey(userId: string, nonce: string): string {
  return `${userId}:${crypto.createHash('sha256').update(nonce).digest('hex').slice(0, 32)}`;
}

/**
 * Forgets every sign-in limit of one account: the address-wide ceiling, every
 * (IP, address) pair and every device cookie's counter. A successful password
 * reset calls it (the mailbox's owner is back in charge; guesses at the old
 * password no longer matter). Limits per IP are not the account's and stay.
 */
export async function clearSignInLimits(em: EntityManager, account: { email: string; userId: string }): Promise<void> {
  const email = hashEmail(account.email.trim().toLowerCase());
  await em.execute(`delete from rate_limits where key = ? or key like ? or key like ?`, [
    `login:email:${email}`,
    `login:ip-email:%:${email}`,
    `loginDevice:device:${account.userId}:%`,
  ]);
}

/** Addresses are stored hashed: the table should not become a list of who tried what. */
function hashEmail(email: string): string {
  return crypto.createHash('sha256').update(email).digest('hex').slice(0, 32);
}

/**
 * IPv6 clients usually own a whole /64, so one counter covers the /64;
 * IPv4 addresses count alone.
 */
function ipBucket(ip: string): string {
  const normalized = normalizeIp(ip);
  if (!isIPv6(normalized)) return normalized;
  const [head, tail = ''] = normalized.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = normalized.includes('::') ? (tail ? tail.split(':') : []) : [];
  // An embedded IPv4 tail (::1.2.3.4) takes two groups; the prefix is unaffected.
  const groups = normalized.includes('::')
    ? [...headParts, ...Array(Math.max(0, 8 - headParts.length - tailParts.length)).fill('0'), ...tailParts]
    : headParts;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

async function purgeExpired(em: EntityManager) {
  const now = Date.now();
  if (now - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now;
  await em.execute(`delete from rate_limits where expires_at < now() - interval '1 minute'`);
}
