import { describe, expect, it } from 'vitest';
import { bodyLimitFor, checkHostHeaders, checkMethodAndType, checkRequestTarget, isValidHost } from '~/server/request-guard.server';

describe('request guard rules', () => {
  it('serves an absolute-form target naming our host as its path and refuses every other non-path target (issue 18)', () => {
    expect(checkRequestTarget('/calculator?a=1', 'druckpreis.example')).toBe('/calculator?a=1');
    expect(checkRequestTarget('http://127.0.0.1:3000/calculator?a=1', '127.0.0.1:3000')).toBe('/calculator?a=1');
    expect(checkRequestTarget('HTTP://Druckpreis.Example/', 'druckpreis.example')).toBe('/');
    expect(checkRequestTarget('http://druckpreis.example:80/x', 'druckpreis.example')).toBe('/x');
    for (const target of ['*', 'http://evil.example/', 'http://127.0.0.1:3001/', 'https://a:b@druckpreis.example/', 'ftp://druckpreis.example/', 'druckpreis.example:443', 'http://[::1/']) {
      expect(checkRequestTarget(target, target === 'http://127.0.0.1:3001/' ? '127.0.0.1:3000' : 'druckpreis.example'), target).toMatchObject({ status: 400 });
    }
  });

  it('answers methods no API route has with a JSON 405 (issue 18)', () => {
    for (const method of ['TRACE', 'PROPFIND', 'FOO']) {
      expect(checkMethodAndType(method, '/api/projects', undefined, false), method).toMatchObject({ status: 405, json: true });
      expect(checkMethodAndType(method, '/api', undefined, false), method).toMatchObject({ status: 405, json: true });
    }
    expect(checkMethodAndType('PATCH', '/api/projects', undefined, false)).toBeNull();
  });

  it('gives forms and JSON 64 KB, uploads their documented limits', () => {
    expect(bodyLimitFor('/kontakt')).toBe(64 * 1024);
    expect(bodyLimitFor('/api/contact')).toBe(64 * 1024);
    expect(bodyLimitFor('/uploads/profile/x/y')).toBe(5 * 1024 * 1024);
    // The picture's 5 MB and the product image's 10 MB only for a multipart body; other bodies get the form limit.
    expect(bodyLimitFor('/profile', 'multipart/form-data; boundary=x')).toBeGreaterThan(5 * 1024 * 1024);
    expect(bodyLimitFor('/calculator', 'multipart/form-data; boundary=x')).toBeGreaterThan(10 * 1024 * 1024);
    expect(bodyLimitFor('/profile', 'application/x-www-form-urlencoded')).toBe(64 * 1024);
    expect(bodyLimitFor('/calculator', 'application/x-www-form-urlencoded')).toBe(64 * 1024);
  });

  it('lets pages take form posts only', () => {
    expect(checkMethodAndType('GET', '/auth', undefined, false)).toBeNull();
    expect(checkMethodAndType('POST', '/auth', 'application/x-www-form-urlencoded', true)).toBeNull();
    expect(checkMethodAndType('POST', '/auth.data', 'multipart/form-data; boundary=abc', true)).toBeNull();
    expect(checkMethodAndType('POST', '/auth', 'application/json', true)?.status).toBe(415);
    expect(checkMethodAndType('POST', '/auth', undefined, true)?.status).toBe(415);
    expect(checkMethodAndType('PUT', '/auth', 'application/x-www-form-urlencoded', true)?.status).toBe(405);
    expect(checkMethodAndType('POST', '/auth', 'multipart/form-data', true)?.status).toBe(400);
    expect(checkMethodAndType('POST', '/auth', 'multipart/form-data; boundary=', true)?.status).toBe(400);
  });

  it('lets the API take JSON or forms, and bodiless requests', () => {
    expect(checkMethodAndType('PUT', '/api/profile', 'application/json', true)).toBeNull();
    expect(checkMethodAndType('POST', '/api/profile/upload-url', undefined, false)).toBeNull();
    expect(checkMethodAndType('POST', '/api/contact', 'text/plain', true)?.status).toBe(415);
  });

  it('checks hosts and drops forwarded headers unless a proxy is trusted', () => {
    expect(isValidHost('localhost:3000')).toBe(true);
    expect(isValidHost('[::1]:3000')).toBe(true);
    expect(isValidHost('druckpreis.example')).toBe(true);
    for (const bad of ['exa mple', 'a:99999999', 'a:70000', '', 'a/b', 'a..b']) expect(isValidHost(bad), bad).toBe(false);

    const headers: Record<string, string | undefined> = { host: 'localhost', 'x-forwarded-host': 'evil', 'x-forwarded-proto': 'https' };
    expect(checkHostHeaders(headers, false)).toBeNull();
    expect(headers['x-forwarded-host']).toBeUndefined();
    expect(headers['x-forwarded-proto']).toBeUndefined();

    const trusted: Record<string, string | undefined> = { host: 'localhost', 'x-forwarded-host': 'a.example, b:99999999', 'x-forwarded-proto': 'HTTPS' };
    expect(checkHostHeaders(trusted, true)).toBeNull();
    expect(trusted).toMatchObject({ 'x-forwarded-host': 'a.example', 'x-forwarded-proto': 'https' });
    expect(checkHostHeaders({ host: 'localhost', 'x-forwarded-proto': 'gopher' }, true)?.status).toBe(400);
  });
});
