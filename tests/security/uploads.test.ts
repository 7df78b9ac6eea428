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

const put = (url: string, body: Buffer) => fetch(url, { method: 'PUT', headers: { 'Content-Type': 'image/jpeg' }, body: new Uint8Array(body) });
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
    const rawPath = new URL(raw.url).pathname.replace(/^\/uploads\//, '/images/');
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
      keys.push(decodeURIComponent(new URL(url).pathname.replace(/^\/uploads\//, '')));
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
});
