import { describe, expect, it } from 'vitest';
import { parseEnv } from '~/lib/env.server';

describe('environment validation', () => {
  it('fills the embedded defaults when nothing is set', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe('localhost');
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe('.data');
  });

  it('names the variable of a malformed value', () => {
    expect(() => parseEnv({ PORT: 'drei' })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ APP_URL: 'not a url' })).toThrow(/APP_URL/);
  });

  it('treats an empty value as unset', () => {
    const env = parseEnv({ DATABASE_URL: '', PORT: '' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });

  it('reads overrides', () => {
    const env = parseEnv({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'postgresql://u:p@db:5432/app' });
    expect(env).toMatchObject({ PORT: 8080, HOST: '0.0.0.0', DATABASE_URL: 'postgresql://u:p@db:5432/app' });
  });

  it('validates BCRYPT_COST: 12 by default, 4 to 15, at least 10 in production', () => {
    expect(parseEnv({}).BCRYPT_COST).toBe(12);
    expect(parseEnv({ BCRYPT_COST: '4' }).BCRYPT_COST).toBe(4);
    expect(parseEnv({ NODE_ENV: 'production', BCRYPT_COST: '10' }).BCRYPT_COST).toBe(10);
    expect(() => parseEnv({ NODE_ENV: 'production', BCRYPT_COST: '9' })).toThrow(/BCRYPT_COST: must be at least 10 in production/);
    expect(() => parseEnv({ BCRYPT_COST: '3' })).toThrow(/BCRYPT_COST/);
    expect(() => parseEnv({ BCRYPT_COST: 'zwölf' })).toThrow(/BCRYPT_COST/);
  });
});
