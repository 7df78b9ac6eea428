import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { deleteAbandonedUploads } from '../../app/services/upload-cleanup.server';
import { rawRequest } from './http';
import { sessionCookieOf, startTestServer, type TestServer } from './server';

/** Issue 10 item 4: upload addresses are limited, only re-encoded pictures are served, to their owner and admins. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sec_uploads');
  // The cleanup runs in this process too (as a second instance): same store, before the env is first read and cached.
  process.env.DATA_DIR = server.dataDir;
  delete process.env.S3_BUCKET;
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

async function account({ admin = false } = {}) {
  const email = `bild.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const password = 'Bilder-Passwort-3';
  const em = server.orm.em.fork();
  const user = em.create(User, { email, password: await hashPassword(password), emailVerified: true, firstName: 'Bea', lastName: 'Bild', isAdmin: admin ? 1 : 0 });
  await em.flush();
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password }) });
  return { user, cookie: sessionCookieOf(login) };
}

const api = (cookie: string, pathname: string, method: string, body?: unknown) =>
  fetch(`${server.url}${pathname}`, {
    method,
    headers: { Cookie: cookie, Origin: server.url, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

async function uploadUrl(cookie: string) {
  const response = await api(cookie, '/api/profile/upload-url', 'POST');
  return { status: response.status, url: response.ok ? ((await response.json()).uploadURL as string) : '' };
}

// The local store's upload URLs are relative (they work under any host name): resolve them against the server.
const put = (url: string, body: Buffer) => fetch(new URL(url, server.url), { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: new Uint8Array(body) });
const image = (url: string, cookie?: string) => rawRequest(server.url, { path: url, headers: cookie ? { Cookie: cookie } : {} });

describe('item 4: upload addresses and served images', () => {
  it('limits open uploads per user (quota) and upload addresses per hour (rate limit)', async () => {
    const { user, cookie } = await account();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await uploadUrl(cookie)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // With the open uploads gone, the hourly limit (20) still holds.
    const clear = () => server.orm.em.getConnection().execute('delete from pending_uploads where user_id = ?', [user.id]);
    await clear();
    for (let i = 3; i < 20; i++) { // the quota-refused request did not count
      expect((await uploadUrl(cookie)).status).toBe(200);
      await clear();
    }
    expect((await uploadUrl(cookie)).status).toBe(429);
  });

  it('never serves a raw upload, serves the re-encoded picture to its owner and admins only, nosniff once', async () => {
    const owner = await account();
    const raw = await uploadUrl(owner.cookie);
    expect((await put(raw.url, Buffer.from('<html><script>alert(1)</script></html>'))).status).toBe(204);
    const rawPath = new URL(raw.url, server.url).pathname.replace(/^\/uploads\//, '/images/');
    expect((await image(rawPath, owner.cookie)).status).toBe(404);

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0d9488' } }).png().toBuffer();
    const good = await uploadUrl(owner.cookie);
    expect((await put(good.url, png)).status).toBe(204);
    const completed = await api(owner.cookie, '/api/profile/image', 'PUT', { imageUrl: good.url.split('?')[0] });
    expect(completed.status).toBe(200);
    const { imageUrl } = await completed.json();

    const mine = await image(imageUrl, owner.cookie);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toBe('image/jpeg');
    expect(mine.headers['x-content-type-options']).toBe('nosniff');
    expect((await sharp(mine.body).metadata()).format).toBe('jpeg');

    const admin = await account({ admin: true });
    expect((await image(imageUrl, admin.cookie)).status).toBe(200);
    const stranger = await account();
    expect((await image(imageUrl, stranger.cookie)).status).toBe(404);
    expect((await image(imageUrl)).status).toBe(404);
  });

  it('deletes uploads never completed, with several cleanup runs at once', async () => {
    const { cookie, user } = await account();
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { url } = await uploadUrl(cookie);
      await put(url, Buffer.from(`unfertig ${i}`));
      keys.push(decodeURIComponent(new URL(url, server.url).pathname.replace(/^\/uploads\//, '')));
    }
    const file = (key: string) => path.join(server.dataDir, 'uploads', key);
    expect(keys.every((key) => fs.existsSync(file(key)))).toBe(true);
    await server.orm.em.getConnection().execute(`update pending_uploads set expires_at = now() - interval '1 second' where user_id = ?`, [user.id]);

    // Two instances at once: every abandoned upload is claimed by exactly one.
    const [a, b] = await Promise.all([
      deleteAbandonedUploads({ em: server.orm.em.fork() }),
      deleteAbandonedUploads({ em: server.orm.em.fork() }),
    ]);
    expect(a + b).toBe(3);
    expect(keys.filter((key) => fs.existsSync(file(key)))).toEqual([]);
    expect(await server.orm.em.getConnection().execute('select count(*)::int as n from pending_uploads where user_id = ?', [user.id])).toEqual([{ n: 0 }]);
  });

  it('refuses a PUT to an upload address once it was completed or its completion failed, leaving no untracked file', async () => {
    const { cookie, user } = await account();
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0d9488' } }).png().toBuffer();
    const file = (url: string) => path.join(server.dataDir, 'uploads', decodeURIComponent(new URL(url, server.url).pathname.replace(/^\/uploads\//, '')));
    const pendingRows = async () => (await server.orm.em.getConnection().execute('select count(*)::int as n from pending_uploads where user_id = ?', [user.id]))[0].n;

    // Completed: the address is spent.
    const done = await uploadUrl(cookie);
    expect((await put(done.url, png)).status).toBe(204);
    expect((await api(cookie, '/api/profile/image', 'PUT', { imageUrl: done.url.split('?')[0] })).status).toBe(200);
    const again = await put(done.url, png);
    expect(again.status).toBe(403);
    expect(await again.text()).toMatch(/Upload-Link wurde bereits verwendet/);
    expect(fs.existsSync(file(done.url))).toBe(false);

    // Completion failed (not an image): row and bytes are gone, and so is the address.
    const failed = await uploadUrl(cookie);
    expect((await put(failed.url, Buffer.from('kein Bild'))).status).toBe(204);
    expect((await api(cookie, '/api/profile/image', 'PUT', { imageUrl: failed.url.split('?')[0] })).status).toBe(400);
    expect(fs.existsSync(file(failed.url))).toBe(false);
    expect((await put(failed.url, png)).status).toBe(403);
    expect(fs.existsSync(file(failed.url))).toBe(false);
    expect(await pendingRows()).toBe(0);

    // An address still pending keeps working (several PUTs, the last one counts).
    const open = await uploadUrl(cookie);
    expect((await put(open.url, Buffer.from('erster Versuch'))).status).toBe(204);
    expect((await put(open.url, png)).status).toBe(204);
    expect(fs.existsSync(file(open.url))).toBe(true);
    expect(await pendingRows()).toBe(1);
  });

  it('answers a broken or overlong picture address with 400 "Die Bildadresse ist ungültig."', async () => {
    const { cookie, user } = await account();
    for (const imageUrl of [`/profile/${user.id}/%`, `/uploads/profile/${user.id}/%E0%A4%A`]) {
      const response = await api(cookie, '/api/profile/image', 'PUT', { imageUrl });
      expect(response.status, imageUrl).toBe(400);
      expect(await response.json(), imageUrl).toMatchObject({ message: 'Die Bildadresse ist ungültig.', error: 'invalidAddress' });
    }
    // Overlong (60 KB): refused by the schema, the field's error says what is wrong (not "erforderlich").
    const response = await api(cookie, '/api/profile/image', 'PUT', { imageUrl: `/uploads/profile/${user.id}/${'a'.repeat(60_000)}` });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual({ imageUrl: ['Die Bildadresse ist ungültig.'] });
  });
});
