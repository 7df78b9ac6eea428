/**
 * The server pipeline: the steps every request passes, in this order. The
 * HTTP server (scripts/lib/server.ts) runs steps 1–4 in front of Remix, Remix
 * runs the route's loader or action, and the document and data handlers
 * (entry.server.tsx) run steps 5–7 on the way out. Everything here is server
 * code; pages say only whether they may be shared (`publicPageHeaders` in
 * ./http-cache.ts) and which lazy parts they render (./part-preloads.server.ts).
 */

// 1. Refuse what no route may read, before anything reads it: a malformed host, a
//    wrong method or content type, a body over its route's limit (4xx while it streams;
//    the Express side is scripts/lib/request-limits.ts).
export {
  BODY_TOO_LARGE_MESSAGE,
  bodyRuleFor,
  checkHostHeaders,
  checkLegacyDataRequest,
  checkMethodAndType,
  type Refusal,
} from './request-guard.server';

// 2. Security headers on every response, with this request's CSP nonce.
export { buildContentSecurityPolicy, staticSecurityHeaders, STRICT_TRANSPORT_SECURITY, uploadOriginFor } from './security-headers';

// 3. A state-changing request from another site: 403.
export { crossSiteRequestGuard } from './csrf.server';

// 4. A page a visitor may share is answered from the visitor page cache, before Remix runs.
export { isCacheableRequest, VisitorPageCache, type VisitorPageSlot } from './visitor-page-cache.server';

// 5. The cache rule on every document and `.data` response: what was rendered for a
//    session, sets a cookie or read admin-changeable data is private, whatever the route said.
export { applyCachePolicy } from './http-cache.server';

// 6. A document whose URL and loader data were rendered before is sent again with this
//    request's nonce (./nonced-html.server.ts); a new one is recorded for the next request.
export { cachedHtmlResponse, getCachedPage, recordingStream, renderCacheKey, storePage } from './render-cache.server';

// 7. React's stream padding is trimmed before the bytes reach the client or a cache.
export { trimReactEncoderPadding } from './react-stream-padding.server';
