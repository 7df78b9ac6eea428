import type { Plugin } from 'vite';

const BLOCK_COMMENT = /\/\*[\s\S]*?\*\//g;
/** What esbuild calls a legal comment: a block comment starting with `/*!` or naming `@license` or `@preserve`. */
const isLegal = (comment: string) => comment.startsWith('/*!') || /@license|@preserve/.test(comment);

/**
 * The browser build is minified by terser (vite.config.ts: ~4 kB less gzip
 * on every page than esbuild's minifier, issue 21). Terser keeps a licence
 * comment only where its code survives, once per copy: this keeps every
 * licence comment of a chunk's code, once each, at the end of the file, as
 * esbuild's `legalComments: 'eof'` did (the many identical ones cost a first
 * visit ~0.4 kB gzipped in place). Two hooks: one reads the comments before
 * any minifier ran, one appends them after (`order: 'post'`), before Rollup
 * hashes the file.
 */
export function licenceCommentsAtEnd(): Plugin[] {
  const comments = new Map<string, string[]>();
  // The server build is not minified: its comments stay where they are.
  const browserBuild = (_config: unknown, { isSsrBuild, command }: { isSsrBuild?: boolean; command: string }) => command === 'build' && !isSsrBuild;
  return [
    {
      name: 'druckpreis:licence-comments-read',
      apply: browserBuild,
      renderChunk: {
        order: 'pre',
        handler(code, chunk) {
          const found = [...new Set((code.match(BLOCK_COMMENT) ?? []).filter(isLegal))];
          if (found.length) comments.set(chunk.fileName, found);
          return null;
        },
      },
    },
    {
      name: 'druckpreis:licence-comments-write',
      apply: browserBuild,
      renderChunk: {
        order: 'post',
        handler(code, chunk) {
          const found = comments.get(chunk.fileName);
          if (!found) return null;
          comments.delete(chunk.fileName);
          const missing = found.filter((comment) => !code.includes(comment));
          return missing.length ? { code: `${code.replace(/\n*$/, '\n')}${missing.join('\n')}\n`, map: null } : null;
        },
      },
    },
  ];
}
