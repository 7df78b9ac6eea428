import { describe, expect, it } from 'vitest';
import { CROSS_SITE_MESSAGE, crossSiteRequestGuard, isCrossSiteRequest, isStateChangingMethod } from '../../app/server/csrf.server';

const APP = 'https://druckpreis.example';

function headers(values: Record<string, string>) {
  return new Headers(values);
}

describe('isCrossSiteRequest', () => {
  it('accepts the app’s own origin (APP_URL or the request host)', () => {
    expect(isCrossSiteRequest(headers({ origin: 'https://druckpreis.example', host: 'internal:3000' }), APP)).toBe(false);
    expect(isCrossSiteRequest(headers({ origin: 'http://localhost:3000', host: 'localhost:3000' }), null)).toBe(false);
    expect(isCrossSiteRequest(headers({ origin: 'HTTPS://DRUCKPREIS.EXAMPLE' }), APP)).toBe(false);
  });

  it('refuses another origin, a different port or scheme-less garbage', () => {
    expect(isCrossSiteRequest(headers({ origin: 'https://evil.example', host: 'druckpreis.example' }), APP)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: 'http://localhost:4000', host: 'localhost:3000' }), null)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: 'https://sub.druckpreis.example', host: 'druckpreis.example' }), APP)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: 'null', host: 'druckpreis.example' }), APP)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: 'https://druckpreis.example.evil.example' }), APP)).toBe(true);
  });

  it('compares scheme, host and port with the request’s own origin (issue 18)', () => {
    // https://host is another origin than the http server it is sent to.
    expect(isCrossSiteRequest(headers({ origin: 'https://localhost:3000', host: 'localhost:3000' }), null)).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: 'https://localhost:3000', host: 'localhost:3000' }), null, 'http')).toBe(true);
    expect(isCrossSiteRequest(headers({ origin: 'https://localhost:3000', host: 'localhost:3000' }), null, 'https')).toBe(false);
    expect(isCrossSiteRequest(headers({ origin: 'http://localhost:3000', host: 'localhost:3000' }), null, 'https')).toBe(true);
    // Default ports are the same origin with or without them.
    expect(isCrossSiteRequest(headers({ origin: 'https://druckpreis.example', host: 'druckpreis.example:443' }), null, 'https')).toBe(false);
    expect(isCrossSiteRequest(headers({ origin: 'http://druckpreis.example', host: 'druckpreis.example:443' }), null, 'http')).toBe(true);
  });

  it('falls back to Sec-Fetch-Site when there is no Origin', () => {
    expect(isCrossSiteRequest(headers({ 'sec-fetch-site': 'cross-site' }), APP)).toBe(true);
    expect(isCrossSiteRequest(headers({ 'sec-fetch-site': 'same-site' }), APP)).toBe(true);
    expect(isCrossSiteRequest(headers({ 'sec-fetch-site': 'same-origin' }), APP)).toBe(false);
    expect(isCrossSiteRequest(headers({ 'sec-fetch-site': 'none' }), APP)).toBe(false);
    // No browser headers at all (curl, server-to-server): not a cross-site form post.
    expect(isCrossSiteRequest(headers({}), APP)).toBe(false);
  });

  it('reads plain header objects as express gives them', () => {
    expect(isCrossSiteRequest({ origin: 'https://evil.example', host: 'druckpreis.example' }, APP)).toBe(true);
    expect(isCrossSiteRequest({ origin: 'https://druckpreis.example' }, APP)).toBe(false);
  });
});

describe('crossSiteRequestGuard', () => {
  function run(method: string, requestHeaders: Record<string, string>, protocol?: string) {
    const result = { status: 0, body: '', next: false, type: '' };
    const res = {
      status(code: number) {
        result.status = code;
        return res;
      },
      type(value: string) {
        result.type = value;
        return res;
      },
      send(body: string) {
        result.body = body;
      },
    };
    crossSiteRequestGuard(APP)({ method, headers: requestHeaders, protocol }, res, () => {
      result.next = true;
    });
    return result;
  }

  it('refuses a cross-site POST with 403 and a German text', () => {
    const result = run('POST', { origin: 'https://evil.example', host: 'druckpreis.example' });
    expect(result).toMatchObject({ status: 403, next: false });
    expect(result.body).toBe(CROSS_SITE_MESSAGE);
    expect(result.body).toMatch(/abgelehnt/);
  });

  it('lets safe methods and same-origin writes through', () => {
    expect(run('GET', { origin: 'https://evil.example' }).next).toBe(true);
    expect(run('HEAD', { 'sec-fetch-site': 'cross-site' }).next).toBe(true);
    expect(run('PUT', { origin: APP }).next).toBe(true);
    expect(run('DELETE', { 'sec-fetch-site': 'cross-site' }).next).toBe(false);
    // The scheme the request came in with (express's req.protocol) counts.
    expect(run('POST', { origin: 'https://internal:3000', host: 'internal:3000' }, 'http').next).toBe(false);
    expect(run('POST', { origin: 'https://internal:3000', host: 'internal:3000' }, 'https').next).toBe(true);
  });

  it('knows which methods change state', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].every(isStateChangingMethod)).toBe(true);
    expect(['GET', 'HEAD', 'OPTIONS', 'get'].some(isStateChangingMethod)).toBe(false);
  });
});
