import { describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy, uploadOriginFor } from '~/server/security-headers';

describe('Content-Security-Policy', () => {
  it('allows only this origin and the nonce for scripts, and no framing', () => {
    const csp = buildContentSecurityPolicy('abc123');
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("connect-src 'self';");
  });

  it('lets the browser upload to an S3-compatible store', () => {
    const origin = uploadOriginFor({ S3_BUCKET: 'druckpreis', S3_ENDPOINT: 'https://files.example.com:9000/some/path' });
    expect(origin).toBe('https://files.example.com:9000');
    expect(buildContentSecurityPolicy('n', { uploadOrigin: origin })).toContain("connect-src 'self' https://files.example.com:9000");
    expect(uploadOriginFor({ S3_BUCKET: 'druckpreis' })).toBe('https://*.amazonaws.com');
    expect(uploadOriginFor({})).toBeUndefined();
  });

  it('names the public S3 endpoint when the server reaches the store another way (S3_PUBLIC_ENDPOINT)', () => {
    const origin = uploadOriginFor({ S3_BUCKET: 'druckpreis', S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'https://s3.example.com' });
    expect(origin).toBe('https://s3.example.com');
  });
});
