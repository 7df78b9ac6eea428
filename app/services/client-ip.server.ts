import { isIPv4, isIPv6 } from 'node:net';
import { parseEnv } from '~/lib/env.server';

/** Set by scripts/lib/server.ts on every request (client values are overwritten there). */
export const CLIENT_IP_HEADER = 'x-druckpreis-client-ip';

/**
 * The client's IP address for rate limits and the contact log. Behind our
 * express server (scripts/lib/server.ts) that is the header it sets from the
 * TCP peer (or, with TRUST_PROXY, from X-Forwarded-For as express trusts it).
 * Without that header X-Forwarded-For is read only when TRUST_PROXY allows.
 */
export function clientIp(request: Request): string {
  const fromServer = request.headers.get(CLIENT_IP_HEADER)?.trim();
  if (fromServer) return normalizeIp(fromServer);

  const hops = trustedProxyHops();
  const forwarded = request.headers.get('x-forwarded-for');
  if (hops > 0 && forwarded) {
    // Each trusted proxy appends the address it saw; entries further left are client-made.
    const chain = forwarded.split(',').map((part) => part.trim()).filter(Boolean);
    const candidate = chain[Math.max(0, chain.length - hops)];
    if (candidate) return normalizeIp(candidate);
  }
  return 'unknown';
}

/** TRUST_PROXY: false → 0, true → 1, or the given number of proxy hops. */
export function trustedProxyHops(): number {
  const value = parseEnv().TRUST_PROXY;
  return value === 'true' ? 1 : value === 'false' ? 0 : Number(value);
}

/** An IPv4 or IPv6 address in one spelling (IPv4-mapped IPv6 as IPv4), or 'unknown'. */
export function normalizeIp(ip: string): string {
  const plain = ip.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return isIPv4(plain) || isIPv6(plain) ? plain : 'unknown';
}
