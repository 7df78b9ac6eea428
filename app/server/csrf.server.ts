import authMessages from '../../public/locales/de/auth.json';

/**
 * Cross-site request refusal (the session cookie is SameSite=Lax, which still
 * lets top-level cross-site form posts from "same-site" subdomains through and
 * depends on the browser). Every state-changing request must come from our
 * own pages: its `Origin` must be the app's own origin, or, when a browser
 * sends no Origin, `Sec-Fetch-Site` must not say another site. Requests with
 * neither header (curl, server-to-server) are not browser form posts and pass.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function originOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * True when the request was made by another site. `appOrigin` is APP_URL's
 * origin (or null); the request's own origin — the scheme it came in with
 * (`protocol`, 'http' or 'https') and its Host header — also counts as "ours".
 * Scheme, host and port must all match: `https://host` is another origin than
 * `http://host`.
 */
export function isCrossSiteRequest(headers: HeaderSource, appOrigin: string | null | undefined, protocol = 'http'): boolean {
  const origin = header(headers, 'origin');
  if (origin !== null && origin.trim() !== '') {
    const requestOrigin = originOf(origin.trim());
    // "null" (sandboxed frames, data: URLs, some redirects) and garbage are not us.
    if (!requestOrigin) return true;
    if (requestOrigin === originOf(appOrigin)) return false;
    const host = header(headers, 'host')?.trim().toLowerCase();
    return !host || requestOrigin !== originOf(`${protocol}://${host}`);
  }
  const fetchSite = header(headers, 'sec-fetch-site')?.trim().toLowerCase();
  return fetchSite === 'cross-site' || fetchSite === 'same-site';
}

export function isStateChangingMethod(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** The short German answer of a refused request. */
export const CROSS_SITE_MESSAGE: string = authMessages.errors.crossSite;

type MinimalRequest = { method: string; headers: Record<string, string | string[] | undefined>; protocol?: string };
type MinimalResponse = {
  status(code: number): MinimalResponse;
  type(value: string): MinimalResponse;
  send(body: string): unknown;
};

/** Express middleware: 403 for state-changing requests from another site. */
export function crossSiteRequestGuard(appOrigin: string | null | undefined) {
  return (req: MinimalRequest, res: MinimalResponse, next: () => void) => {
    if (isStateChangingMethod(req.method) && isCrossSiteRequest(req.headers, appOrigin, req.protocol)) {
      res.status(403).type('text/plain; charset=utf-8').send(CROSS_SITE_MESSAGE);
      return;
    }
    next();
  };
}
