import { afterEach, describe, expect, it, vi } from 'vitest';
import { PendingUpload, User } from '../../app/entities';
import { requestProfileUploadUrl } from '../../app/models/profile.server';
import { MAX_PENDING_PRODUCT_IMAGES } from '../../app/models/product-images.server';
import { parseProductImagePath } from '../../app/domain/product-images';
import { action as listAction } from '../../app/routes/api+/projects';
import { action as oneAction } from '../../app/routes/api+/projects.$id';
import { action as uploadAction } from '../../app/routes/api+/images.upload';
import { action as calculatorAction } from '../../app/routes/_calculator+/calculator';
import { getFileStore, type FileStore } from '../../app/services/storage.server';
import { deleteAbandonedUploads } from '../../app/services/upload-cleanup.server';
import { apiRequest, call, projectPayload, randomIp, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/**
 * Issue 12 §4: product images that are never saved with a project are deleted
 * after a day by the upload cleanup job (real PostgreSQL, real local store);
 * a saved image never is, whatever the timing; several instances may run it.
 */
const app = useAuthTestApp('image_cleanup');

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PNG_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** Premium, so the project limit never gets in the way of the image tests. */
const signedInPremiumUser = () => signedInUser(app.orm, { premium: true });

// Without the fixed fee and the printer's cost and lifetime (the image tests never needed them).
const { marketplaceFeeFixed: _fee, printerCost: _cost, printerLifetimeHours: _hours, ...basePayload } = projectPayload({ printTime: 2 });
const payload = (overrides: Record<string, unknown> = {}) => ({ ...basePayload, ...overrides });

const createProject = (cookie: string, body: unknown) => call(listAction as Handler, apiRequest('/api/projects', 'POST', body, { cookie }));
const updateProject = (cookie: string, id: string, body: unknown) =>
  call(oneAction as Handler, apiRequest(`/api/projects/${id}`, 'PUT', body, { cookie }), { id });

function upload(cookie: string) {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(PNG_PIXEL)], { type: 'image/png' }), 'bild.png');
  const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1', Cookie: cookie });
  return call(uploadAction as Handler, new Request('http://localhost:3000/api/images/upload', { method: 'POST', body: form, headers }));
}

async function uploadPath(cookie: string): Promise<string> {
  const response = await upload(cookie);
  expect(response.status).toBe(200);
  return (await response.json()).imagePath;
}

/** The calculator page's action without JavaScript (multipart for the image upload, urlencoded otherwise). */
async function calculatorPost(cookie: string, fields: Record<string, string>, image?: Buffer) {
  const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1', Cookie: cookie });
  let body: FormData | URLSearchParams;
  if (image) {
    body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    body.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'bild.png');
  } else {
    body = new URLSearchParams(fields);
  }
  const result = await calculatorAction({ request: new Request('http://localhost:3000/calculator', { method: 'POST', headers, body }), params: {}, context: {} } as never).catch(
    (error: unknown) => error,
  );
  if (result instanceof Response) return { status: result.status, location: result.headers.get('Location'), data: null };
  const { data, init } = result as { data: { hidden: Record<string, string>; imageError: string | null }; init: { status: number } | null };
  return { status: init?.status ?? 200, location: null, data };
}

const keyOf = (path: string) => parseProductImagePath(path)!.key;
const stored = async (path: string) => (await getFileStore().get(keyOf(path))) !== null;
const pendingOf = (userId: string) => app.em().find(PendingUpload, { userId }, { orderBy: { key: 'asc' } });
const job = (now: Date, options: { store?: FileStore } = {}) => deleteAbandonedUploads({ em: app.em(), now, ...options });
const dayLater = (extra = 1000) => new Date(Date.now() + DAY + extra);

/** Waits until some backend of the test database waits for a row lock (the save blocked by the job's claim). */
async function someoneWaitsForALock() {
  for (let i = 0; i < 200; i++) {
    const [row] = await app.em().getConnection().execute<{ n: number }[]>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if (row.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('nobody waited for a lock');
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { open, opened, arrive, arrived };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('product images never saved with a project (issue 12 §4)', () => {
  it('are kept for a day, then deleted by the cleanup job; the path cannot be saved afterwards', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const before = Date.now();
    const path = await uploadPath(cookie);
    expect(await stored(path)).toBe(true);
    const [row] = await pendingOf(user.id);
    expect(row).toMatchObject({ key: keyOf(path), kind: 'product' });
    expect(row.expiresAt.getTime() - row.createdAt!.getTime()).toBe(DAY);

    await job(new Date(before + DAY - 60_000));
    expect(await stored(path)).toBe(true);
    expect(await pendingOf(user.id)).toHaveLength(1);

    expect(await job(dayLater())).toBeGreaterThanOrEqual(1);
    expect(await stored(path)).toBe(false);
    expect(await pendingOf(user.id)).toEqual([]);

    const created = await createProject(cookie, payload({ productImagePath: path }));
    expect(created.status).toBe(201);
    expect((await created.json()).productImagePath).toBeNull();
  });

  it('never deletes an image saved with a project within the day (API create, API update, calculator without JavaScript)', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const first = await uploadPath(cookie);
    const created = await (await createProject(cookie, payload({ productImagePath: first }))).json();
    expect(created.productImagePath).toBe(first);

    const bare = await (await createProject(cookie, payload({ name: 'Ohne Bild' }))).json();
    const second = await uploadPath(cookie);
    const updated = await (await updateProject(cookie, bare.id, payload({ name: 'Ohne Bild', productImagePath: second }))).json();
    expect(updated.productImagePath).toBe(second);

    const uploaded = await calculatorPost(cookie, { intent: 'uploadImage', projectName: 'Ring' }, PNG_PIXEL);
    expect(uploaded.status).toBe(200);
    const third = uploaded.data!.hidden.productImagePath;
    expect(await stored(third)).toBe(true);
    const saved = await calculatorPost(cookie, { intent: 'save', projectName: 'Ring', productImagePath: third });
    expect(saved.status).toBe(302);

    // Accepted images leave the pending list at once, so no later run touches them.
    expect(await pendingOf(user.id)).toEqual([]);
    await job(dayLater());
    await job(new Date(Date.now() + 30 * DAY));
    for (const path of [first, second, third]) expect(await stored(path)).toBe(true);
  });

  it('a save that comes while a cleanup run holds the upload waits for it and keeps the project without the image', async () => {
    const { cookie } = await signedInPremiumUser();
    const path = await uploadPath(cookie);
    const store = getFileStore();
    const deleting = gate();
    // The job's store pauses on this key: the run has claimed the row and is deleting the file.
    const pausingStore: FileStore = {
      put: (...args) => store.put(...args),
      get: (...args) => store.get(...args),
      presignPut: (...args) => store.presignPut(...args),
      delete: async (key) => {
        if (key === keyOf(path)) {
          deleting.arrive();
          await deleting.opened;
        }
        return store.delete(key);
      },
    };
    const cleaning = job(dayLater(), { store: pausingStore });
    await deleting.arrived;

    const saving = createProject(cookie, payload({ productImagePath: path }));
    await someoneWaitsForALock();
    deleting.open();
    expect(await cleaning).toBeGreaterThanOrEqual(1);
    const created = await saving;
    expect(created.status).toBe(201);
    // Never a project pointing at a deleted file.
    expect((await created.json()).productImagePath).toBeNull();
    expect(await stored(path)).toBe(false);
  });

  it('a cleanup run that comes while a save holds the upload skips it, and the saved image stays', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const path = await uploadPath(cookie);
    const store = getFileStore();
    const original = store.get.bind(store);
    const looking = gate();
    // The save pauses after it took the upload's row (uncommitted) and before it checks the file.
    vi.spyOn(store, 'get').mockImplementation(async (key) => {
      if (key === keyOf(path)) {
        looking.arrive();
        await looking.opened;
      }
      return original(key);
    });
    const saving = createProject(cookie, payload({ productImagePath: path }));
    await looking.arrived;

    // The run neither waits for the save nor deletes its image.
    await job(dayLater());
    expect(await original(keyOf(path))).not.toBeNull();

    looking.open();
    const created = await saving;
    expect(created.status).toBe(201);
    expect((await created.json()).productImagePath).toBe(path);
    vi.restoreAllMocks();
    expect(await pendingOf(user.id)).toEqual([]);
    await job(new Date(Date.now() + 30 * DAY));
    expect(await stored(path)).toBe(true);
  });

  it('drops a due row whose image a project shows without deleting the file (second line of defence)', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const path = await uploadPath(cookie);
    expect((await (await createProject(cookie, payload({ productImagePath: path }))).json()).productImagePath).toBe(path);
    // A row that should not be there (e.g. a path written some other way than a save).
    await app.em().insert(PendingUpload, { key: keyOf(path), userId: user.id, kind: 'product', expiresAt: new Date(Date.now() - HOUR) });

    expect(await job(new Date())).toBeGreaterThanOrEqual(1);
    expect(await pendingOf(user.id)).toEqual([]);
    expect(await stored(path)).toBe(true);
  });

  it('two cleanup runs at once delete every abandoned upload exactly once, without errors', async () => {
    // Everything due from the tests above first, so the two runs below see only these uploads.
    while ((await job(dayLater())) > 0);
    const { user, cookie } = await signedInPremiumUser();
    const paths: string[] = [];
    for (let i = 0; i < 6; i++) paths.push(await uploadPath(cookie));
    const store = getFileStore();
    const deleteSpy = vi.spyOn(store, 'delete');

    const now = dayLater();
    const [a, b] = await Promise.all([job(now), job(now)]);
    expect(a + b).toBe(paths.length);
    const deleted = deleteSpy.mock.calls.map(([key]) => key).sort();
    expect(deleted).toEqual(paths.map(keyOf).sort());
    vi.restoreAllMocks();
    for (const path of paths) expect(await stored(path)).toBe(false);
    expect(await pendingOf(user.id)).toEqual([]);
  });
});

describe('the quota of unsaved product images', () => {
  it('refuses uploads beyond the quota (429, German), apart from the profile picture quota; a saved or removed image frees its place', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const paths: string[] = [];
    for (let i = 0; i < MAX_PENDING_PRODUCT_IMAGES; i++) paths.push(await uploadPath(cookie));

    const refused = await upload(cookie);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(DAY / 1000 - 3600);
    expect((await refused.json()).message).toBe(
      'Sie haben zu viele Bilder hochgeladen, die noch zu keinem Projekt gehören. Speichern Sie ein Projekt mit Bild oder versuchen Sie es morgen erneut.',
    );
    const refusedPage = await calculatorPost(cookie, { intent: 'uploadImage' }, PNG_PIXEL);
    expect(refusedPage.status).toBe(429);
    expect(refusedPage.data!.imageError).toMatch(/^Sie haben zu viele Bilder hochgeladen/);

    // Product images do not use up the profile picture's uploads.
    const userEntity = await app.em().findOneOrFail(User, { id: user.id });
    const uploadUrl = await requestProfileUploadUrl({ em: app.em(), user: userEntity, ip: randomIp(), now: new Date(), sessionId: '', hasSession: true, privateResponse: false });
    expect(uploadUrl.kind).toBe('ok');

    // An image saved with a project stops counting.
    expect((await (await createProject(cookie, payload({ productImagePath: paths[0] }))).json()).productImagePath).toBe(paths[0]);
    const next = await uploadPath(cookie);
    expect((await upload(cookie)).status).toBe(429);

    // So does one removed in the calculator without JavaScript (its file goes at once).
    const removed = await calculatorPost(cookie, { intent: 'removeImage', productImagePath: next });
    expect(removed.data!.hidden.productImagePath).toBe('');
    expect(await stored(next)).toBe(false);
    expect((await upload(cookie)).status).toBe(200);
    expect(await app.em().count(PendingUpload, { userId: user.id, kind: 'product' })).toBe(MAX_PENDING_PRODUCT_IMAGES);
  });

  it('parallel uploads never go past the quota', async () => {
    const { user, cookie } = await signedInPremiumUser();
    for (let i = 0; i < MAX_PENDING_PRODUCT_IMAGES - 2; i++) await uploadPath(cookie);
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => upload(cookie)))).map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await app.em().count(PendingUpload, { userId: user.id, kind: 'product' })).toBe(MAX_PENDING_PRODUCT_IMAGES);
  });
});
