import { z } from 'zod';

/**
 * Every variable the app reads. Validated once at start; a bad value stops the
 * server with a message naming the variable (see .env.example for the docs).
 */
/** The least bcrypt cost a production server starts with (about 60 ms per hash on one core here). */
export const BCRYPT_COST_PRODUCTION_MIN = 10;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  DATA_DIR: z.string().min(1).default('.data'),
  APP_URL: z.url().optional(),
  LOG_REQUESTS: z.enum(['true', 'false']).default('true'),
  // HTTP worker processes (Node's cluster); default: one per CPU core.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  // Reuse rendered documents with identical URL and loader data (app/server/render-cache.server.ts).
  RENDER_CACHE: z.enum(['on', 'off']).default('on'),
  // Signs the session cookie; comma-separated for rotation (first signs, all verify).
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Encrypts the secrets in admin_settings (AES-256-GCM); comma-separated, newest first. Default: generated in DATA_DIR/secrets.
  SETTINGS_ENCRYPTION_KEY: z
    .string()
    .refine((value) => value.split(',').every((part) => part.trim().length >= 32), 'each comma-separated key must be at least 32 characters')
    .optional(),
  // Mail: SMTP settings from the admin page win; else this nodemailer URL; else .eml files under DATA_DIR/mail.
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  // Receives contact messages while the admin settings have no contact address (else: the first admin).
  CONTACT_EMAIL: z.email('must be an e-mail address').optional(),
  // The outbox worker in the server process (off: another instance or process sends).
  MAIL_WORKER: z.enum(['on', 'off']).default('on'),
  // Seconds between two runs of the upload cleanup in each process (tests shorten it to watch several instances share it).
  UPLOAD_CLEANUP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  // Multiplies every rate limit (tests raise the limits only through this).
  RATE_LIMIT_FACTOR: z.coerce.number().positive().default(1),
  // true (one hop) or a hop count: take the client IP from X-Forwarded-For as set by that many reverse proxies.
  TRUST_PROXY: z.string().regex(/^(true|false|\d+)$/, 'must be true, false or a number of proxy hops').default('false'),
  // File storage: S3-compatible when S3_BUCKET is set, else local disk under DATA_DIR/uploads.
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('eu-central-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  // Where browsers reach the store when that differs from S3_ENDPOINT (which the server uses), e.g.
  // http://minio:9000 inside a compose network, https://s3.example.com outside: presigned upload addresses and the CSP use it.
  S3_PUBLIC_ENDPOINT: z.url().optional(),
  UPLOAD_SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // bcrypt cost of new password hashes: 2^cost rounds. At least 10 in production (BCRYPT_COST_PRODUCTION_MIN);
  // tests run with 4 so that the many sign-ups of a test run do not dominate its time.
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
}).superRefine((env, ctx) => {
  if (env.NODE_ENV === 'production' && env.BCRYPT_COST < BCRYPT_COST_PRODUCTION_MIN) {
    ctx.addIssue({ code: 'custom', path: ['BCRYPT_COST'], message: `must be at least ${BCRYPT_COST_PRODUCTION_MIN} in production` });
  }
  if (env.S3_PUBLIC_ENDPOINT && !env.S3_ENDPOINT) {
    ctx.addIssue({ code: 'custom', path: ['S3_ENDPOINT'], message: 'is required when S3_PUBLIC_ENDPOINT is set' });
  }
  if (env.S3_ENDPOINT && !env.S3_BUCKET) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when S3_ENDPOINT is set' });
  }
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
    const missing = env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together' });
  }
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // `NAME=` in an env file means "not set", not "set to nothing".
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new Error(`Invalid environment variables:\n${lines.join('\n')}`);
  }
  return result.data;
}

export function getEnv(): Env {
  cached ??= parseEnv();
  return cached;
}

/** The public base URL; links in mails are built from it, never from the Host header. */
export function getAppUrl(): string {
  const env = getEnv();
  return env.APP_URL ?? `http://localhost:${env.PORT}`;
}
