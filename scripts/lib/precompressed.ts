import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type express from 'express';
import { acceptedCodings } from '../../app/server/nonced-html.server';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/**
 * Serves the `.br` / `.gz` files the build wrote beside a static file
 * (scripts/lib/vite-precompress.ts) to clients that accept them, brotli first:
 * the request is pointed at that file, with the original's type, the coding
 * and `Vary: Accept-Encoding`; the static handler after this sends it with its
 * caching headers, and the compression middleware leaves it alone (already
 * encoded). Which files have a compressed copy is read once at start, so a
 * request costs no extra stat().
 */
export function servePrecompressed(clientDir: string): express.RequestHandler {
  const available = new Map<string, { br: boolean; gz: boolean }>();
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) {
        if (!name.startsWith('.')) visit(file);
        continue;
      }
      const match = /^(.*)\.(br|gz)$/.exec(name);
      if (!match) continue;
      const url = `/${path.relative(clientDir, path.join(dir, match[1])).split(path.sep).join('/')}`;
      const entry = available.get(url) ?? { br: false, gz: false };
      entry[match[2] as 'br' | 'gz'] = true;
      available.set(url, entry);
    }
  };
  visit(clientDir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const entry = available.get(req.path);
    if (!entry) return next();
    res.vary('Accept-Encoding');
    const accepts = acceptedCodings(req.headers['accept-encoding'] ?? '');
    const coding = entry.br && accepts('br') ? 'br' : entry.gz && accepts('gzip') ? 'gzip' : null;
    if (!coding) return next();
    res.setHeader('Content-Type', CONTENT_TYPES[path.extname(req.path)] ?? 'application/octet-stream');
    res.setHeader('Content-Encoding', coding);
    const query = req.url.indexOf('?');
    req.url = `${req.path}.${coding === 'br' ? 'br' : 'gz'}${query === -1 ? '' : req.url.slice(query)}`;
    next();
  };
}
