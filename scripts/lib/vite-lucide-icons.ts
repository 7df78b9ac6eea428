import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * In the browser build, `import { X, Menu } from 'lucide-react'` becomes one
 * import per icon file. Through the package's index every module that uses an
 * icon depends on all 1,600 of them, and Rollup moves all static dependencies
 * of a manual chunk into it: the root's shell chunk (vite.config.ts) would
 * take every icon any page uses. With direct imports it takes only its own.
 * The server build keeps the package import (Node loads it as it is).
 */
export function lucideIconImports(): Plugin {
  const esmDir = path.join(path.dirname(createRequire(import.meta.url).resolve('lucide-react/package.json')), 'dist/esm');
  // `export { default as X, default as XIcon, default as LucideX } from './icons/x.js';`
  const files = new Map<string, string>();
  const index = readFileSync(path.join(esmDir, 'lucide-react.js'), 'utf8');
  for (const [, names, file] of index.matchAll(/export \{([^}]*)\} from '\.\/(icons\/[^']+)';/g)) {
    for (const name of names.split(',')) files.set(name.trim().replace(/^default as /, ''), path.join(esmDir, file));
  }
  return {
    name: 'druckpreis:lucide-icon-imports',
    apply: 'build',
    enforce: 'pre',
    transform(code, id, options) {
      if (options?.ssr || id.includes('/node_modules/') || !/\.[jt]sx?$/.test(id) || !code.includes('lucide-react')) return null;
      const rewritten = code.replace(/import\s*\{([^}]*)\}\s*from\s*['"]lucide-react['"];?/g, (statement, list: string) => {
        const specifiers = list.split(',').map((part) => part.trim()).filter(Boolean);
        const parsed = specifiers.map((part) => {
          const [imported, local = imported] = part.split(/\s+as\s+/);
          return { imported, local, file: files.get(imported) };
        });
        // Anything else (createLucideIcon, types): leave the statement as it is.
        if (parsed.some((specifier) => !specifier.file)) return statement;
        // The same number of lines, so positions after the statement stay where they were.
        return parsed.map(({ local, file }) => `import ${local} from ${JSON.stringify(file)};`).join(' ') + '\n'.repeat(statement.split('\n').length - 1);
      });
      return rewritten === code ? null : { code: rewritten, map: null };
    },
  };
}
