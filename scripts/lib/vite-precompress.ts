import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** What is worth compressing: text formats, from 1 KB (below that the framing eats most of the gain). */
export const PRECOMPRESSED_TYPES = /\.(js|css|json|svg|txt|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Issue 25: the browser build's static files are compressed once, at build
 * time, at the highest settings (brotli 11, gzip 9) that no per-response
 * compression could afford: `x.js.br` and `x.js.gz` beside `x.js`, kept only
 * when smaller. scripts/lib/precompressed.ts serves them. Hashed assets and the
 * locale files (public/, copied into the client build) both.
 */
export function precompressClientFiles(): Plugin {
  let outDir = '';
  let ssr = false;
  return {
    name: 'druckpreis:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      ssr = Boolean(config.build.ssr);
    },
    // After Vite has written the bundle and copied public/ into the same folder.
    closeBundle() {
      if (ssr || !outDir) return;
      precompressDirectory(outDir);
    },
  };
}

export function precompressDirectory(dir: string) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      // Remix moves Vite's manifest out of the client build; nothing under a dot folder is served.
      if (!name.startsWith('.')) precompressDirectory(file);
      continue;
    }
    if (!PRECOMPRESSED_TYPES.test(name)) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    const br = zlib.brotliCompressSync(bytes, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gz = zlib.gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
  }
}
