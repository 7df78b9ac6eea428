import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestS3Server, type TestS3Server } from '../setup/s3-server';

/**
 * The S3 FileStore against a real S3 API (s3rver on a loopback port):
 * signed requests from the AWS SDK, and a presigned PUT made with plain fetch
 * as the browser would.
 */
const BUCKET = 'druckpreis-test';
let s3: TestS3Server;
let dir: string;
let storage: typeof import('~/services/storage.server');

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'druckpreis-s3-'));
  s3 = await startTestS3Server({ bucket: BUCKET, directory: path.join(dir, 's3'), resetOnClose: true });
  for (const [name, value] of Object.entries(s3.env)) vi.stubEnv(name, value);
  vi.stubEnv('DATA_DIR', path.join(dir, 'data'));
  // getEnv() and getFileStore() cache; load a fresh module graph with the stubbed env.
  vi.resetModules();
  storage = await import('~/services/storage.server');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('S3 file store', () => {
  it('is chosen when S3_BUCKET is set', () => {
    expect(storage.getFileStore()).toBeInstanceOf(storage.S3FileStore);
  });

  it('puts, gets and deletes an object', async () => {
    const store = storage.getFileStore();
    const key = storage.newObjectKey('profile');
    const body = Buffer.from('hello s3 \u00e4\u00f6\u00fc');

    await store.put(key, body, 'image/jpeg');
    const got = await store.get(key);
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.body.equals(body)).toBe(true);

    await store.delete(key);
    expect(await store.get(key)).toBeNull();
    // Deleting twice is fine (idempotent, like S3).
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('returns null for unknown and invalid keys', async () => {
    const store = storage.getFileStore();
    expect(await store.get(storage.newObjectKey('upload'))).toBeNull();
    expect(await store.get('../etc/passwd')).toBeNull();
  });

  it('refuses keys that are not server-made', async () => {
    const store = storage.getFileStore();
    await expect(store.put('profile/../x', Buffer.from('x'), 'image/jpeg')).rejects.toThrow(/Invalid object key/);
    await expect(store.presignPut('/abs', 'image/jpeg', 60)).rejects.toThrow(/Invalid object key/);
  });

  it('accepts a PUT to a presigned URL and serves the object back', async () => {
    const store = storage.getFileStore();
    const key = storage.newObjectKey('profile');
    const url = await store.presignPut(key, 'image/jpeg', 300);
    expect(url).toContain(BUCKET);
    expect(url).toContain('X-Amz-Signature=');

    const body = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]);
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body });
    expect(response.status).toBe(200);

    const got = await store.get(key);
    expect(got?.contentType).toBe('image/jpeg');
    expect(got?.body.equals(body)).toBe(true);
    await store.delete(key);
  });

  // s3rver does not check V4 signatures (real S3 does), so the binding to the
  // content type is checked on the URL itself; the expiry s3rver does enforce.
  it('signs the content type into the presigned URL', async () => {
    const url = new URL(await storage.getFileStore().presignPut(storage.newObjectKey('profile'), 'image/png', 60));
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('60');
  });

  it('refuses a PUT to an expired presigned URL', async () => {
    const store = storage.getFileStore();
    const key = storage.newObjectKey('profile');
    // Signed two minutes ago (a fake clock for Date only, during the signing) for one minute:
    // expired now, with no waiting. s3rver runs in this process, so the real clock is back before the PUT.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 120_000 });
    let url: string;
    try {
      url = await store.presignPut(key, 'image/jpeg', 60);
    } finally {
      vi.useRealTimers();
    }
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');
    const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: 'late' });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Request has expired');
    expect(await store.get(key)).toBeNull();
  });

  it('refuses presigning odd content types and expiries', async () => {
    const store = storage.getFileStore();
    const key = storage.newObjectKey('upload');
    await expect(store.presignPut(key, 'image/jpeg\r\nx-evil: 1', 60)).rejects.toThrow(/content type/);
    await expect(store.presignPut(key, 'image/jpeg', 0)).rejects.toThrow(/expiry/);
    await expect(store.presignPut(key, 'image/jpeg', 8 * 24 * 3600)).rejects.toThrow(/expiry/);
  });
});
