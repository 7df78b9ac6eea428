import authMessages from '../../public/locales/de/auth.json';
import projectMessages from '../../public/locales/de/projects.json';
import {
  FORM_BODY_LIMIT,
  JSON_BODY_LIMIT,
  MAX_UPLOAD_BYTES,
  PRODUCT_IMAGE_MAX_BYTES,
  PROFILE_IMAGE_MAX_BYTES,
  SLICER_BODY_OVERHEAD_BYTES,
  SLICER_MAX_BYTES,
  UPLOAD_FORM_IN_PAGE_BYTES,
} from '../domain/limits';

/**
 * What a request must look like before Remix reads it: every bad request is a
 * 4xx with a German message here, never a 500 deeper down.
 *
 * - a body over its route's limit: 413, decided while it streams
 *   (Content-Length first; a chunked body is held back and counted);
 * - a page (form route) takes GET/HEAD, and POST with a form body only: 405, 415,
 *   and 400 for a multipart body without a usable boundary;
 * - the JSON API takes JSON or a form body: 415 for anything else;
 * - a malformed Host or (trusted) X-Forwarded-Host/-Proto: 400;
 * - a legacy Remix data request (`?_data=`): 403.
 */

/**
 * `multipartOnly`: the large limit is for a file in a multipart body; the
 * same route's urlencoded or JSON bodies get the form limit (64 KB).
 * `streamed`: the route reads its body as a stream and enforces the limit
 * itself while reading (the slicer import keeps only head and tail), so a
 * chunked body is handed on at once instead of being held in memory here.
 */
type BodyRule = {
  pattern: RegExp;
  limit: number;
  streamed?: boolean;
  multipartOnly?: boolean;
  /** The 413's text when it is not the general one (spec §5's message for a product image). */
  tooLargeMessage?: string;
  /**
   * A page whose form posts a file without JavaScript: a multipart body over
   * `limit` (up to this many bytes, declared) still reaches the route, which
   * reads its text fields, skips the file and answers within the page — the
   * spec's message next to the field, the typed values kept — instead of a bare 413.
   */
  answeredInPageUpTo?: number;
};

/** Up to this size a refused body is read (and dropped) before the 413, so the client hears the answer instead of a reset. */
export const DRAINED_REFUSAL_BYTES = 32 * 1024 * 1024;
/** The largest oversized file a no-JS upload form still answers within its page (the multipart reader skips it). */
const IN_PAGE_ANSWER_BYTES = UPLOAD_FORM_IN_PAGE_BYTES;

/** A slicer file (1 GB at most, counted by the reader) plus the calculator's field texts. */
const SLICER_UPLOAD_LIMIT = SLICER_MAX_BYTES + SLICER_BODY_OVERHEAD_BYTES;
/** Product images: 10 MB (spec §5) plus the form's other fields. */
const PRODUCT_IMAGE_FORM_LIMIT = PRODUCT_IMAGE_MAX_BYTES + FORM_BODY_LIMIT;

/**
 * Body limits by path, first match wins. Uploads have their documented
 * limits (spec §5: profile pictures 5 MB; the local store's PUT target takes
 * at most that plus nothing). Everything else is a form or JSON.
 */
export const BODY_LIMITS: BodyRule[] = [
  { pattern: /^\/uploads\//, limit: MAX_UPLOAD_BYTES },
  // The no-JS profile picture form posts the file (5 MB) as multipart.
  { pattern: /^\/profile(?:\.data)?$/, limit: PROFILE_IMAGE_MAX_BYTES + FORM_BODY_LIMIT, multipartOnly: true, answeredInPageUpTo: IN_PAGE_ANSWER_BYTES },
  { pattern: /^\/api\/images\/upload$/, limit: PRODUCT_IMAGE_FORM_LIMIT, tooLargeMessage: projectMessages.image.tooLarge },
  // The no-JS product image upload posts the whole calculator form with the file.
  { pattern: /^\/calculator(?:\.data)?$/, limit: PRODUCT_IMAGE_FORM_LIMIT, multipartOnly: true, answeredInPageUpTo: IN_PAGE_ANSWER_BYTES },
  // Slicer files are read while they stream (head and tail only, nothing stored).
  { pattern: /^\/calculator\/slicer-import(?:\.data)?$/, limit: SLICER_UPLOAD_LIMIT, streamed: true },
  { pattern: /^\/api\/slicer\/parse$/, limit: SLICER_UPLOAD_LIMIT, streamed: true },
  { pattern: /^\/api\//, limit: JSON_BODY_LIMIT },
  { pattern: /^\//, limit: FORM_BODY_LIMIT },
];

export function bodyLimitFor(pathname: string, contentType?: string): number {
  return bodyRuleFor(pathname, contentType).limit;
}

export function bodyRuleFor(pathname: string, contentType?: string): BodyRule {
  const rule = BODY_LIMITS.find((candidate) => candidate.pattern.test(pathname)) ?? { pattern: /^/, limit: FORM_BODY_LIMIT };
  if (rule.multipartOnly && mediaType(contentType) !== 'multipart/form-data') return { ...rule, limit: FORM_BODY_LIMIT, answeredInPageUpTo: undefined };
  return rule;
}

/** `json`: answered as `{ message }` also outside /api/ (the client expects data, not a page). */
export type Refusal = { status: 400 | 403 | 405 | 413 | 415; message: string; headers?: Record<string, string>; json?: boolean };

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const JSON_TYPES = ['application/json'];

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** A multipart body needs a boundary of 1–70 allowed characters (RFC 2046), else the parser throws. */
function hasUsableBoundary(contentType: string): boolean {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return Boolean(boundary) && /^[0-9A-Za-z'()+_,\-./:=? ]+$/.test(boundary!) && !boundary!.endsWith(' ');
}

const M = authMessages.messages;

const API_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** The JSON API: `/api` and everything under it answers JSON. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}
export const BODY_TOO_LARGE_MESSAGE: string = M.bodyTooLarge;

/**
 * Method and content type of a state-changing request to `pathname`
 * (Remix's `.data` suffix removed). Null when it may go on.
 */
export function checkMethodAndType(method: string, pathname: string, contentType: string | undefined, hasBody: boolean): Refusal | null {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS') return null;
  const path = pathname.replace(/\.data$/, '') || '/';
  // Upload targets check their own signed content type; the API routes answer their own 405s.
  if (path.startsWith('/uploads/')) return null;
  const type = mediaType(contentType);
  if (isApiPath(path)) {
    // Methods no API route has (TRACE, WebDAV's, made-up ones) never reach Remix, which cannot build a request of some.
    if (!API_METHODS.has(upper)) return { status: 405, message: M.methodNotAllowed, headers: { Allow: [...API_METHODS].join(', ') }, json: true };
    if (!hasBody || type === '') return null;
    if (![...JSON_TYPES, ...FORM_TYPES].includes(type) && !/^image\//.test(type)) return { status: 415, message: M.unsupportedMediaType };
  } else {
    if (upper !== 'POST') return { status: 405, message: M.methodNotAllowed, headers: { Allow: 'GET, HEAD, POST' } };
    if (!FORM_TYPES.includes(type)) return { status: 415, message: M.unsupportedMediaType };
  }
  if (type === 'multipart/form-data' && !hasUsableBoundary(contentType ?? '')) return { status: 400, message: M.badRequest };
  return null;
}

/**
 * The request line's target. Browsers send the origin form (`/path?query`);
 * a proxy-style absolute form naming this host (`GET http://host/path`) is
 * served as its path (RFC 9112 §3.2.2), anything else (`*`, another host, a
 * scheme other than http/https) is a 400. Returns the origin-form target.
 */
export function checkRequestTarget(target: string, host: string | undefined): string | Refusal {
  if (target.startsWith('/')) return target;
  const refused: Refusal = { status: 400, message: M.badRequest };
  if (!/^https?:\/\//i.test(target) || !host) return refused;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return refused;
  }
  // The authority must be the one the Host header names (checked by checkHostHeaders before).
  if (url.username || url.password || url.host !== new URL(`${url.protocol}//${host}`).host) return refused;
  return `${url.pathname}${url.search}`;
}

/**
 * `?_data=<route id>` is how Remix apps without single fetch ask for a route's
 * data. Ours never does (single fetch asks for `.data`), so such a request was
 * made by hand; Remix answered a forged one with 403/405 and "Unexpected
 * Server Error". It is refused here with the cross-site refusal's German text.
 * `query` is the part of the URL after `?`, parsed as Remix parses it.
 */
export function checkLegacyDataRequest(query: string): Refusal | null {
  return new URLSearchParams(query).has('_data') ? { status: 403, message: authMessages.errors.crossSite, json: true } : null;
}

const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** A Host header the URL parser accepts (name or IP, optional port ≤ 65535). */
export function isValidHost(value: string | undefined): boolean {
  if (!value || value.length > 255 || !HOST_PATTERN.test(value)) return false;
  const port = /:(\d{1,5})$/.exec(value.startsWith('[') ? value.slice(value.indexOf(']')) : value)?.[1];
  return port === undefined || Number(port) <= 65535;
}

/**
 * Checks the headers the request URL is built from. Forwarded headers are
 * read only behind trusted proxies (`trusted`); otherwise they are removed,
 * so nothing downstream can be fooled by them.
 */
export function checkHostHeaders(headers: Record<string, string | string[] | undefined>, trusted: boolean): Refusal | null {
  const host = headers.host;
  if (typeof host !== 'string' || !isValidHost(host)) return { status: 400, message: M.badRequest };
  if (!trusted) {
    delete headers['x-forwarded-host'];
    delete headers['x-forwarded-proto'];
    return null;
  }
  const forwardedHost = firstForwarded(headers['x-forwarded-host']);
  if (forwardedHost !== undefined && !isValidHost(forwardedHost)) return { status: 400, message: M.badRequest };
  const proto = firstForwarded(headers['x-forwarded-proto']);
  if (proto !== undefined && !/^https?$/i.test(proto)) return { status: 400, message: M.badRequest };
  // Only the checked entry goes on (Remix's adapter reads a port from the whole header).
  if (forwardedHost !== undefined) headers['x-forwarded-host'] = forwardedHost;
  if (proto !== undefined) headers['x-forwarded-proto'] = proto.toLowerCase();
  return null;
}

/** The value the nearest proxy set (express reads the first entry of a comma list). */
function firstForwarded(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined.split(',')[0].trim();
}
