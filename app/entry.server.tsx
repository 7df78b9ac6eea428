import cluster from 'node:cluster';
import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext, type HandleDocumentRequestFunction } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { getServerI18n } from './i18n.server';
import { logContactRecipient } from './models/contact.server';
import { getEm } from './services/db.server';
import { startMailWorker } from './services/mail.server';
import { applyCachePolicy } from './utils/http-cache.server';
import { NonceProvider } from './utils/nonce';
import { cachedHtmlResponse, getCachedPage, recordingStream, renderCacheKey, storePage } from './utils/render-cache.server';
import type { VisitorPageSlot } from './utils/visitor-page-cache.server';

declare global {
  // One outbox worker per process, also across dev-server module reloads.
  var __druckpreisMailWorker: (() => void) | undefined;
  var __druckpreisContactLogged: boolean | undefined;
}
if (process.env.MAIL_WORKER !== 'off' && !globalThis.__druckpreisMailWorker) {
  globalThis.__druckpreisMailWorker = startMailWorker();
}
// Where contact messages go, said once per start: by the first worker (`npm start`) or the one process (`npm run dev`).
if (!globalThis.__druckpreisContactLogged && (cluster.isPrimary || cluster.worker?.id === 1)) {
  globalThis.__druckpreisContactLogged = true;
  void getEm().then(logContactRecipient, () => undefined);
}

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
  const nonce = String(cspNonce ?? '');
  // Before anything is stored or sent: what is rendered for a session is private (http-cache.server.ts).
  await applyCachePolicy(responseHeaders, request, loadContext);
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
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
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
          pipe(body);
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

/** `.data` requests (single fetch) follow the same cache rules as documents. */
export async function handleDataRequest(response: Response, { request, context }: { request: Request; context: AppLoadContext }) {
  await applyCachePolicy(response.headers, request, context);
  return response;
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
