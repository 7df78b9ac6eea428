import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { action as calculatorAction } from '../../app/routes/_calculator+/calculator';
import { action as slicerImportAction } from '../../app/routes/_calculator+/calculator.slicer-import';
import { action as profileAction } from '../../app/routes/_account+/profile';
import { action as imagesUploadAction } from '../../app/routes/api+/images.upload';
import { action as slicerParseAction } from '../../app/routes/api+/slicer.parse';
import { PRODUCT_IMAGE_MAX_BYTES, PROFILE_IMAGE_MAX_BYTES, SLICER_MAX_BYTES, UPLOAD_FORM_IN_PAGE_BYTES } from '../../app/domain/limits';
import { randomIp, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/**
 * The three multipart uploads (slicer import, product image, profile picture)
 * read their bodies through one streaming reader (app/web/multipart.server.ts).
 * Each route gets a body over its cap, sent as a stream without
 * Content-Length (as the request guard hands a chunked body on): it answers
 * the German 413 (the no-JS slicer import: the calculator link with the
 * error), and what stays in memory while the body streams is bounded by the
 * cap, never the body. Memory is measured after a full GC every few MB, so
 * only what the reader still holds counts.
 */
const app = useAuthTestApp('multipart_uploads');

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const MB = 1024 * 1024;
const BOUNDARY = '----druckpreisMultipart9f3Kd0';

const retained = () => process.memoryUsage().arrayBuffers;

/** A full collection, and another once V8 has swept the freed buffers off its threads: what is left is held. */
async function settle() {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
}

/**
 * A multipart body of text fields and one file of `file.bytes` zero bytes,
 * produced `chunk` bytes at a time. Every `sampleEvery` bytes the heap is
 * collected and the bytes still held are sampled.
 */
async function streamedUpload(
  path: string,
  fields: Record<string, string>,
  file: { name: string; filename: string; bytes: number },
  { cookie, chunk = MB, sampleEvery = 8 * MB }: { cookie?: string; chunk?: number; sampleEvery?: number } = {},
) {
  const head: Buffer[] = Object.entries(fields).map(([name, value]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  head.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  await settle();
  const baseline = retained();
  const memory = { peak: 0, sent: 0 };
  let remaining = file.bytes;
  let started = false;
  let sinceSample = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(new Uint8Array(Buffer.concat(head)));
        return;
      }
      if (remaining <= 0) {
        controller.enqueue(new Uint8Array(tail));
        controller.close();
        return;
      }
      const size = Math.min(chunk, remaining);
      remaining -= size;
      memory.sent += size;
      sinceSample += size;
      if (sinceSample >= sampleEvery) {
        sinceSample = 0;
        await settle();
        memory.peak = Math.max(memory.peak, retained() - baseline);
      }
      controller.enqueue(new Uint8Array(size));
    },
  });
  const headers = new Headers({ 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, 'x-druckpreis-client-ip': randomIp() });
  if (cookie) headers.set('Cookie', cookie);
  const request = new Request(`http://localhost:3000${path}`, { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { request, memory };
}

/** Runs an action; a page's `data(...)` answer comes back as a Response too. */
async function run(handler: Handler, request: Request): Promise<Response> {
  let result: unknown;
  try {
    result = await handler({ request, params: {}, context: {} });
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  if (result instanceof Response) return result;
  const { data, init } = result as { data: unknown; init?: ResponseInit };
  return Response.json(data, init);
}

/** The reader may hold the file up to its cap and a few chunks in flight; the body is many times that. */
const bounded = (cap: number) => cap + 8 * MB;

describe('product image uploads stream through the one reader', () => {
  it('/api/images/upload: a 60 MB image gets the German 413 JSON, and at most the 10 MB cap is held', async () => {
    const { cookie } = await signedInUser(app.orm);
    const { request, memory } = await streamedUpload('/api/images/upload', {}, { name: 'image', filename: 'gross.png', bytes: 60 * MB }, { cookie });
    const response = await run(imagesUploadAction as Handler, request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Die Datei ist zu groß. Maximal 10MB sind erlaubt.' });
    expect(memory.sent).toBe(60 * MB);
    expect(memory.peak).toBeLessThan(bounded(PRODUCT_IMAGE_MAX_BYTES));
  });

  it('/calculator without JavaScript: a 60 MB image is answered within the page (413, the spec’s message, the typed values), at most the cap held', async () => {
    const { cookie } = await signedInUser(app.orm);
    const fields = { intent: 'uploadImage', filamentWeight: '37', projectName: 'Große Vase' };
    const { request, memory } = await streamedUpload('/calculator', fields, { name: 'image', filename: 'gross.png', bytes: 60 * MB }, { cookie });
    const response = await run(calculatorAction as Handler, request);
    expect(response.status).toBe(413);
    const answer = JSON.stringify(await response.json());
    expect(answer).toContain('Die Datei ist zu groß. Maximal 10MB sind erlaubt.');
    expect(answer).toContain('Große Vase');
    expect(answer).toContain('"37"');
    expect(memory.peak).toBeLessThan(bounded(PRODUCT_IMAGE_MAX_BYTES));
  });

  it('/calculator: a body past the in-page limit stops the reading with the bare German 413', async () => {
    const { cookie } = await signedInUser(app.orm);
    const { request, memory } = await streamedUpload('/calculator', { intent: 'uploadImage' }, { name: 'image', filename: 'riesig.png', bytes: UPLOAD_FORM_IN_PAGE_BYTES + 16 * MB }, { cookie });
    const response = await run(calculatorAction as Handler, request);
    expect(response.status).toBe(413);
    expect(await response.text()).toBe('Die Anfrage ist zu groß.');
    // Read up to the limit (plus what was in flight), not to the end.
    expect(memory.sent).toBeLessThanOrEqual(UPLOAD_FORM_IN_PAGE_BYTES + 2 * MB);
    expect(memory.peak).toBeLessThan(bounded(PRODUCT_IMAGE_MAX_BYTES));
  });
});

describe('the profile picture streams through the one reader', () => {
  it('/profile without JavaScript: a 40 MB picture gets 413 with the German message, at most the 5 MB cap held', async () => {
    const { cookie } = await signedInUser(app.orm);
    const { request, memory } = await streamedUpload('/profile', { intent: 'uploadImage' }, { name: 'image', filename: 'gross.jpg', bytes: 40 * MB }, { cookie });
    const response = await run(profileAction as Handler, request);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ intent: 'uploadImage', formError: 'Datei ist zu groß. Maximum: 5MB' });
    expect(memory.sent).toBe(40 * MB);
    expect(memory.peak).toBeLessThan(bounded(PROFILE_IMAGE_MAX_BYTES));
  });
});

describe('slicer files stream through the one reader', () => {
  // 1 GB in 2 MB chunks, sampled every 128 MB: the reading stays in seconds.
  const SLICER_STREAM = { chunk: 2 * MB, sampleEvery: 128 * MB };
  /** Head and tail (4 MB each) and a few chunks in flight, for a 1 GB stream. */
  const SLICER_HELD = 8 * MB + 8 * MB;
  const SLICER_TOO_LARGE = 'Die Datei ist größer als 1 GB. Bitte wählen Sie die G-Code-Datei eines einzelnen Drucks.';

  it('/api/slicer/parse: a file over 1 GB gets the German 413 while only its head and tail are held', async () => {
    const { request, memory } = await streamedUpload('/api/slicer/parse', {}, { name: 'file', filename: 'riesig.gcode', bytes: SLICER_MAX_BYTES + 4 * MB }, SLICER_STREAM);
    const response = await run(slicerParseAction as Handler, request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: SLICER_TOO_LARGE });
    expect(memory.peak).toBeLessThan(SLICER_HELD);
  }, 60_000);

  it('/calculator/slicer-import without JavaScript: the same file goes back to the calculator with the error', async () => {
    const { request, memory } = await streamedUpload('/calculator/slicer-import', { filamentPricePerKg: '22,5' }, { name: 'file', filename: 'riesig.gcode', bytes: SLICER_MAX_BYTES + 4 * MB }, SLICER_STREAM);
    const response = await run(slicerImportAction as Handler, request);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('Location')!, 'http://localhost:3000');
    expect(location.pathname).toBe('/calculator');
    expect(location.searchParams.get('slicerError')).toBe('tooLarge');
    expect(memory.peak).toBeLessThan(SLICER_HELD);
  }, 60_000);
});
