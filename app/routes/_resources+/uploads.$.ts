import type { ActionFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { storePendingProfileUpload } from '~/models/profile.server';
import { getRequestContext } from '~/services/request-context.server';
import { MAX_UPLOAD_BYTES } from '~/domain/limits';
import { getFileStore, isValidObjectKey, LocalFileStore, normalizeContentType } from '~/services/storage.server';

/**
 * Target of the local store's presigned PUT URLs
 * (`/uploads/<key>?expires=..&ct=..&signature=..`, see storage.server.ts).
 * The signature is the permission: it names the key, the content type and the
 * expiry; the key must also still be a pending upload (`pending_uploads`). The
 * raw bytes are stored as they are; whoever completes the upload (e.g. the
 * profile picture) checks and re-encodes them. With an S3 store the
 * browser uploads to S3 directly and this route answers 404.
 */

/** Uploaded objects are never served from here (images go through /images/<key> with an access check). */
export async function loader() {
  const t = await getServerT('files');
  return plain(404, t('upload.notFound'));
}

export async function action(args: ActionFunctionArgs) {
  const { request, params } = args;
  const t = await getServerT('files');
  if (request.method !== 'PUT') return plain(405, t('upload.methodNotAllowed'), { Allow: 'PUT' });

  const store = getFileStore();
  if (!(store instanceof LocalFileStore)) return plain(404, t('upload.notFound'));

  const key = params['*'] ?? '';
  if (!isValidObjectKey(key)) return plain(400, t('upload.invalidKey'));

  const query = new URL(request.url).searchParams;
  const signedType = query.get('ct');
  const verdict = store.verifyPresignedPut({
    key,
    expires: query.get('expires'),
    contentType: signedType,
    signature: query.get('signature'),
  });
  if (verdict === 'expired') return plain(403, t('upload.expired'));
  if (verdict !== 'ok' || !signedType) return plain(403, t('upload.invalidSignature'));

  if (normalizeContentType(request.headers.get('content-type')) !== signedType) {
    return plain(415, t('upload.wrongContentType'));
  }

  const tooLarge = () => plain(413, t('upload.tooLarge', { n: MAX_UPLOAD_BYTES / 1024 / 1024 }));
  const declared = request.headers.get('content-length');
  if (declared && Number(declared) > MAX_UPLOAD_BYTES) return tooLarge();

  const body = await readBodyWithLimit(request, MAX_UPLOAD_BYTES);
  if (body === 'tooLarge') return tooLarge();
  if (body.length === 0) return plain(400, t('upload.empty'));

  // The signature alone is not enough: once the upload was completed (or its completion
  // failed) the address's pending row is gone, and bytes stored then would be tracked by
  // nothing, so the cleanup job would never delete them.
  const stored = await storePendingProfileUpload(await getRequestContext(args), { key, body, contentType: signedType });
  if (stored === 'notPending') return plain(403, t('upload.notPending'));
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

/** Reads the body chunk by chunk and stops as soon as it passes `limit` (never buffers more than that). */
async function readBodyWithLimit(request: Request, limit: number): Promise<Buffer | 'tooLarge'> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return 'tooLarge';
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

function plain(status: number, message: string, headers: Record<string, string> = {}) {
  return new Response(message, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
  });
}
