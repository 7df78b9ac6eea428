import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll } from 'vitest';

/** The S3_* settings that point the app's file store at a test server (s3rver accepts any key pair; these are its defaults). */
export type TestS3Env = {
  S3_ENDPOINT: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_ACCESS_KEY_ID: string;
  S3_SECRET_ACCESS_KEY: string;
};

export type TestS3Server = {
  port: number;
  bucket: string;
  /** The S3_* settings for the app, pointing at this server. */
  env: TestS3Env;
  /** Stops listening (the store is "down" until start()). */
  stop(): Promise<void>;
  /** Listens again on the same port, with the objects it held. */
  start(): Promise<void>;
  /** The bucket's keys under `prefix`, sorted, read over the S3 API. */
  listKeys(prefix: string): Promise<string[]>;
};

/**
 * A real S3 API (s3rver) on a random loopback port with one bucket, its objects under
 * `directory`. `resetOnClose` drops the objects when it stops.
 */
export async function startTestS3Server({
  bucket,
  directory,
  resetOnClose = false,
}: {
  bucket: string;
  directory: string;
  resetOnClose?: boolean;
}): Promise<TestS3Server> {
  let server: S3rver | undefined;
  let port = 0;
  const listen = async () => {
    const instance = new S3rver({ address: '127.0.0.1', port, silent: true, directory, resetOnClose, configureBuckets: [{ name: bucket }] });
    port = (await instance.run()).port;
    server = instance;
  };
  const env = (): TestS3Env => ({
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: bucket,
    S3_REGION: 'eu-central-1',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  });
  await listen();
  return {
    get port() {
      return port;
    },
    bucket,
    get env() {
      return env();
    },
    async listKeys(prefix) {
      const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
      const { S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY } = env();
      const client = new S3Client({
        endpoint: S3_ENDPOINT,
        region: S3_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((item) => item.Key!).sort();
    },
    async stop() {
      const current = server;
      server = undefined;
      await current?.close();
    },
    start: listen,
  };
}

/**
 * For a test file built on `useAuthTestApp` (call this after it: that one clears S3_BUCKET):
 * an s3rver with `bucket` for the whole file and the app's file store pointed at it through
 * process.env, set before the first getEnv()/getFileStore() of the process (both cache).
 * The server and its folder go after the file. Returns the server (valid inside tests).
 */
export function useTestS3Store(bucket: string, prefix: string): TestS3Server {
  let s3: TestS3Server | undefined;
  let dir = '';
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `druckpreis-${prefix}-s3-`));
    s3 = await startTestS3Server({ bucket, directory: path.join(dir, 's3') });
    Object.assign(process.env, s3.env);
  });
  afterAll(async () => {
    await s3?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const current = () => {
    if (!s3) throw new Error('useTestS3Store: the server starts in beforeAll');
    return s3;
  };
  return {
    get port() {
      return current().port;
    },
    bucket,
    get env() {
      return current().env;
    },
    stop: () => current().stop(),
    start: () => current().start(),
    listKeys: (prefix) => current().listKeys(prefix),
  };
}
