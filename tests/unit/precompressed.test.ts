import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servePrecompressed } from '../../scripts/lib/precompressed';
import { precompressDirectory } from '../../scripts/lib/vite-precompress';

/*
 * Issue 25: static files compressed at build time (brotli 11, gzip 9) and
 * served as such, with the original's type, Content-Encoding and Vary; the
 * compression middleware in front leaves them alone, as in scripts/lib/server.ts.
 */
describe('precompressed static files', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'precompressed-'));
  const script = `export const text = ${JSON.stringify('Druckpreis '.repeat(400))};\n`;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'assets/page-1.js'), script);
    writeFileSync(path.join(dir, 'assets/tiny-1.js'), 'export {};\n');
    precompressDirectory(dir);
    const app = express();
    app.use(compression());
    app.use(servePrecompressed(dir));
    app.use('/assets', express.static(path.join(dir, 'assets'), { immutable: true, maxAge: '1y' }));
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes .br and .gz beside files of 1 KB and more, not beside tiny ones', () => {
    expect(zlib.brotliDecompressSync(readFileSync(path.join(dir, 'assets/page-1.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(readFileSync(path.join(dir, 'assets/page-1.js.gz'))).toString()).toBe(script);
    expect(() => readFileSync(path.join(dir, 'assets/tiny-1.js.br'))).toThrow();
  });

  /** The raw response: Node's http client, which does not decode bodies. */
  async function get(url: string, acceptEncoding: string) {
    const http = await import('node:http');
    return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      http.get(base + url, { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  }

  it('sends brotli to a browser, gzip to a client without brotli, the file to one with neither', async () => {
    const browser = await get('/assets/page-1.js', 'gzip, deflate, br, zstd');
    expect(browser.headers['content-encoding']).toBe('br');
    expect(browser.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(browser.headers['vary']).toMatch(/Accept-Encoding/);
    expect(browser.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(browser.body).toString()).toBe(script);
    expect(browser.body.length).toBe(readFileSync(path.join(dir, 'assets/page-1.js.br')).length);

    const gzipOnly = await get('/assets/page-1.js', 'gzip, br;q=0');
    expect(gzipOnly.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzipOnly.body).toString()).toBe(script);

    const plain = await get('/assets/page-1.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('leaves files without a compressed copy to the static handler', async () => {
    const tiny = await get('/assets/tiny-1.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
  });
});
