import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const PATHS = ['/', '/calculator', '/kontakt', '/datenschutz', '/impressum', '/auth'];

/** getEnv() caches the parsed env, so each test loads a fresh module graph after stubbing. */
async function loadSitemap(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const { loader } = await import('~/routes/_resources+/sitemap[.]xml');
  // A hostile Host header must not leak into the URLs.
  const request = new Request('http://attacker.example/sitemap.xml', { headers: { Host: 'attacker.example' } });
  return loader({ request, params: {}, context: {} });
}

/** Checks that every tag is closed in order: enough to catch broken XML without a parser dependency. */
function assertWellFormed(xml: string) {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const body = xml.replace(/^<\?xml[^?]*\?>/, '');
  const stack: string[] = [];
  let roots = 0;
  for (const [, closing, name, selfClosing] of body.matchAll(/<(\/?)([A-Za-z][\w:.-]*)[^>]*?(\/?)>/g)) {
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) {
      if (stack.length === 0) roots += 1;
      stack.push(name);
    }
  }
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
  // No raw ampersands outside entities.
  expect(body).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
}

describe('sitemap.xml', () => {
  beforeEach(() => {
    vi.unstubAllEnvs();
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('lists the six public pages with absolute URLs from APP_URL', async () => {
    const response = await loadSitemap({ APP_URL: 'https://druckpreis.example' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/xml; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=3600');

    const xml = await response.text();
    assertWellFormed(xml);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(PATHS.map((p) => `https://druckpreis.example${p}`));
    expect((xml.match(/<url>/g) ?? []).length).toBe(6);
    expect(xml).not.toContain('attacker.example');
  });

  it('does not double the slash when APP_URL ends with one', async () => {
    const response = await loadSitemap({ APP_URL: 'https://druckpreis.example/' });
    const xml = await response.text();
    expect(xml).toContain('<loc>https://druckpreis.example/</loc>');
    expect(xml).toContain('<loc>https://druckpreis.example/calculator</loc>');
    expect(xml).not.toContain('example//');
  });

  it('falls back to localhost and PORT without APP_URL', async () => {
    const response = await loadSitemap({ APP_URL: undefined, PORT: '3456' });
    const locs = [...(await response.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs[0]).toBe('http://localhost:3456/');
    expect(locs).toHaveLength(6);
  });
});
