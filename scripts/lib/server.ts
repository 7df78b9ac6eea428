import crypto from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import type { ViteDevServer } from 'vite';
import { bundleVersion } from '../../app/i18n';
import { answerDatabaseOutages } from '../../app/services/database-outage.server';
import { parseEnv } from '../../app/lib/env.server';
import { CLIENT_IP_HEADER, trustedProxyHops } from '../../app/services/client-ip.server';
import {
  buildContentSecurityPolicy,
  crossSiteRequestGuard,
  isCacheableRequest,
  staticSecurityHeaders,
  STRICT_TRANSPORT_SECURITY,
  uploadOriginFor,
  VisitorPageCache,
  type VisitorPageSlot,
} from '../../app/server/index';
import { CSP_EXTENSION_HEADER, parseCspExtensions, paymentOriginsFor } from '../../app/server/security-headers';
import { servePrecompressed } from './precompressed';
import { requestGuard } from './request-limits';

type Options = {
  port: number;
  host: string;
  mode: 'production' | 'development';
  logRequests: boolean;
  /** In development the Vite dev server serves assets and builds the app on demand. */
  vite?: ViteDevServer;
};

/**
 * The HTTP server: security headers on every response (static files included,
 * which remix-serve cannot do), compression, static assets and the Remix handler.
 */
export async function startHttpServer({ port, host, mode, logRequests, vite }: Options) {
  const app = express();
  app.disable('x-powered-by');
  // Forwarded headers (client IP, protocol, host) count only when TRUST_PROXY says a proxy sets them.
  const proxyHops = trustedProxyHops();
  app.set('trust proxy', proxyHops > 0 ? proxyHops : false);
  // Malformed hosts, wrong methods/content types and oversized bodies end here (4xx), before anything reads them.
  app.use(requestGuard({ trustProxy: proxyHops > 0 }));
  // The client IP for rate limits (clientIp() in app/services/client-ip.server.ts):
  // the TCP peer, or with TRUST_PROXY the address the reverse proxies forwarded.
  // Whatever a client sent under this header name is overwritten.
  app.use((req, _res, next) => {
    req.headers[CLIENT_IP_HEADER] = (proxyHops > 0 ? req.ip : req.socket.remoteAddress) ?? '';
    next();
  });

  const uploadOrigin = uploadOriginFor(parseEnv());
  const paymentOrigins = paymentOriginsFor({ STRIPE_API_BASE: process.env.STRIPE_API_BASE, STRIPE_JS_URL: process.env.STRIPE_JS_URL });
  app.use((req, res, next) => {
    const nonce = crypto.randomBytes(16).toString('base64');
    res.locals.cspNonce = nonce;
    for (const [name, value] of Object.entries(staticSecurityHeaders)) res.setHeader(name, value);
    // HSTS only where it is true: production over HTTPS (directly, or as a trusted proxy says).
    if (mode === 'production' && req.protocol === 'https') res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    res.setHeader('Content-Security-Policy', buildContentSecurityPolicy(nonce, { dev: Boolean(vite), uploadOrigin }));
    // A page that needs a wider policy (payments on /premium, ads) says so in an internal header:
    // the policy is rebuilt from it just before the headers go out, and the header removed.
    const writeHead = res.writeHead;
    res.writeHead = function (this: express.Response, ...args: unknown[]) {
      const extensions = parseCspExtensions(this.getHeader(CSP_EXTENSION_HEADER));
      if (this.hasHeader(CSP_EXTENSION_HEADER)) this.removeHeader(CSP_EXTENSION_HEADER);
      if (extensions.length > 0) {
        this.setHeader('Content-Security-Policy', buildContentSecurityPolicy(nonce, { dev: Boolean(vite), uploadOrigin, extensions, paymentOrigins }));
      }
      return (writeHead as (...rest: unknown[]) => express.Response).apply(this, args);
    } as typeof res.writeHead;
    next();
  });
  if (logRequests) app.use(requestLogger);
  // State-changing requests from another site get 403 (app/server/csrf.server.ts).
  app.use(crossSiteRequestGuard(parseEnv().APP_URL));
  // Pages whose responses said they may be shared (Cache-Control: public, max-age, Vary) are
  // answered here, before Remix runs (app/server/visitor-page-cache.server.ts). Off with the
  // render cache, and in development where the code changes under it.
  const visitorPages = parseEnv().RENDER_CACHE === 'on' && !vite ? new VisitorPageCache() : null;
  if (visitorPages) {
    app.use((req, res, next) => {
      if (isStaticFile(req.path) || !isCacheableRequest(req)) return next();
      if (visitorPages.answer(req, res, res.locals.cspNonce as string)) return;
      res.locals.visitorPageSlot = visitorPages.slotFor(req);
      next();
    });
  }
  // Pages are dynamic and compressed on every response (those from the page caches come
  // precompressed, app/server/nonced-html.server.ts). Brotli at quality 4, not 1: React streams
  // the page in ~2 KB writes, and brotli's fast qualities (0, 1) end a block at every write, so a
  // freshly rendered /calculator was 35 KB at quality 1; at quality 4 it is 13 KB (issue 25).
  // With a 128 KB window (a page is smaller): the default 4 MB window's tables, set up for every
  // response, cost 16 ms of CPU each (`npm run bench`, new inputs: 8–10 CPU ms/req, as before).
  // Static files get the middleware's defaults (those precompressed at build time skip it).
  const compressPage = compression({
    level: 1,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 17 } },
  });
  const compressFile = compression();
  app.use((req, res, next) => (isStaticFile(req.path) ? compressFile : compressPage)(req, res, next));

  // Resource routes answer a database outage with 503 too, not Remix's bare 500 (app/services/database-outage.server.ts).
  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (vite) {
    app.use(vite.middlewares);
    build = async () => answerDatabaseOutages((await vite.ssrLoadModule('virtual:remix/server-build')) as ServerBuild);
  } else {
    const buildDir = path.resolve('build');
    // Brotli and gzip copies made at build time (scripts/lib/vite-precompress.ts), for the files that have them.
    app.use(servePrecompressed(path.join(buildDir, 'client')));
    app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y', redirect: false }));
    // Only paths that can be a file here reach the disk: a page request would otherwise cost a stat() each.
    const clientDir = path.join(buildDir, 'client');
    const topLevel = new Set(readdirSync(clientDir).filter((name) => name !== 'assets'));
    // redirect: false: a folder (/locales) is not a page; express's English "Redirecting to /locales/" was.
    const serveClientFile = express.static(clientDir, { maxAge: '1h', redirect: false });
    // A translation file asked for with its current version (the address a page names, root.tsx) never changes.
    const localeVersions = readLocaleVersions(path.join(clientDir, 'locales'));
    const serveVersionedLocale = express.static(clientDir, { immutable: true, maxAge: '1y', redirect: false });
    app.use((req, res, next) => {
      if (!topLevel.has(req.path.split('/')[1] ?? '')) return next();
      const versioned = typeof req.query.v === 'string' && localeVersions.get(req.path.replace(/\.(br|gz)$/, '')) === req.query.v;
      return (versioned ? serveVersionedLocale : serveClientFile)(req, res, next);
    });
    build = answerDatabaseOutages((await import(pathToFileURL(path.join(buildDir, 'server/index.js')).href)) as ServerBuild);
  }

  app.all(
    '*',
    createRequestHandler({
      build,
      mode,
      getLoadContext: (_req, res) => {
        return {
          cspNonce: res.locals.cspNonce as string,
          visitorPage: res.locals.visitorPageSlot as VisitorPageSlot | undefined,
          // Filled by the first loader that asks (app/services/request-context.server.ts), shared by the
          // rest: one session and user read per request.
          requestContext: {},
        };
      },
    }),
  );

  // A request the client gave up on (or that was refused while Remix waited) needs no second answer.
  app.use((error: unknown, req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    next(error);
  });

  return new Promise<Server>((resolve) => {
    const server = app.listen(port, host, () => resolve(server));
    // Idle keep-alive connections stay open longer than a reverse proxy's (typically 60 s) and any
    // client's pool would keep them: with Node's default of 5 s, a client reusing a connection just
    // as the server closes it gets a reset (seen as "socket hang up" on a plain GET).
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  });
}

const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** `/locales/<lng>/<ns>.json` → the version a page names it with (app/i18n.ts). */
function readLocaleVersions(localesDir: string): Map<string, string> {
  const versions = new Map<string, string>();
  if (!existsSync(localesDir)) return versions;
  for (const lng of readdirSync(localesDir)) {
    for (const file of readdirSync(path.join(localesDir, lng)).filter((name) => name.endsWith('.json'))) {
      versions.set(`/locales/${lng}/${file}`, bundleVersion(JSON.parse(readFileSync(path.join(localesDir, lng, file), 'utf8'))));
    }
  }
  return versions;
}

function isStaticFile(pathname: string): boolean {
  return pathname.startsWith('/assets/') || pathname.startsWith('/locales/') || /\.(svg|ico|png|txt|webmanifest)$/.test(pathname);
}

function requestLogger(req: express.Request, res: express.Response, next: express.NextFunction) {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    console.log(`${req.method} ${loggedPath(req.originalUrl)} ${res.statusCode} ${ms.toFixed(1)} ms`);
  });
  next();
}

/**
 * The request log names the path and only the names of the query's parameters:
 * their values (calculator inputs, project names, tokens) stay out of the log.
 */
export function loggedPath(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const names = [...new Set([...new URLSearchParams(url.slice(query + 1)).keys()])];
  return names.length ? `${url.slice(0, query)}?${names.map((name) => encodeURIComponent(name)).join('&')}` : url.slice(0, query);
}
