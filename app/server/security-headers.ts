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
  {
    dev = false,
    uploadOrigin,
    extensions = [],
    paymentOrigins = [],
  }: { dev?: boolean; uploadOrigin?: string; extensions?: readonly CspExtension[]; paymentOrigins?: readonly string[] } = {},
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
  if (extensions.includes('payments')) {
    // Stripe.js and its frames on /premium, and the no-JS form posts that end at Checkout or the portal.
    directives['script-src'].push('https://js.stripe.com', ...paymentOrigins);
    directives['frame-src'] = ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com', ...paymentOrigins];
    directives['connect-src'].push('https://api.stripe.com', ...paymentOrigins);
    directives['img-src'].push('https://*.stripe.com');
    directives['form-action'].push('https://checkout.stripe.com', 'https://billing.stripe.com', ...paymentOrigins);
  }
  if (extensions.includes('ads')) {
    // What AdSense supports: the nonce plus 'strict-dynamic' (scripts our nonced code adds may run;
    // 'self' and https: only count for browsers without CSP3). Its frames, images and beacons come from many hosts.
    directives['script-src'].push("'strict-dynamic'", 'https:');
    directives['frame-src'] = ["'self'", 'https:'];
    directives['img-src'].push('https:');
    directives['connect-src'].push('https:');
  }
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Set by the app on a response whose page needs more than the strict policy
 * (entry.server.tsx): 'payments' on /premium, 'ads' on pages that load the ad
 * script. The HTTP server rebuilds the policy from it just before the headers
 * go out and removes it (scripts/lib/server.ts); it never reaches the browser.
 */
export const CSP_EXTENSION_HEADER = 'X-Druckpreis-Csp';
export const CSP_EXTENSIONS = ['payments', 'ads'] as const;
export type CspExtension = (typeof CSP_EXTENSIONS)[number];

export function parseCspExtensions(value: unknown): CspExtension[] {
  if (typeof value !== 'string') return [];
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part): part is CspExtension => (CSP_EXTENSIONS as readonly string[]).includes(part));
}

/** Local stand-ins for Stripe (STRIPE_API_BASE, STRIPE_JS_URL: tests and local fakes only) the payment policy allows too. */
export function paymentOriginsFor(env: { STRIPE_API_BASE?: string; STRIPE_JS_URL?: string }): string[] {
  const origins = new Set<string>();
  for (const value of [env.STRIPE_API_BASE, env.STRIPE_JS_URL]) {
    try {
      if (value) origins.add(new URL(value).origin);
    } catch {
      // Not an address: nothing to allow.
    }
  }
  return [...origins];
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
