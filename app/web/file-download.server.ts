import type { Result } from '../domain/result';
import { apiFailure } from './result-response.server';

/**
 * An operation's file as a download (`Content-Disposition: attachment`), private to the
 * session; a failure answers with its status and German message. The body may be a stream
 * (the projects CSV is written batch by batch).
 */
export async function fileDownload(result: Result<{ body: string | ReadableStream<Uint8Array>; filename: string }>, contentType: string): Promise<Response> {
  if (result.kind !== 'ok') return apiFailure(result);
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
