import { MaxPartSizeExceededError, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from '@remix-run/node';
import { readSlicerUpload } from '~/services/slicer-upload.server';
import { PRODUCT_IMAGE_MAX_BYTES, PROFILE_IMAGE_MAX_BYTES } from '../domain/limits';
import { invalid, ok, tooLarge, type Result } from '../domain/result';

/** Room for the multipart framing and the other fields of the calculator form around a 10 MB file. */
const MULTIPART_OVERHEAD_BYTES = 256 * 1024;

/** A product image form as read: the file's bytes (or why there are none) and the form's other fields, where readable. */
export type ImageForm = { image: Result<Buffer>; form: FormData | null };

const TOO_LARGE = 'projects:image.tooLarge';
const UNREADABLE = 'projects:image.failed';

/**
 * Reads a multipart body with one product image file field. A body announced
 * as larger than the limit is refused before it is read; the file's own size
 * is checked again after parsing (the announced length can be absent).
 */
export async function readImageForm(request: Request, field = 'image'): Promise<ImageForm> {
  const type = request.headers.get('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data')) return { image: invalid(UNREADABLE), form: null };
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > PRODUCT_IMAGE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES) return { image: tooLarge(TOO_LARGE), form: (await textFieldsOnly(request, length)) ?? null };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { image: invalid(UNREADABLE), form: null };
  }
  const file = form.get(field);
  if (!file || typeof file === 'string' || file.size === 0) return { image: invalid(UNREADABLE), form };
  if (file.size > PRODUCT_IMAGE_MAX_BYTES) return { image: tooLarge(TOO_LARGE), form };
  return { image: ok(Buffer.from(await file.arrayBuffer())), form };
}

/**
 * The text fields of an oversized multipart body, its file parts skipped
 * unread (the streaming reader keeps only named `file` parts, which no image
 * form has): the page answers within itself with what was typed.
 */
async function textFieldsOnly(request: Request, length: number): Promise<FormData | undefined> {
  const read = await readSlicerUpload(request, length);
  if (read.status !== 'ok' && read.status !== 'missingFile') return undefined;
  const form = new FormData();
  for (const [name, value] of Object.entries(read.fields)) form.set(name, value);
  return form;
}

/**
 * Reads the profile page's no-JS picture form: one file field `image`, at most
 * 5 MB, kept in memory (the parser stops at the limit). A body it cannot read
 * is not a picture (400, never 500).
 */
export async function readProfileImageForm(
  request: Request,
  { maxBytes = PROFILE_IMAGE_MAX_BYTES }: { maxBytes?: number } = {},
): Promise<{ ok: true; bytes: Buffer } | { ok: false; error: 'tooLarge' | 'notAnImage' }> {
  // Refuse obviously oversized bodies before reading them (a little room for the multipart framing).
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > maxBytes + 64 * 1024) {
    // Read to its end (and dropped) so the page's answer reaches a browser still sending.
    await textFieldsOnly(request, length);
    return { ok: false, error: 'tooLarge' };
  }
  try {
    const formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({
        maxPartSize: maxBytes,
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
