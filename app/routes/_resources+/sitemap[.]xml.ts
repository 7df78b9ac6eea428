import type { LoaderFunctionArgs } from '@remix-run/node';
import { getAppUrl } from '~/lib/env.server';

/** The public pages search engines may index; everything else needs an account. */
const SITEMAP_PATHS = ['/', '/calculator', '/kontakt', '/datenschutz', '/impressum', '/auth'] as const;

export function loader(_args: LoaderFunctionArgs) {
  // Absolute URLs come from the configured base, never from the Host header.
  const base = getAppUrl().replace(/\/+$/, '');
  const urls = SITEMAP_PATHS.map((path) => `  <url>\n    <loc>${escapeXml(base + path)}</loc>\n  </url>`).join('\n');
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    },
  });
}

function escapeXml(value: string) {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
