import crypto from 'node:crypto';
import type { LoaderFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { canViewImage } from '~/models/image-access.server';
import { getRequestContext } from '~/services/request-context.server';
import { getFileStore, isValidObjectKey } from '~/services/storage.server';

/** Only re-encoded images are served; anything else in the store is not an image to show. */
const SERVABLE_TYPES = new Set(['image/jpeg', 'image/png']);

/**
 * GET /images/<key>: a stored image, only for those allowed to see it
 * (models/image-access.server.ts). Unknown keys and refused access look the same
 * (404), so the answer does not reveal whether an object exists.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, params } = args;
  const key = params['*'] ?? '';
  if (!isValidObjectKey(key) || !(await canViewImage(await getRequestContext(args), key))) return notFound();

  const object = await getFileStore().get(key);
  if (!object || !SERVABLE_TYPES.has(object.contentType)) return notFound();

  const etag = `"${crypto.createHash('sha256').update(object.body).digest('base64url').slice(0, 27)}"`;
  const headers = {
    'Content-Type': object.contentType,
    // nosniff comes with every response from the server (scripts/lib/server.ts), once.
    'Content-Disposition': 'inline',
    // Revalidated on every view (a cheap 304 by ETag): after a logout on a shared computer the
    // browser asks again and gets the 404, instead of showing its cached copy.
    'Cache-Control': 'private, no-cache',
    Vary: 'Cookie',
    ETag: etag,
  };
  if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers });
  return new Response(new Uint8Array(object.body.buffer, object.body.byteOffset, object.body.byteLength) as Uint8Array<ArrayBuffer>, { headers: { ...headers, 'Content-Length': String(object.body.length) } });
}

async function notFound() {
  const t = await getServerT('files');
  return new Response(t('upload.notFound'), {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
