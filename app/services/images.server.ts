import sharp from 'sharp';

/**
 * Uploaded pictures are never stored or served as sent. The type comes from the
 * first bytes only (file names and Content-Type headers are the client's word),
 * the pixel count is checked from the header before anything is decoded, and
 * the image is re-encoded to a plain JPEG: EXIF orientation applied, alpha
 * flattened on white, at most 2048 px on the long side, no metadata at all
 * (no EXIF/GPS, no ICC, no comments).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_EDGE = 2048;
export const JPEG_QUALITY = 85;

export type ImageError = 'tooLarge' | 'notAnImage' | 'wrongType' | 'tooManyPixels';

type Detected = 'jpeg' | 'png' | 'otherImage' | 'unknown';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JPEG and PNG are accepted; other well-known image formats are recognised only to give a better error. */
export function detectImageType(bytes: Buffer): Detected {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  const ascii = bytes.subarray(0, 16).toString('latin1');
  if (
    ascii.startsWith('GIF87a') ||
    ascii.startsWith('GIF89a') ||
    (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') ||
    ascii.startsWith('BM') ||
    ascii.startsWith('II*\0') ||
    ascii.startsWith('MM\0*') ||
    ascii.slice(4, 8) === 'ftyp' || // HEIC/AVIF (ISO media)
    bytes.subarray(0, 4).equals(Buffer.from([0x00, 0x00, 0x01, 0x00])) || // ICO
    ascii.startsWith('\0\0\0\x0cjXL ') ||
    (bytes[0] === 0xff && bytes[1] === 0x0a) || // JPEG XL codestream
    /^\s*<(\?xml|svg)/i.test(bytes.subarray(0, 256).toString('utf8'))
  ) {
    return 'otherImage';
  }
  return 'unknown';
}

export async function normalizeUploadedImage(
  bytes: Buffer,
  opts: { maxBytes: number; maxEdge?: number; maxPixels?: number },
): Promise<{ ok: true; jpeg: Buffer } | { ok: false; error: ImageError }> {
  if (bytes.length > opts.maxBytes) return { ok: false, error: 'tooLarge' };

  const type = detectImageType(bytes);
  if (type === 'otherImage') return { ok: false, error: 'wrongType' };
  if (type === 'unknown') return { ok: false, error: 'notAnImage' };

  // sharp sniffs the format itself; it must agree with the magic bytes, so only
  // its JPEG and PNG loaders ever decode an upload.
  const maxPixels = Math.min(opts.maxPixels ?? MAX_IMAGE_PIXELS, MAX_IMAGE_PIXELS);
  const input = { limitInputPixels: maxPixels, failOn: 'error' as const };

  let width: number | undefined;
  let height: number | undefined;
  let format: string | undefined;
  try {
    // Reads the header only; no pixels are decoded here.
    ({ width, height, format } = await sharp(bytes, { ...input, limitInputPixels: false }).metadata());
  } catch {
    return { ok: false, error: 'notAnImage' };
  }
  if (format !== type || !width || !height) return { ok: false, error: 'notAnImage' };
  if (width * height > maxPixels) return { ok: false, error: 'tooManyPixels' };

  try {
    const jpeg = await sharp(bytes, input)
      .rotate()
      .flatten({ background: '#ffffff' })
      .resize(opts.maxEdge ?? MAX_IMAGE_EDGE, opts.maxEdge ?? MAX_IMAGE_EDGE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer();
    return { ok: true, jpeg };
  } catch (error) {
    // limitInputPixels is a second line of defence should the header have lied.
    if (error instanceof Error && /pixel limit/i.test(error.message)) return { ok: false, error: 'tooManyPixels' };
    return { ok: false, error: 'notAnImage' };
  }
}
