import { describe, expect, it } from 'vitest';
import { PendingUpload, Project, User } from '../../app/entities';
import { deleteAccount } from '../../app/models/account-deletion.server';
import type { RequestContext } from '../../app/services/request-context.server';
import { getFileStore, S3FileStore } from '../../app/services/storage.server';
import { deleteAbandonedUploads } from '../../app/services/upload-cleanup.server';
import { createUser, useAuthTestApp } from '../setup/auth-app';
import { useTestS3Store } from '../setup/s3-server';

/**
 * The account deletion with files on S3 (s3rver on a loopback port): the
 * objects go after the commit; when the store is down the rows are deleted
 * anyway and the files are listed in pending_uploads, which the upload
 * cleanup job works off once the store is back.
 */
const app = useAuthTestApp('account_deletion_s3');
const s3 = useTestS3Store('druckpreis-delete', 'delete');

async function ownerWithFiles() {
  const { user } = await createUser(app.orm);
  const store = getFileStore();
  const profileKey = `profile/${user.id}/${'c'.repeat(32)}`;
  const productKey = `product/${user.id}/${'d'.repeat(32)}`;
  const pendingKey = `profile/${user.id}/${'e'.repeat(32)}`;
  for (const key of [profileKey, productKey, pendingKey]) await store.put(key, Buffer.from('bild'), 'image/jpeg');
  const em = app.em();
  await em.nativeUpdate(User, { id: user.id }, { profileImageUrl: `/images/${profileKey}` });
  em.create(Project, {
    user: user.id,
    name: 'Vase',
    quantity: 1,
    filamentWeight: 25,
    filamentPricePerKg: 25,
    printTime: 2,
    printerWattage: 200,
    electricityRate: 0.32,
    preparationTime: 15,
    postProcessingTime: 10,
    hourlyRate: 15,
    packagingCost: 0.5,
    shippingCost: 4.95,
    marketplaceFeePercentage: 0.05,
    profitMargin: 25,
    targetPrice: 0,
    productImagePath: `/images/${productKey}`,
  } as never);
  em.create(PendingUpload, { key: pendingKey, userId: user.id, kind: 'profile', expiresAt: new Date(Date.now() + 600_000) });
  await em.flush();
  return { id: user.id, keys: [profileKey, productKey, pendingKey] };
}

const ctx = (): RequestContext => ({
  em: app.em(),
  user: null,
  sessionId: '',
  ip: '127.0.0.1',
  now: new Date(),
  hasSession: false,
  privateResponse: false,
});

describe('account deletion on S3', () => {
  it('removes the objects after the commit', async () => {
    expect(getFileStore()).toBeInstanceOf(S3FileStore);
    const owner = await ownerWithFiles();
    const result = await deleteAccount(ctx(), { userId: owner.id, by: 'admin' });
    expect(result).toMatchObject({ kind: 'ok', value: { files: 3, filesPending: 0 } });
    for (const key of owner.keys) expect(await getFileStore().get(key)).toBeNull();
    expect(await app.em().count(PendingUpload, { userId: owner.id })).toBe(0);
    expect(await app.em().count(Project, { user: owner.id })).toBe(0);
  });

  it('keeps the files listed when the store is down, and the cleanup job removes them later', async () => {
    const owner = await ownerWithFiles();
    await s3.stop();
    try {
      const result = await deleteAccount(ctx(), { userId: owner.id, by: 'self' });
      expect(result).toMatchObject({ kind: 'ok', value: { files: 3, filesPending: 3 } });
      expect(await app.em().count(User, { id: owner.id })).toBe(0);
      const listed = await app.em().find(PendingUpload, { userId: owner.id });
      expect(listed.map((row) => row.key).sort()).toEqual([...owner.keys].sort());
      expect(listed.every((row) => row.expiresAt.getTime() <= Date.now())).toBe(true);
    } finally {
      await s3.start();
    }
    for (const key of owner.keys) expect(await getFileStore().get(key)).not.toBeNull();
    expect(await deleteAbandonedUploads({ em: app.em() })).toBe(3);
    for (const key of owner.keys) expect(await getFileStore().get(key)).toBeNull();
    expect(await app.em().count(PendingUpload, { userId: owner.id })).toBe(0);
  }, 30_000);
});
