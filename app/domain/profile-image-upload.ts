/**
 * Browser side of the profile picture (spec §4/§5 "Profile picture"): check
 * the chosen file, turn a PNG into a JPEG (quality 0.85 on white), then
 * upload: POST /api/profile/upload-url → PUT the file there →
 * PUT /api/profile/image { imageUrl } (the address without its query string).
 * The server checks the bytes again and re-encodes whatever arrives.
 */

export type ClientImageError = 'notAnImage' | 'wrongType' | 'tooLarge' | 'failed';

/** Why a picture was refused, in the browser or on the server (models/profile.server.ts), as i18n keys. */
export const profileImageErrorKeys = {
  invalidAddress: 'auth:messages.imageInvalidAddress',
  notUploaded: 'auth:messages.imageNotUploaded',
  tooLarge: 'auth:messages.imageTooLarge',
  notAnImage: 'auth:messages.imageNotAnImage',
  wrongType: 'auth:messages.imageWrongType',
  tooManyPixels: 'auth:messages.imageTooManyPixels',
  failed: 'auth:messages.profileImageFailed',
} as const;

const ALLOWED_TYPES = new Set(['image/jpeg', 'image/png']);
const JPEG_QUALITY = 0.85;

export async function prepareProfileImage(
  file: File,
  maxBytes: number,
): Promise<{ ok: true; blob: Blob } | { ok: false; error: ClientImageError }> {
  if (!file.type.startsWith('image/')) return { ok: false, error: 'notAnImage' };
  if (!ALLOWED_TYPES.has(file.type)) return { ok: false, error: 'wrongType' };
  if (file.size > maxBytes) return { ok: false, error: 'tooLarge' };
  if (file.type === 'image/jpeg') return { ok: true, blob: file };
  try {
    const jpeg = await pngToJpeg(file);
    if (jpeg.size > maxBytes) return { ok: false, error: 'tooLarge' };
    return { ok: true, blob: jpeg };
  } catch {
    return { ok: false, error: 'notAnImage' };
  }
}

/** Draws the PNG on a white canvas (transparency becomes white) and encodes it as JPEG. */
async function pngToJpeg(file: Blob): Promise<Blob> {
  const bitmap = await createImageBitmap(file);
  try {
    const canvas = document.createElement('canvas');
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))), 'image/jpeg', JPEG_QUALITY),
    );
  } finally {
    bitmap.close();
  }
}

/** Runs the three upload steps; `message` is the server's German text when it sent one. */
export async function uploadProfileImage(jpeg: Blob): Promise<{ ok: true; imageUrl: string } | { ok: false; message: string | null }> {
  try {
    const addressResponse = await fetch('/api/profile/upload-url', { method: 'POST', credentials: 'same-origin' });
    if (!addressResponse.ok) return { ok: false, message: await messageOf(addressResponse) };
    const { uploadURL } = (await addressResponse.json()) as { uploadURL: string };

    const put = await fetch(uploadURL, { method: 'PUT', body: jpeg, headers: { 'Content-Type': 'image/jpeg' } });
    if (!put.ok) return { ok: false, message: null };

    const imageUrl = uploadURL.split('?')[0];
    const complete = await fetch('/api/profile/image', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ imageUrl }),
    });
    if (!complete.ok) return { ok: false, message: await messageOf(complete) };
    const body = (await complete.json()) as { imageUrl: string };
    return { ok: true, imageUrl: body.imageUrl };
  } catch {
    return { ok: false, message: null };
  }
}

async function messageOf(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : null;
  } catch {
    return null;
  }
}
