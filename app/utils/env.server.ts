import { z } from 'zod';

/**
 * Every variable the app reads. Validated once at start; a bad value stops the
 * server with a message naming the variable (see .env.example for the docs).
 */
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
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
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
