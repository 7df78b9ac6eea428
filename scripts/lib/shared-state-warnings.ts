import type { Env } from '../../app/lib/env.server';

/**
 * With DATABASE_URL set the app is usually one of several instances (or a
 * container that is replaced on every deploy). What the embedded defaults keep
 * in DATA_DIR is then private to this instance and lost with it: say so at
 * start, one line per thing (docs/operations-several-instances.md).
 */
export function sharedStateWarnings(env: Env): string[] {
  if (!env.DATABASE_URL) return [];
  const warnings: string[] = [];
  if (!env.SESSION_SECRET) {
    warnings.push(
      `SESSION_SECRET is not set: this instance signs sessions and toasts with a secret generated in ${env.DATA_DIR}/secrets; ` +
        'set the same SESSION_SECRET on every instance, or sign-ins hold only on the instance that made them and end with its data directory',
    );
  }
  if (!env.S3_BUCKET) {
    warnings.push(
      `S3_BUCKET is not set: pictures are stored in ${env.DATA_DIR}/uploads of this instance only; several instances need one S3-compatible store`,
    );
    if (!env.UPLOAD_SIGNING_SECRET) {
      warnings.push(`UPLOAD_SIGNING_SECRET is not set: upload addresses are signed with a secret generated in ${env.DATA_DIR}/secrets`);
    }
  }
  if (!env.SETTINGS_ENCRYPTION_KEY) {
    warnings.push(
      `SETTINGS_ENCRYPTION_KEY is not set: this instance encrypts the admin settings' secrets with a key generated in ${env.DATA_DIR}/secrets; ` +
        'set the same key on every instance, or secrets saved through one cannot be read by the others',
    );
  }
  if (!env.SMTP_URL) {
    warnings.push(
      `SMTP_URL is not set: unless the admin settings name an SMTP server, mails are written to ${env.DATA_DIR}/mail of whichever instance sends them`,
    );
  }
  return warnings;
}
