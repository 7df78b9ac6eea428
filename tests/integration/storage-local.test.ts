import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * The local-disk FileStore (the embedded default) and the two routes around it:
 * PUT /uploads/<key> (target of the signed upload URLs) and GET /images/<key>
 * (serving, behind the access hook, which is mocked here).
 */
const canViewImage = vi.hoisted(() => vi.fn<(ctx: unknown, key: string) => Promise<boolean>>());
vi.mock('~/models/image-access.server', () => ({ canViewImage }));
// No database here: the request context is a visitor's.
vi.mock('~/services/request-context.server', () => ({ getRequestContext: async () => ({ user: null }) }));
// Nor a pending_uploads table: every key is pending unless a test spent it (the real check is in tests/security/uploads.test.ts).
const spentKeys = vi.hoisted(() => new Set<string>());
vi.mock('~/models/profile.server', () => ({
  storePendingProfileUpload: async (_ctx: unknown, input: { key: string; body: Buffer; contentType: string }) => {
    if (spentKeys.has(input.key)) return 'notPending';
    const { getFileStore } = await import('~/services/storage.server');
    await getFileStore().put(input.key, input.body, input.contentType);
    return 'stored';
  },
}));

const APP_URL = 'https://druckpreis.test';
const MB = 1024 * 1024;
let dir: string;
let storage: typeof import('~/services/storage.server');
let uploads: typeof import('~/routes/_resources+/uploads.$');
let images: typeof import('~/routes/_resources+/images.$');

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'druckpreis-local-'));
  vi.stubEnv('DATA_DIR', dir);
  vi.stubEnv('APP_URL', APP_URL);
  for (const name of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'UPLOAD_SIGNING_SECRET']) {
    vi.stubEnv(name, undefined);
  }
  // getEnv() and getFileStore() cache; load a fresh module graph with the stubbed env.
  vi.resetModules();
  storage = await import('~/services/storage.server');
  uploads = await import('~/routes/_resources+/uploads.$');
  images = await import('~/routes/_resources+/images.$');
});

afterEach(() => {
  vi.useRealTimers();
  canViewImage.mockReset();
});

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const store = () => storage.getFileStore();

/** Every file under the uploads folder (relative), to prove refused uploads leave nothing behind. */
function uploadedFiles(): string[] {
  const root = path.join(dir, 'uploads');
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort();
  } catch {
    return [];
  }
}

/** An upload address as the browser resolves it: relative to the page the app is reached under. */
function absolute(url: string): URL {
  return new URL(url, APP_URL);
}

/** Calls the route action the way Remix would for a request to `url`. */
async function putTo(url: string, init: { contentType?: string; body?: BodyInit; headers?: Record<string, string>; method?: string } = {}) {
  const { pathname } = absolute(url);
  const key = decodeURIComponent(pathname.replace(/^\/uploads\//, ''));
  const headers = new Headers(init.headers);
  if (init.contentType) headers.set('content-type', init.contentType);
  const request = new Request(absolute(url), { method: init.method ?? 'PUT', headers, body: init.body, duplex: 'half' } as RequestInit);
  return uploads.action({ request, params: { '*': key }, context: {} });
}

async function getImage(key: string, headers: Record<string, string> = {}) {
  const request = new Request(`${APP_URL}/images/${key}`, { headers });
  return images.loader({ request, params: { '*': key }, context: {} });
}

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 7)]);

describe('local file store', () => {
  it('is the default without S3 settings', () => {
    expect(store()).toBeInstanceOf(storage.LocalFileStore);
    expect((store() as InstanceType<typeof storage.LocalFileStore>).root).toBe(path.join(dir, 'uploads'));
  });

  it('makes random keys with the given prefix', () => {
    const keys = new Set(Array.from({ length: 50 }, () => storage.newObjectKey('product')));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(key).toMatch(/^product\/[0-9a-f]{32}$/);
      expect(storage.isValidObjectKey(key)).toBe(true);
    }
  });

  it('puts, gets and deletes objects under DATA_DIR/uploads', async () => {
    const key = storage.newObjectKey('profile');
    await store().put(key, JPEG, 'image/jpeg');
    expect(readFileSync(path.join(dir, 'uploads', ...key.split('/'))).equals(JPEG)).toBe(true);

    const got = await store().get(key);
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.body.equals(JPEG)).toBe(true);

    await store().put(key, Buffer.from('replaced'), 'Image/PNG; charset=x');
    expect(await store().get(key)).toEqual({ body: Buffer.from('replaced'), contentType: 'image/png' });

    await store().delete(key);
    expect(await store().get(key)).toBeNull();
    await store().delete(key); // idempotent
    expect(await store().get(storage.newObjectKey('upload'))).toBeNull();
    expect(uploadedFiles()).toEqual([]);
  });

  it('refuses keys that could leave the uploads folder or were not made by the server', async () => {
    const bad = [
      '',
      '..',
      '../secrets/upload-signing',
      'profile/../../etc/passwd',
      '/etc/passwd',
      'profile//x',
      'profile/',
      'profile/x.jpg',
      'profile\\..\\x',
      'Profile/ABC',
      'profile/%2e%2e',
      'profile/a\0b',
      `profile/${'a'.repeat(300)}`,
    ];
    for (const key of bad) {
      expect(storage.isValidObjectKey(key), key).toBe(false);
      await expect(store().put(key, JPEG, 'image/jpeg'), key).rejects.toThrow(/Invalid object key/);
      await expect(store().delete(key), key).rejects.toThrow(/Invalid object key/);
      await expect(store().presignPut(key, 'image/jpeg', 60), key).rejects.toThrow(/Invalid object key/);
      expect(await store().get(key), key).toBeNull();
    }
    expect(uploadedFiles()).toEqual([]);
  });

  it('keeps a generated signing secret in DATA_DIR/secrets (mode 0600) and reuses it', async () => {
    const url = await store().presignPut(storage.newObjectKey('profile'), 'image/jpeg', 60);
    const file = path.join(dir, 'secrets', 'upload-signing.key');
    const secret = readFileSync(file, 'utf8').trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A restart (fresh modules) reads the same secret, so URLs signed before still verify.
    vi.resetModules();
    const { getOrCreateSecret } = await import('~/services/secrets.server');
    expect(getOrCreateSecret('upload-signing')).toBe(secret);
    const fresh = (await import('~/services/storage.server')).getFileStore() as InstanceType<typeof storage.LocalFileStore>;
    const query = absolute(url).searchParams;
    const key = absolute(url).pathname.replace('/uploads/', '');
    expect(
      fresh.verifyPresignedPut({ key, expires: query.get('expires'), contentType: query.get('ct'), signature: query.get('signature') }),
    ).toBe('ok');
  });
});

describe('PUT /uploads/<key> (signed local upload)', () => {
  it('builds a relative URL (on the page origin, whatever the host name) with expiry, content type and signature', async () => {
    const key = storage.newObjectKey('profile');
    const before = Math.floor(Date.now() / 1000);
    const relative = await store().presignPut(key, 'image/jpeg', 300);
    expect(relative.startsWith(`/uploads/${key}?`)).toBe(true);
    // Under another host name than APP_URL the address stays on that host.
    expect(new URL(relative, 'http://127.0.0.1:3000/profile').origin).toBe('http://127.0.0.1:3000');
    const url = absolute(relative);
    expect(`${url.origin}${url.pathname}`).toBe(`${APP_URL}/uploads/${key}`);
    expect(Number(url.searchParams.get('expires'))).toBeGreaterThanOrEqual(before + 300);
    expect(Number(url.searchParams.get('expires'))).toBeLessThanOrEqual(before + 301);
    expect(url.searchParams.get('ct')).toBe('image/jpeg');
    expect(url.searchParams.get('signature')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores the raw bytes of a valid upload', async () => {
    const key = storage.newObjectKey('profile');
    const url = await store().presignPut(key, 'image/jpeg', 300);
    const response = await putTo(url, { contentType: 'image/jpeg', body: JPEG });
    expect(response.status).toBe(204);
    expect(await store().get(key)).toEqual({ body: JPEG, contentType: 'image/jpeg' });
    await store().delete(key);
  });

  it('refuses an upload address that is no longer pending (403, German, nothing stored)', async () => {
    const key = storage.newObjectKey('profile');
    const url = await store().presignPut(key, 'image/jpeg', 300);
    spentKeys.add(key);
    const before = uploadedFiles();
    const response = await putTo(url, { contentType: 'image/jpeg', body: JPEG });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/bereits verwendet/);
    expect(uploadedFiles()).toEqual(before);
  });

  it('accepts exactly 5 MB', async () => {
    const key = storage.newObjectKey('upload');
    const url = await store().presignPut(key, 'image/png', 300);
    const response = await putTo(url, { contentType: 'image/png', body: Buffer.alloc(5 * MB, 1) });
    expect(response.status).toBe(204);
    expect((await store().get(key))?.body.length).toBe(5 * MB);
    await store().delete(key);
  });

  it('refuses an expired URL', async () => {
    const key = storage.newObjectKey('profile');
    const url = await store().presignPut(key, 'image/jpeg', 60);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    const response = await putTo(url, { contentType: 'image/jpeg', body: JPEG });
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/abgelaufen/);
    expect(await store().get(key)).toBeNull();
  });

  it('refuses tampered URLs', async () => {
    const key = storage.newObjectKey('profile');
    const url = absolute(await store().presignPut(key, 'image/jpeg', 60));
    const signature = url.searchParams.get('signature')!;
    const variants: URL[] = [];
    const withParam = (name: string, value: string | null) => {
      const copy = new URL(url);
      if (value === null) copy.searchParams.delete(name);
      else copy.searchParams.set(name, value);
      variants.push(copy);
    };
    withParam('signature', `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
    withParam('signature', signature.slice(0, -2));
    withParam('signature', null);
    withParam('expires', String(Number(url.searchParams.get('expires')) + 3600));
    withParam('expires', null);
    withParam('ct', 'text/html');
    // The same signature on another key.
    const moved = new URL(url);
    moved.pathname = `/uploads/${storage.newObjectKey('profile')}`;
    variants.push(moved);

    for (const variant of variants) {
      const contentType = variant.searchParams.get('ct') ?? 'image/jpeg';
      const response = await putTo(variant.toString(), { contentType, body: JPEG });
      expect(response.status, variant.toString()).toBe(403);
    }
    expect(uploadedFiles()).toEqual([]);
  });

  it('refuses a body whose content type differs from the signed one', async () => {
    const key = storage.newObjectKey('profile');
    const url = await store().presignPut(key, 'image/jpeg', 60);
    for (const contentType of ['text/html', 'image/png', 'image/svg+xml', undefined]) {
      const response = await putTo(url, { contentType, body: JPEG });
      expect(response.status, String(contentType)).toBe(415);
    }
    // Parameters and case do not matter, the media type does.
    expect((await putTo(url, { contentType: 'IMAGE/JPEG; foo=bar', body: JPEG })).status).toBe(204);
    await store().delete(key);
    expect(uploadedFiles()).toEqual([]);
  });

  it('refuses bodies over 5 MB, by Content-Length and while streaming', async () => {
    const key = storage.newObjectKey('profile');
    const url = await store().presignPut(key, 'image/jpeg', 60);

    const declared = await putTo(url, {
      contentType: 'image/jpeg',
      body: Buffer.alloc(5 * MB + 1),
      headers: { 'content-length': String(5 * MB + 1) },
    });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe('Datei ist zu groß. Maximum: 5MB');

    // No Content-Length (chunked): the cap applies while reading.
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 100) controller.close(); // would be 6.25 MB
        else controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const streamed = await putTo(url, { contentType: 'image/jpeg', body: stream });
    expect(streamed.status).toBe(413);
    expect(pulled).toBeLessThan(100); // stopped reading early

    expect(await store().get(key)).toBeNull();
    expect(uploadedFiles()).toEqual([]);
  });

  it('refuses an empty body, other methods and invalid keys', async () => {
    const key = storage.newObjectKey('profile');
    const url = await store().presignPut(key, 'image/jpeg', 60);
    expect((await putTo(url, { contentType: 'image/jpeg' })).status).toBe(400);
    expect((await putTo(url, { contentType: 'image/jpeg', body: JPEG, method: 'POST' })).status).toBe(405);

    const query = absolute(url).search;
    for (const bad of ['../secrets/upload-signing', 'profile/..%2f..%2fsecrets', 'profile/x.jpg']) {
      const request = new Request(`${APP_URL}/uploads/x${query}`, {
        method: 'PUT',
        headers: { 'content-type': 'image/jpeg' },
        body: JPEG,
      });
      const response = await uploads.action({ request, params: { '*': bad }, context: {} });
      expect(response.status, bad).toBe(400);
    }
    expect(uploadedFiles()).toEqual([]);
  });

  it('never serves uploads back (GET is 404)', async () => {
    const key = storage.newObjectKey('profile');
    await store().put(key, JPEG, 'image/jpeg');
    const response = await uploads.loader();
    expect(response.status).toBe(404);
    await store().delete(key);
  });
});

describe('GET /images/<key>', () => {
  it('serves an allowed image with safe headers', async () => {
    const key = storage.newObjectKey('profile');
    await store().put(key, JPEG, 'image/jpeg');
    canViewImage.mockResolvedValue(true);

    const response = await getImage(key);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    // nosniff is added once by the server to every response (tests/security/uploads.test.ts checks it over HTTP);
    // the route adding it again sent it twice.
    expect(response.headers.get('x-content-type-options')).toBeNull();
    expect(response.headers.get('content-disposition')).toBe('inline');
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    expect(Buffer.from(await response.arrayBuffer()).equals(JPEG)).toBe(true);
    expect(canViewImage).toHaveBeenCalledWith(expect.objectContaining({ user: null }), key);

    const etag = response.headers.get('etag')!;
    expect((await getImage(key, { 'if-none-match': etag })).status).toBe(304);
    await store().delete(key);
  });

  it('answers 404 when access is refused, the key is unknown or invalid, or the object is no image', async () => {
    const key = storage.newObjectKey('profile');
    await store().put(key, JPEG, 'image/jpeg');
    canViewImage.mockResolvedValue(false);
    expect((await getImage(key)).status).toBe(404);

    canViewImage.mockResolvedValue(true);
    expect((await getImage(storage.newObjectKey('profile'))).status).toBe(404);

    const html = storage.newObjectKey('profile');
    await store().put(html, Buffer.from('<script>alert(1)</script>'), 'text/html');
    expect((await getImage(html)).status).toBe(404);

    canViewImage.mockClear();
    expect((await getImage('../secrets/upload-signing')).status).toBe(404);
    expect(canViewImage).not.toHaveBeenCalled();

    await store().delete(key);
    await store().delete(html);
  });
});
