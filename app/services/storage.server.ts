import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { getOrCreateSecret } from '~/services/secrets.server';
import { getEnv } from '~/lib/env.server';

/**
 * File storage behind one interface: any S3-compatible store when S3_BUCKET is
 * set, otherwise a local-disk store under `<DATA_DIR>/uploads/` whose presigned
 * PUT URL points at the app itself (`/uploads/<key>`, see routes/uploads.$.ts).
 *
 * Keys are made by the server (`newObjectKey`) and never taken from a client
 * unchecked: `isValidObjectKey` allows only lower-case letters, digits, `-`
 * and `/` between non-empty segments, so no `..`, no absolute paths, no dots.
 */
export interface FileStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ body: Buffer; contentType: string } | null>;
  delete(key: string): Promise<void>;
  presignPut(key: string, contentType: string, expiresInSeconds: number): Promise<string>;
}

export type ObjectKeyPrefix = 'profile' | 'product' | 'upload';

const KEY_SEGMENT = '[a-z0-9]+(?:-[a-z0-9]+)*';
const KEY_PATTERN = new RegExp(`^${KEY_SEGMENT}(?:/${KEY_SEGMENT})*$`);
const MAX_KEY_LENGTH = 200;
const CONTENT_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export function newObjectKey(prefix: ObjectKeyPrefix): string {
  return `${prefix}/${crypto.randomBytes(16).toString('hex')}`;
}

export function isValidObjectKey(key: string): boolean {
  return key.length > 0 && key.length <= MAX_KEY_LENGTH && KEY_PATTERN.test(key);
}

function assertValidKey(key: string) {
  if (!isValidObjectKey(key)) throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
}

/** Lower-cased media type without parameters, or null when it is not a plain `type/subtype`. */
export function normalizeContentType(value: string | null | undefined): string | null {
  if (!value) return null;
  const essence = value.split(';', 1)[0].trim().toLowerCase();
  return CONTENT_TYPE_PATTERN.test(essence) ? essence : null;
}

function assertPresignArgs(key: string, contentType: string, expiresInSeconds: number): string {
  assertValidKey(key);
  const type = normalizeContentType(contentType);
  if (!type || type !== contentType.trim().toLowerCase()) throw new Error(`Invalid content type: ${JSON.stringify(contentType)}`);
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
    throw new Error(`Invalid expiry: ${expiresInSeconds}`);
  }
  return type;
}

// ---------------------------------------------------------------------------
// Local disk

type LocalOptions = { root: string; signingSecret: () => string };

export class LocalFileStore implements FileStore {
  readonly root: string;
  private readonly signingSecret: () => string;

  constructor({ root, signingSecret }: LocalOptions) {
    this.root = path.resolve(root);
    this.signingSecret = signingSecret;
  }

  /** Absolute file path of a key; refuses anything that would leave the root (defence in depth). */
  private filePath(key: string): string {
    assertValidKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Invalid object key: ${JSON.stringify(key)}`);
    return file;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const file = this.filePath(key);
    const type = normalizeContentType(contentType) ?? 'application/octet-stream';
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Temporary names contain dots, which keys never do, so they cannot collide with an object.
    const suffix = `.${crypto.randomBytes(6).toString('hex')}.tmp`;
    const tempBody = `${file}${suffix}`;
    const tempMeta = `${file}.meta${suffix}`;
    try {
      await fs.writeFile(tempBody, body, { mode: 0o640 });
      await fs.writeFile(tempMeta, JSON.stringify({ contentType: type }), { mode: 0o640 });
      await fs.rename(tempMeta, `${file}.meta.json`);
      await fs.rename(tempBody, file);
    } finally {
      await Promise.all([fs.rm(tempBody, { force: true }), fs.rm(tempMeta, { force: true })]);
    }
  }

  async get(key: string): Promise<{ body: Buffer; contentType: string } | null> {
    if (!isValidObjectKey(key)) return null;
    const file = this.filePath(key);
    let body: Buffer;
    try {
      body = await fs.readFile(file);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    let contentType = 'application/octet-stream';
    try {
      const meta = JSON.parse(await fs.readFile(`${file}.meta.json`, 'utf8')) as { contentType?: unknown };
      contentType = normalizeContentType(typeof meta.contentType === 'string' ? meta.contentType : null) ?? contentType;
    } catch (error) {
      if (!isMissing(error) && !(error instanceof SyntaxError)) throw error;
    }
    return { body, contentType };
  }

  async delete(key: string): Promise<void> {
    const file = this.filePath(key);
    await fs.rm(file, { force: true });
    await fs.rm(`${file}.meta.json`, { force: true });
  }

  async presignPut(key: string, contentType: string, expiresInSeconds: number): Promise<string> {
    const type = assertPresignArgs(key, contentType, expiresInSeconds);
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const query = new URLSearchParams({ expires: String(expires), ct: type, signature: this.sign(key, expires, type) });
    // Relative on purpose: the browser PUTs to the origin it is on. An absolute APP_URL address
    // breaks when the site is reached under another host name (CSP connect-src 'self' blocks it).
    return `/uploads/${key}?${query}`;
  }

  /**
   * Checks a presigned upload: key, expiry and content type as signed, signature
   * compared in constant time. Returns why it fails so the route can answer.
   */
  verifyPresignedPut(params: {
    key: string;
    expires: string | null;
    contentType: string | null;
    signature: string | null;
    now?: number;
  }): 'ok' | 'invalid' | 'expired' {
    const { key, expires, contentType, signature } = params;
    if (!isValidObjectKey(key) || !expires || !/^\d{1,12}$/.test(expires) || !contentType || !signature) return 'invalid';
    const type = normalizeContentType(contentType);
    if (!type || type !== contentType) return 'invalid';
    const expected = Buffer.from(this.sign(key, Number(expires), type));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'invalid';
    const now = params.now ?? Math.floor(Date.now() / 1000);
    return Number(expires) < now ? 'expired' : 'ok';
  }

  private sign(key: string, expires: number, contentType: string): string {
    return crypto
      .createHmac('sha256', this.signingSecret())
      .update(['PUT', key, String(expires), contentType].join('\n'))
      .digest('base64url');
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

// ---------------------------------------------------------------------------
// S3-compatible

type S3Options = {
  bucket: string;
  region: string;
  endpoint?: string;
  /** The endpoint as browsers reach it, for presigned addresses (default: `endpoint`). */
  publicEndpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  /** Signs the addresses browsers upload to; the same client unless the store has a public endpoint of its own. */
  private readonly presigner: S3Client;
  private readonly bucket: string;

  constructor({ bucket, region, endpoint, publicEndpoint, forcePathStyle, credentials }: S3Options) {
    this.bucket = bucket;
    this.client = new S3Client({ region, endpoint, forcePathStyle, credentials });
    this.presigner = publicEndpoint ? new S3Client({ region, endpoint: publicEndpoint, forcePathStyle, credentials }) : this.client;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: normalizeContentType(contentType) ?? 'application/octet-stream',
      }),
    );
  }

  async get(key: string): Promise<{ body: Buffer; contentType: string } | null> {
    if (!isValidObjectKey(key)) return null;
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!result.Body) return null;
      const body = Buffer.from(await result.Body.transformToByteArray());
      return { body, contentType: normalizeContentType(result.ContentType) ?? 'application/octet-stream' };
    } catch (error) {
      const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async presignPut(key: string, contentType: string, expiresInSeconds: number): Promise<string> {
    const type = assertPresignArgs(key, contentType, expiresInSeconds);
    // Content-Type is a signed header: the browser must send exactly this type.
    // S3 presigned PUTs cannot cap the size; whoever completes the upload checks it.
    // (The presigner leaves Content-Type unsigned unless asked.)
    return getSignedUrl(this.presigner, new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: type }), {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(['content-type']),
    });
  }
}

// ---------------------------------------------------------------------------

let store: FileStore | undefined;

/** The configured store (one per process; S3 when S3_BUCKET is set, else local disk). */
export function getFileStore(): FileStore {
  store ??= createFileStoreFromEnv();
  return store;
}

function createFileStoreFromEnv(): FileStore {
  const env = getEnv();
  if (env.S3_BUCKET) {
    return new S3FileStore({
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === 'true' : Boolean(env.S3_ENDPOINT),
      credentials:
        env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
          : undefined,
    });
  }
  return new LocalFileStore({
    root: path.resolve(env.DATA_DIR, 'uploads'),
    signingSecret: () => env.UPLOAD_SIGNING_SECRET ?? getOrCreateSecret('upload-signing'),
  });
}
