import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getEnv } from '~/lib/env.server';

/**
 * Secrets the app needs even when nobody configured them (session cookie,
 * upload URL signatures). The first start generates 32 random bytes and keeps
 * them in `<DATA_DIR>/secrets/<name>.key` (mode 0600), so restarts and other
 * instances sharing the data directory keep working.
 *
 * Configured values (SESSION_SECRET, UPLOAD_SIGNING_SECRET) always win; the
 * callers check those before asking here.
 */
const cache = new Map<string, string>();

export function getOrCreateSecret(name: string): string {
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(name)) throw new Error(`Invalid secret name: ${name}`);
  const dir = path.resolve(getEnv().DATA_DIR, 'secrets');
  const file = path.join(dir, `${name}.key`);
  const cached = cache.get(file);
  if (cached) return cached;

  let secret = readSecret(file);
  if (!secret) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written to a temporary file, then hard-linked into place: link() fails when
    // the file exists, so two processes starting at once agree on one secret and
    // nobody ever reads a half-written file.
    const candidate = crypto.randomBytes(32).toString('hex');
    const temp = path.join(dir, `.${name}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
    fs.writeFileSync(temp, `${candidate}\n`, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(temp, file);
      secret = candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      secret = readSecret(file);
    } finally {
      fs.rmSync(temp, { force: true });
    }
    if (!secret) throw new Error(`Secret file ${file} is empty; delete it to generate a new one.`);
  }
  cache.set(file, secret);
  return secret;
}

function readSecret(file: string): string | null {
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    return value || null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
