import { PRODUCT_IMAGE_MAX_BYTES, PROFILE_IMAGE_MAX_BYTES, UPLOAD_FORM_IN_PAGE_BYTES } from '../domain/limits';
import { profileImageErrorKeys } from '../domain/profile-image-upload';
import { invalid, ok, tooLarge, type Result } from '../domain/result';
import { refusedPicture } from '../models/profile.server';
import { BytesCollector, readMultipart, toFormData } from './multipart.server';

/** A product image form as read: the file's bytes (or why there are none) and the form's other fields, where readable. */
export type ImageForm = { image: Result<Buffer>; form: FormData | null };

const TOO_LARGE = 'projects:image.tooLarge';
const UNREADABLE = 'projects:image.failed';

/**
 * Reads a multipart body with one image file field as it streams
 * (app/web/multipart.server.ts). At most `maxBytes` of the file are kept; a
 * larger file is skipped unread and the form's texts still come back, so a
 * no-JS page answers within itself. Bodies over `UPLOAD_FORM_IN_PAGE_BYTES`
 * stop the reading (413 with nothing echoed).
 */
async function readImageUpload(request: Request, field: string, maxBytes: number) {
  const read = await readMultipart(request, {
    file: { name: field, maxBytes, collect: () => new BytesCollector(), whenTooLarge: 'skip' },
    maxBodyBytes: UPLOAD_FORM_IN_PAGE_BYTES,
  });
  if (read.status !== 'ok') return { status: read.status === 'tooLarge' ? ('tooLarge' as const) : ('unreadable' as const), form: null };
  const form = toFormData(read.fields);
  if (read.fileTooLarge) return { status: 'tooLarge' as const, form };
  if (!read.file) return { status: 'unreadable' as const, form };
  return { status: 'ok' as const, bytes: read.file.collector.bytes(), form };
}

/** The calculator's no-JS image form and `POST /api/images/upload`: one product image (10 MB at most). */
export async function readImageForm(request: Request, field = 'image'): Promise<ImageForm> {
  const upload = await readImageUpload(request, field, PRODUCT_IMAGE_MAX_BYTES);
  const image = upload.status === 'ok' ? ok(upload.bytes) : upload.status === 'tooLarge' ? tooLarge(TOO_LARGE) : invalid(UNREADABLE);
  return { image, form: upload.form };
}

/**
 * Reads the profile page's no-JS picture form: one file field `image`, at most
 * 5 MB kept in memory (a larger one is 413 with the spec's "Maximum: 5MB"). A
 * body it cannot read is not a picture (400, never 500).
 */
/** One picture file field `image`, read as it streams: its bytes, or why there are none (the logo's and the profile picture's forms). */
export async function readPictureUpload(
  request: Request,
  maxBytes: number,
): Promise<{ ok: true; bytes: Buffer } | { ok: false; error: 'tooLarge' | 'notAnImage' }> {
  const upload = await readImageUpload(request, 'image', maxBytes);
  if (upload.status === 'ok') return { ok: true, bytes: upload.bytes };
  return { ok: false, error: upload.status === 'tooLarge' ? 'tooLarge' : 'notAnImage' };
}

export async function readProfileImageForm(request: Request): Promise<Result<Buffer>> {
  const upload = await readPictureUpload(request, PROFILE_IMAGE_MAX_BYTES);
  if (upload.ok) return ok(upload.bytes);
  if (upload.error === 'tooLarge') return tooLarge(profileImageErrorKeys.tooLarge, { params: { n: PROFILE_IMAGE_MAX_BYTES / 1024 / 1024 } });
  return refusedPicture('notAnImage');
}
