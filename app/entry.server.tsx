import cluster from 'node:cluster';
import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleDocumentRequestFunction } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { getServerI18n } from './i18n.server';
import { logContactRecipient } from './models/contact.server';
import { logSettingsProblems } from './services/admin-settings.server';
import { getEm, noteDatabaseFailure, UNAVAILABLE_RETRY_AFTER_SECONDS } from './services/db.server';
import { startMailWorker } from './services/mail.server';
import { startUploadCleanup } from './services/upload-cleanup.server';
import { NonceProvider } from './lib/nonce';
import { DeferredScriptsStarterProvider } from './lib/deferred-scripts';
import { deferredScriptsStarter } from './server/deferred-scripts.server';
import {
  applyCachePolicy,
  cachedHtmlResponse,
  getCachedPage,
  recordingStream,
  renderCacheKey,
  storePage,
  trimReactEncoderPadding,
  type VisitorPageSlot,
} from './server';
import { adPolicyNeeded, type AdsView } from './models/ads.server';
import { CSP_EXTENSION_HEADER, type CspExtension } from './server/security-headers';
import { sharedMaxAge } from './server/visitor-page-cache.server';

declare global {
  // One outbox worker (and one upload cleanup) per process, also across dev-server module reloads.
  var __druckpreisMailWorker: (() => void) | undefined;
  var __druckpreisContactLogged: boolean | undefined;
  var __druckpreisUploadCleanup: (() => void) | undefined;
}
if (process.env.MAIL_WORKER !== 'off' && !globalThis.__druckpreisMailWorker) {
  globalThis.__druckpreisMailWorker = startMailWorker();
}
// Where contact messages go, said once per start: by the first worker (`npm start`) or the one process (`npm run dev`).
if (!globalThis.__druckpreisContactLogged && (cluster.isPrimary || cluster.worker?.id === 1)) {
  globalThis.__druckpreisContactLogged = true;
  void getEm().then(logContactRecipient, () => undefined);
  // Stored secrets no key opens are named in the log (and on the admin status tab), never a crash.
  void getEm().then(logSettingsProblems, () => undefined);
}
globalThis.__druckpreisUploadCleanup ??= startUploadCleanup();

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

const handleRequest: HandleDocumentRequestFunction = async (
  request,
  responseStatusCode,
  responseHeaders,
  remixContext: EntryContext,
  loadContext,
) => {
  const { cspNonce, visitorPage } = loadContext as { cspNonce?: string; visitorPage?: VisitorPageSlot };
  if (markDatabaseOutage(request, remixContext)) {
    responseStatusCode = 503;
    responseHeaders.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    responseHeaders.set('Cache-Control', 'no-store');
  }
  const nonce = String(cspNonce ?? '');
  // Before anything is stored or sent: what is rendered for a session is private (http-cache.server.ts).
  await applyCachePolicy(responseHeaders, request, loadContext);
  applyPagePolicies(responseHeaders, remixContext);
  const cacheKey = renderCacheKey(request, remixContext, responseStatusCode);
  const cached = cacheKey ? getCachedPage(cacheKey) : null;
  if (cached) {
    const response = cachedHtmlResponse(cached, nonce, request.headers.get('accept-encoding'), responseHeaders, responseStatusCode);
    visitorPage?.offer({ status: responseStatusCode, headers: responseHeaders, parts: cached }, remixContext);
    return response;
  }
  const i18n = getServerI18n();
  // Bots get the complete document at once; browsers get it streamed.
  const readyEvent = isbot(request.headers.get('user-agent')) ? 'onAllReady' : 'onShellReady';

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let renderFailed = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DeferredScriptsStarterProvider value={deferredScriptsStarter}>
          <I18nextProvider i18n={i18n}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </I18nextProvider>
        </DeferredScriptsStarterProvider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = cacheKey
            ? recordingStream(nonce, () => !renderFailed, (parts) => {
                storePage(cacheKey, parts);
                visitorPage?.offer({ status: responseStatusCode, headers: responseHeaders, parts }, remixContext);
              })
            : new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          // React 18 pads some 2048-byte chunks with NULs; they never reach the client or the cache.
          const trimmed = trimReactEncoderPadding();
          trimmed.pipe(body);
          pipe(trimmed);
        },
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          renderFailed = true;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1000);
  });
};

export default handleRequest;

/** Seconds a shared page with ad slots may be reused: with the settings' 30 s, a changed ads setting shows within a minute. */
const AD_PAGE_MAX_AGE = 30;

/**
 * What the matched routes' `handle` asks of the response: `csp: ['payments']`
 * (/premium) widens the CSP on that page only; `ads: true` marks pages with ad
 * slots, whose policy is widened for the ad script only when the root loader
 * shows real ads there (domain/ads.ts `adPolicyNeeded`), and whose shared
 * copies live 30 s at most.
 */
function applyPagePolicies(headers: Headers, remixContext: EntryContext) {
  const extensions = new Set<CspExtension>();
  let adPage = false;
  for (const match of remixContext.staticHandlerContext.matches) {
    const handle = remixContext.routeModules[match.route.id]?.handle as { csp?: CspExtension[]; ads?: boolean } | undefined;
    for (const extension of handle?.csp ?? []) extensions.add(extension);
    if (handle?.ads) adPage = true;
  }
  const ads = (remixContext.staticHandlerContext.loaderData?.root as { ads?: AdsView } | undefined)?.ads;
  if (adPage && adPolicyNeeded(ads)) extensions.add('ads');
  if (extensions.size > 0) headers.set(CSP_EXTENSION_HEADER, [...extensions].join(','));
  const maxAge = sharedMaxAge(headers);
  if (adPage && ads?.show && maxAge !== null && maxAge > AD_PAGE_MAX_AGE) {
    headers.set('Cache-Control', `public, max-age=${AD_PAGE_MAX_AGE}`);
  }
}

/** Requests whose loader or action failed for want of a database (handleError runs before the render). */
const outageRequests = new WeakSet<Request>();

/**
 * A loader or action that failed because the database is unreachable is an
 * outage, not a bug: its (already sanitised) errors become 503 route errors,
 * so the German error page says so. The error page reads the status from the
 * server's markup when it hydrates (components/error-boundary.tsx).
 */
function markDatabaseOutage(request: Request, remixContext: EntryContext): boolean {
  const errors = remixContext.staticHandlerContext.errors;
  if (!errors) return false;
  // Later requests of an outage were refused by getEm() with its 503 before any query ran.
  if (!outageRequests.has(request)) return Object.values(errors).some((error) => isRouteErrorResponse(error) && error.status === 503);
  // The shape isRouteErrorResponse() recognises.
  for (const routeId of Object.keys(errors)) errors[routeId] = { status: 503, statusText: 'Service Unavailable', internal: false, data: null };
  return true;
}

/** `.data` requests (single fetch) follow the same cache rules as documents; an outage's 503 says when to retry. */
export async function handleDataRequest(response: Response, { request, context }: { request: Request; context: AppLoadContext }) {
  await applyCachePolicy(response.headers, request, context);
  if (response.status === 503) response.headers.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  return response;
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (noteDatabaseFailure(error)) {
    outageRequests.add(request);
    console.error(`[db] unreachable: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  console.error(error);
}
