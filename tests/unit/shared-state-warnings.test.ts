import { describe, expect, it } from 'vitest';
import { parseEnv } from '../../app/lib/env.server';
import { sharedStateWarnings } from '../../scripts/lib/shared-state-warnings';

const SECRET = 'x'.repeat(40);

describe('start-time warnings about state private to one instance', () => {
  it('says nothing without DATABASE_URL (the embedded single-machine setup)', () => {
    expect(sharedStateWarnings(parseEnv({}))).toEqual([]);
  });

  it('names each piece of state that would stay in this instance’s DATA_DIR', () => {
    const warnings = sharedStateWarnings(parseEnv({ DATABASE_URL: 'postgresql://db/druckpreis', DATA_DIR: '/srv/data' }));
    expect(warnings).toHaveLength(5);
    expect(warnings[0]).toMatch(/^SESSION_SECRET is not set: .*\/srv\/data\/secrets/);
    expect(warnings[1]).toMatch(/^S3_BUCKET is not set/);
    expect(warnings[2]).toMatch(/^UPLOAD_SIGNING_SECRET is not set/);
    expect(warnings[3]).toMatch(/^SETTINGS_ENCRYPTION_KEY is not set: .*\/srv\/data\/secrets/);
    expect(warnings[4]).toMatch(/^SMTP_URL is not set/);
  });

  it('is quiet when everything several instances share is configured', () => {
    const env = parseEnv({
      DATABASE_URL: 'postgresql://db/druckpreis',
      SESSION_SECRET: SECRET,
      S3_BUCKET: 'druckpreis',
      SMTP_URL: 'smtp://mail:587',
      SETTINGS_ENCRYPTION_KEY: SECRET,
    });
    expect(sharedStateWarnings(env)).toEqual([]);
  });

  it('does not ask for UPLOAD_SIGNING_SECRET when files are in S3 (it signs the local store’s addresses only)', () => {
    const env = parseEnv({ DATABASE_URL: 'postgresql://db/druckpreis', SESSION_SECRET: SECRET, S3_BUCKET: 'b', SMTP_URL: 'smtp://mail:587' });
    expect(sharedStateWarnings(env).join('\n')).not.toContain('UPLOAD_SIGNING_SECRET');
  });
});
