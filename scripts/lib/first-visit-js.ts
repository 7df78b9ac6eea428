/**
 * The JavaScript a first visit to a page downloads, read from the build: the
 * same list Remix's <Scripts> writes as `modulepreload` links (the client
 * entry and each matched route module, each with its static imports), each
 * file gzipped at level 9. `scripts/js-budget.ts` prints it on its own and
 * `npm run bench` prints it with the server's figures, so the two cannot
 * disagree. Vite's manifest is kept for this (`build.manifest` in
 * vite.config.ts); Remix moves it out of the served files.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Issue 2 (docs/performance.md): a first visit to /calculator downloads at most 110 kB of JavaScript,
 * gzipped. Issue 21: lowered to 107.4 kB, what it was before Premium (107,423 B) and ~1 kB above
 * the 106,433 B measured after trimming (docs/performance.md, "First-visit JavaScript after Premium").
 */
export const FIRST_VISIT_BUDGET_BYTES = 107_400;

export const CLIENT_MANIFEST = 'build/.vite/client-manifest.json';
const CLIENT_DIR = 'build/client';
/** Remix's suffix for a route module's client build (@remix-run/dev, BUILD_CLIENT_ROUTE_QUERY_STRING). */
const CLIENT_ROUTE = '?__remix-build-client-route';

/** The routes a first visit to /calculator matches, the root first. */
export const CALCULATOR_ROUTES = ['app/root.tsx', 'app/routes/_calculator+/calculator.tsx'];

type ManifestChunk = { file: string; name?: string; src?: string; imports?: string[]; dynamicImports?: string[]; isDynamicEntry?: boolean };
export type ViteManifest = Record<string, ManifestChunk>;

export type JsFile = { url: string; gzipBytes: number };
export type FirstVisitJs = {
  /** What the page preloads, largest first. */
  files: JsFile[];
  totalGzipBytes: number;
  /** Chunks fetched later (on focus, on export, on a slicer file, for signed-in parts), with their own new static imports. */
  later: Array<{ src: string; files: JsFile[]; gzipBytes: number }>;
};

export function readClientManifest(): ViteManifest {
  if (!existsSync(CLIENT_MANIFEST)) throw new Error(`${CLIENT_MANIFEST} is missing: build with \`npm run build\` first`);
  return JSON.parse(readFileSync(CLIENT_MANIFEST, 'utf8')) as ViteManifest;
}

/** A route or entry's chunk key, as Remix resolves it. */
function chunkKey(manifest: ViteManifest, sourceFile: string): string {
  const key = [sourceFile + CLIENT_ROUTE, sourceFile].find((candidate) => candidate in manifest);
  if (!key) throw new Error(`${sourceFile} is not in ${CLIENT_MANIFEST}`);
  return key;
}

/** The chunk keys a chunk needs before it runs: itself and its static imports, transitively. */
function withStaticImports(manifest: ViteManifest, keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (into.has(key)) continue;
    into.add(key);
    withStaticImports(manifest, manifest[key].imports ?? [], into);
  }
  return into;
}

function firstVisitKeys(manifest: ViteManifest, routes: string[]): Set<string> {
  return withStaticImports(manifest, ['app/entry.client.tsx', ...routes].map((file) => chunkKey(manifest, file)));
}

/** The files (URLs under /assets) a first visit to a page with these routes preloads. */
export function firstVisitFiles(manifest: ViteManifest, routes: string[] = CALCULATOR_ROUTES): string[] {
  return [...firstVisitKeys(manifest, routes)].map((key) => `/${manifest[key].file}`);
}

export function gzipSize(url: string): number {
  return gzipSync(readFileSync(path.join(CLIENT_DIR, url)), { level: 9 }).length;
}

export function measureFirstVisitJs(manifest: ViteManifest = readClientManifest(), routes: string[] = CALCULATOR_ROUTES): FirstVisitJs {
  const loaded = firstVisitKeys(manifest, routes);
  const files = [...loaded].map((key) => ({ url: `/${manifest[key].file}`, gzipBytes: gzipSize(`/${manifest[key].file}`) }));
  files.sort((a, b) => b.gzipBytes - a.gzipBytes);
  // Every dynamic import reachable from what was loaded, each with what it adds.
  const later: FirstVisitJs['later'] = [];
  const queue = [...loaded].flatMap((key) => manifest[key].dynamicImports ?? []);
  const seen = new Set<string>(loaded);
  while (queue.length) {
    const key = queue.shift()!;
    if (seen.has(key)) continue;
    const added = [...withStaticImports(manifest, [key])].filter((needed) => !loaded.has(needed));
    added.forEach((needed) => seen.add(needed));
    const addedFiles = added.map((needed) => ({ url: `/${manifest[needed].file}`, gzipBytes: gzipSize(`/${manifest[needed].file}`) }));
    later.push({ src: manifest[key].src ?? manifest[key].name ?? key, files: addedFiles, gzipBytes: addedFiles.reduce((sum, file) => sum + file.gzipBytes, 0) });
    for (const needed of added) queue.push(...(manifest[needed].dynamicImports ?? []));
  }
  return { files, totalGzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0), later };
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1).padStart(6);

/** The report `npm run bench` and `scripts/js-budget.ts` print. */
export function formatFirstVisitJs(page: string, measured: FirstVisitJs, budgetBytes?: number): string {
  const lines = [`JavaScript a first visit to ${page} downloads (gzip -9):`];
  for (const file of measured.files) lines.push(`  ${kB(file.gzipBytes)} kB  ${file.url}`);
  const verdict = budgetBytes === undefined ? '' : measured.totalGzipBytes <= budgetBytes ? `  (budget ${kB(budgetBytes).trim()} kB: met)` : `  (budget ${kB(budgetBytes).trim()} kB: OVER)`;
  lines.push(`  ${kB(measured.totalGzipBytes)} kB  total (${measured.files.length} files)${verdict}`);
  if (measured.later.length) {
    lines.push('  loaded later, when needed:');
    for (const chunk of measured.later) lines.push(`  ${kB(chunk.gzipBytes)} kB  ${chunk.src} (${chunk.files.map((file) => file.url).join(', ')})`);
  }
  return lines.join('\n');
}
