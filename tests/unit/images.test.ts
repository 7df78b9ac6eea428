import crypto from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectImageType, normalizeUploadedImage } from '~/services/images.server';

/** Test images are made here with sharp, so no binary fixtures are needed. */
const MAX = 5 * 1024 * 1024;
const solid = (width: number, height: number, background: sharp.Color, channels: 3 | 4 = 3) =>
  sharp({ create: { width, height, channels, background } });

async function normalizeOk(bytes: Buffer) {
  const result = await normalizeUploadedImage(bytes, { maxBytes: MAX });
  if (!result.ok) throw new Error(`expected ok, got ${result.error}`);
  return result.jpeg;
}

function expectJpeg(bytes: Buffer) {
  expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
}

describe('normalizeUploadedImage', () => {
  it('re-encodes a JPEG and removes EXIF and other metadata', async () => {
    const input = await solid(64, 48, '#3366cc')
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret', Artist: 'Jane' } } })
      .toBuffer();
    const before = await sharp(input).metadata();
    expect(before.exif?.toString('latin1')).toContain('secret');

    const jpeg = await normalizeOk(input);
    expectJpeg(jpeg);
    const after = await sharp(jpeg).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(jpeg.toString('latin1')).not.toContain('secret');
    expect([after.width, after.height]).toEqual([64, 48]);
  });

  it('applies the EXIF orientation before dropping it', async () => {
    // Stored landscape, tagged "rotate 90° clockwise" (orientation 6): shown portrait.
    const input = await solid(200, 100, '#ff0000').jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const after = await sharp(await normalizeOk(input)).metadata();
    expect([after.width, after.height]).toEqual([100, 200]);
    expect(after.orientation).toBeUndefined();
  });

  it('converts a PNG with transparency to JPEG on white', async () => {
    // Left half fully transparent red, right half opaque blue.
    const width = 40;
    const height = 20;
    const raw = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const i = (y * width + x) * 4;
        if (x < width / 2) raw.set([255, 0, 0, 0], i);
        else raw.set([0, 0, 255, 255], i);
      }
    }
    const png = await sharp(raw, { raw: { width, height, channels: 4 } }).png().toBuffer();
    expect(detectImageType(png)).toBe('png');

    const jpeg = await normalizeOk(png);
    expectJpeg(jpeg);
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    for (const value of pixel(5, 10)) expect(value).toBeGreaterThanOrEqual(250); // white, not black or red
    const [r, g, b] = pixel(35, 10);
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(40);
    expect(g).toBeLessThan(40);
  });

  it('detects the type from the bytes, not the name: a PNG called .jpg is a PNG and is accepted', async () => {
    const png = await solid(10, 10, '#00ff00').png().toBuffer();
    const file = { name: 'foto.jpg', type: 'image/jpeg', bytes: png };
    expect(detectImageType(file.bytes)).toBe('png');
    expectJpeg(await normalizeOk(file.bytes));
  });

  it('shrinks to fit within 2048 x 2048 and never enlarges', async () => {
    const big = await solid(3000, 1000, '#888888').jpeg().toBuffer();
    const bigOut = await sharp(await normalizeOk(big)).metadata();
    expect([bigOut.width, bigOut.height]).toEqual([2048, 683]);

    const small = await solid(30, 20, '#888888').png().toBuffer();
    const smallOut = await sharp(await normalizeOk(small)).metadata();
    expect([smallOut.width, smallOut.height]).toEqual([30, 20]);
  });

  it('refuses other image formats as wrongType', async () => {
    const gif = await solid(10, 10, '#ff0000').gif().toBuffer();
    const webp = await solid(10, 10, '#ff0000').webp().toBuffer();
    const tiff = await solid(10, 10, '#ff0000').tiff().toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    for (const [name, bytes] of Object.entries({ gif, webp, tiff, svg })) {
      expect(await normalizeUploadedImage(bytes, { maxBytes: MAX }), name).toEqual({ ok: false, error: 'wrongType' });
    }
  });

  it('refuses bytes that are no image', async () => {
    const random = crypto.randomBytes(4096);
    random[0] = 0x00; // make sure random bytes do not start like a JPEG by chance
    expect(await normalizeUploadedImage(random, { maxBytes: MAX })).toEqual({ ok: false, error: 'notAnImage' });
    expect(await normalizeUploadedImage(Buffer.alloc(0), { maxBytes: MAX })).toEqual({ ok: false, error: 'notAnImage' });
    expect(await normalizeUploadedImage(Buffer.from('hello, world'), { maxBytes: MAX })).toEqual({ ok: false, error: 'notAnImage' });

    // Right magic bytes, garbage after them.
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), crypto.randomBytes(2048)]);
    expect(await normalizeUploadedImage(fakeJpeg, { maxBytes: MAX })).toEqual({ ok: false, error: 'notAnImage' });
    const png = await solid(100, 100, '#123456').png().toBuffer();
    const truncated = png.subarray(0, 40);
    expect(await normalizeUploadedImage(truncated, { maxBytes: MAX })).toEqual({ ok: false, error: 'notAnImage' });
  });

  it('refuses files over maxBytes before looking at them', async () => {
    const jpeg = await solid(10, 10, '#ff0000').jpeg().toBuffer();
    expect(await normalizeUploadedImage(jpeg, { maxBytes: jpeg.length - 1 })).toEqual({ ok: false, error: 'tooLarge' });
    expect((await normalizeUploadedImage(jpeg, { maxBytes: jpeg.length })).ok).toBe(true);
    const huge = Buffer.concat([jpeg, Buffer.alloc(MAX)]);
    expect(await normalizeUploadedImage(huge, { maxBytes: MAX })).toEqual({ ok: false, error: 'tooLarge' });
  });

  it('refuses images over 40 megapixels from the header', async () => {
    // 50 megapixels of one colour compress to a few kilobytes (a "pixel bomb").
    const bomb = await solid(10_000, 5_000, '#ffffff').png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(MAX);
    const started = performance.now();
    expect(await normalizeUploadedImage(bomb, { maxBytes: MAX })).toEqual({ ok: false, error: 'tooManyPixels' });
    // Only the header was read, so this is quick.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
