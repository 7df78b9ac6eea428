/** Headers sent with every response, documents and static files alike. */
export const staticSecurityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), interest-cohort=()',
} as const;

/** Sent in production over HTTPS only (scripts/lib/server.ts): a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * An enforced CSP. Inline scripts (Remix's hydration data) carry the per-request
 * nonce; nothing else inline may run. Vite's dev server needs websockets and
 * inline styles, so development relaxes exactly those.
 */
export function buildContentSecurityPolicy(
  nonce: string,
  { dev = false, uploadOrigin }: { dev?: boolean; uploadOrigin?: string } = {},
): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", `'nonce-${nonce}'`],
    'style-src': dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'"],
    // The browser PUTs profile pictures straight to the file store when it is S3.
    'connect-src': ["'self'", ...(dev ? ['ws:'] : []), ...(uploadOrigin ? [uploadOrigin] : [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Where the browser uploads files to, when that is not this app: the
 * S3-compatible endpoint as browsers reach it, or AWS S3 itself when only a
 * bucket is configured.
 */
export function uploadOriginFor(env: { S3_ENDPOINT?: string; S3_PUBLIC_ENDPOINT?: string; S3_BUCKET?: string }): string | undefined {
  if (!env.S3_BUCKET) return undefined;
  const endpoint = env.S3_PUBLIC_ENDPOINT ?? env.S3_ENDPOINT;
  return endpoint ? new URL(endpoint).origin : 'https://*.amazonaws.com';
}
