import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from '@remix-run/node';
import { PRODUCT_IMAGE_MAX_BYTES, PROFILE_IMAGE_MAX_BYTES } from '../domain/limits';

/** Room for the multipart framing and the other fields of the calculator form around a 10 MB file. */
const MULTIPART_OVERHEAD_BYTES = 256 * 1024;

export type ImageFormResult =
  | { ok: true; bytes: Buffer; form: FormData }
  | { ok: false; error: 'tooLarge' | 'missing' | 'invalid'; form?: FormData };

/**
 * Reads a multipart body with one file field. A body announced as larger than
 * the limit is refused before it is read; the file's own size is checked again
 * after parsing (the announced length can be absent).
 */
export async function readImageForm(request: Request, field = 'image'): Promise<ImageFormResult> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data')) return { ok: false, error: 'invalid' };
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > PRODUCT_IMAGE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES) return { ok: false, error: 'tooLarge' };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, error: 'invalid' };
  }
  const file = form.get(field);
  if (!file || typeof file === 'string' || file.size === 0) return { ok: false, error: 'missing', form };
  if (file.size > PRODUCT_IMAGE_MAX_BYTES) return { ok: false, error: 'tooLarge', form };
  return { ok: true, bytes: Buffer.from(await file.arrayBuffer()), form };
}

/**
 * Reads the profile page's no-JS picture form: one file field `image`, at most
 * 5 MB, kept in memory (the parser stops at the limit). A body it cannot read
 * is not a picture (400, never 500).
 */
export async function readProfileImageForm(request: Request): Promise<{ ok: true; bytes: Buffer } | { ok: false; error: 'tooLarge' | 'notAnImage' }> {
  // Refuse obviously oversized bodies before reading them (a little room for the multipart framing).
  if (Number(request.headers.get('content-length') ?? 0) > PROFILE_IMAGE_MAX_BYTES + 64 * 1024) return { ok: false, error: 'tooLarge' };
  try {
    const formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({
        maxPartSize: PROFILE_IMAGE_MAX_BYTES,
        filter: ({ name }) => name === 'image' || name === 'intent',
      }),
    );
    const file = formData.get('image');
    if (!(file instanceof File) || file.size === 0) return { ok: false, error: 'notAnImage' };
    return { ok: true, bytes: Buffer.from(await file.arrayBuffer()) };
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return { ok: false, error: 'tooLarge' };
    return { ok: false, error: 'notAnImage' };
  }
}
