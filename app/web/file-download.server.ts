import type { Result } from '../domain/result';
import { apiFailure, failureMessage } from './result-response.server';
import { redirectWithToast } from './toast.server';

/**
 * Whether a request is the browser opening an address as a page (a link followed, an address
 * typed): it asks for HTML, says no script sent it (`X-Requested-With`) and, where the browser
 * says so, is a navigation to a document. fetch() and API clients get JSON answers instead.
 */
export function isDocumentRequest(request: Request): boolean {
  const headers = request.headers;
  if (headers.has('X-Requested-With')) return false;
  if (!(headers.get('Accept') ?? '').toLowerCase().includes('text/html')) return false;
  const mode = headers.get('Sec-Fetch-Mode');
  const dest = headers.get('Sec-Fetch-Dest');
  return (mode === null || mode === 'navigate') && (dest === null || dest === 'document');
}

/** Where a download link's page sends the seller back when the file cannot be had right now (its rate limit). */
export type DownloadPage = { request: Request; redirectTo: string; title: string };

/**
 * An operation's file as a download (`Content-Disposition: attachment`), private to the
 * session; a failure answers with its status and German message. The body may be a stream
 * (the projects CSV is written batch by batch). With `page`, a link followed in the browser
 * (no JavaScript needed) that hits the rate limit goes back to its page with a German toast
 * instead of showing the JSON 429; scripts and API clients keep the JSON 429.
 */
export async function fileDownload(
  result: Result<{ body: string | ReadableStream<Uint8Array>; filename: string }>,
  contentType: string,
  page?: DownloadPage,
): Promise<Response> {
  if (result.kind !== 'ok') {
    if (page && result.kind === 'rateLimited' && isDocumentRequest(page.request)) {
      return redirectWithToast(page.redirectTo, { type: 'error', title: page.title, description: await failureMessage(result) }, { status: 303 });
    }
    return apiFailure(result);
  }
  const { body, filename } = result.value;
  return new Response(body, {
    headers: {
      'Content-Type': contentType,
      // The names are ours (a prefix and a date); anything else would still be made safe.
      'Content-Disposition': `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      // nosniff comes with every response from the server (scripts/lib/server.ts), once.
    },
  });
}
