/* global process, console */
/**
 * `postinstall`: small, pinned patches to installed dependencies. Plain
 * JavaScript without dependencies, so it also runs in a production install
 * (`npm ci --omit=dev`) and before anything is built.
 *
 * Each patch names the exact package version it was written for and the exact
 * text it replaces. It applies once (a marker comment says it is in), and a
 * different version or text is reported and left alone rather than half
 * patched: tests/unit/dependency-patches.test.ts then fails, so an upgrade
 * cannot silently drop a patch.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @remix-run/router 1.x flattens and ranks the whole route tree and compiles
 * every route's path into a RegExp on each matchRoutes() call, then tries the
 * branches in order until one matches, and Remix's server calls it at least
 * twice per request: with our ~60 routes that was about a seventh of a
 * signed-in page's CPU time. The route tree of a production server never
 * changes, so the ranked branches are kept per routes array (a WeakMap: a new
 * build in development gets new arrays), with the branch each pathname
 * matched (bounded: pathnames come from requests), and compiled paths in a
 * bounded map. Match objects are still made fresh for every call. React Router 7 made the same change upstream
 * (remix-run/react-router#14967); Remix 2 does not get it. Only the CommonJS
 * build is patched: it is the one Node loads; the browser bundle (router.js)
 * is left as it is, because the client patches its route tree at runtime
 * (lazy route discovery).
 */
const ROUTER_MARKER = '/* druckpreis patch: route branches and paths compiled once */';
/**
 * Remix 2 encodes a document's loader data for the browser (turbo-stream, with
 * a plugin call per value) before it calls entry.server, whether or not the
 * page is rendered. A page sent again from the render cache
 * (app/server/render-cache.server.ts) already holds that data, so the encoding
 * was thrown away: about 0.4 ms, a sixth of a signed-in calculator page's CPU
 * time. The encoding now happens when the render first reads it; everything
 * else, including the error render's own encoding, is as published.
 */
const HANDOFF_MARKER = '/* druckpreis patch: loader data encoded when the render reads it */';
/**
 * Before every loader and action, Remix 2 copies the request twice to strip
 * its own search parameters (`index`, `_routes` or `_data`) from the address,
 * also when the address has none. Each copy is a new undici Request following
 * the original's abort signal, which undici tracks in a FinalizationRegistry:
 * a page with two loaders made five Requests, and their objects outlived the
 * young generation, so a busy worker's old generation grew by tens of MB a
 * second and its collections paused requests. When stripping changes nothing
 * (the address after it is the same), the request itself is passed on: the
 * same method, headers, body and signal the copy would have had.
 */
const REQUEST_MARKER = '/* druckpreis patch: the request itself when nothing is stripped */';
export const PATCHES = [
  {
    name: 'route branches and paths compiled once',
    packageName: '@remix-run/router',
    version: '1.23.3',
    file: 'dist/router.cjs.js',
    marker: ROUTER_MARKER,
    replacements: [
      {
        // The whole matching loop, comments included, as published.
        from: [
          '  let branches = flattenRoutes(routes);',
          '  rankRouteBranches(branches);',
          '  let matches = null;',
          '  let decoded = decodePath(pathname);',
          '  for (let i = 0; matches == null && i < branches.length; ++i) {',
          '    // Incoming pathnames are generally encoded from either window.location',
          '    // or from router.navigate, but we want to match against the unencoded',
          '    // paths in the route definitions.  Memory router locations won\'t be',
          '    // encoded here but there also shouldn\'t be anything to decode so this',
          '    // should be a safe operation.  This avoids needing matchRoutes to be',
          '    // history-aware.',
          '    matches = matchRouteBranch(branches[i], decoded, allowPartial);',
          '  }',
          '  return matches;',
          '',
        ].join('\n'),
        to: [
          '  let ranked = rankedBranchesOnce(routes);',
          '  let decoded = decodePath(pathname);',
          '  // Which branch a pathname matches is fixed for a route tree: found once, then only that branch is matched again.',
          '  let key = (allowPartial ? "1" : "0") + decoded;',
          '  let known = ranked.branchByPathname.get(key);',
          '  if (known !== undefined) return known === -1 ? null : matchRouteBranch(ranked.branches[known], decoded, allowPartial);',
          '  let matches = null;',
          '  let i = 0;',
          '  for (; matches == null && i < ranked.branches.length; ++i) {',
          '    matches = matchRouteBranch(ranked.branches[i], decoded, allowPartial);',
          '  }',
          '  // Pathnames come from requests: bounded in number and length.',
          '  if (ranked.branchByPathname.size >= 2000) ranked.branchByPathname.clear();',
          '  if (key.length <= 512) ranked.branchByPathname.set(key, matches == null ? -1 : i - 1);',
          '  return matches;',
          '',
        ].join('\n'),
      },
      {
        from: 'function compilePath(path, caseSensitive, end) {\n',
        to: `${ROUTER_MARKER}
const rankedBranchesByRoutes = new WeakMap();
function rankedBranchesOnce(routes) {
  let ranked = rankedBranchesByRoutes.get(routes);
  if (!ranked) {
    let branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    ranked = { branches, branchByPathname: new Map() };
    rankedBranchesByRoutes.set(routes, ranked);
  }
  return ranked;
}
const compiledPaths = new Map();
function compilePath(path, caseSensitive, end) {
  let key = path + "\\0" + (caseSensitive ? 1 : 0) + (end === false ? 0 : 1);
  let compiled = compiledPaths.get(key);
  if (!compiled) {
    compiled = compilePathUncached(path, caseSensitive, end);
    // Paths come from the route tree, and from useMatch() patterns: bounded all the same.
    if (compiledPaths.size < 1000) compiledPaths.set(key, compiled);
  }
  return compiled;
}
function compilePathUncached(path, caseSensitive, end) {
`,
      },
    ],
  },
  {
    name: 'loader data encoded for the page only when it is rendered',
    packageName: '@remix-run/server-runtime',
    version: '2.17.5',
    file: 'dist/server.js',
    marker: HANDOFF_MARKER,
    replacements: [
      {
        from:
          '      serverHandoffStream: singleFetch.encodeViaTurboStream(state, request.signal, build.entry.module.streamTimeout, serverMode),\n' +
          '      renderMeta: {}\n    } : null),\n    future: build.future,\n',
        to: '      renderMeta: {}\n    } : null),\n    future: build.future,\n',
      },
      {
        from: '  let handleDocumentRequestFunction = build.entry.module.default;\n',
        to: `  ${HANDOFF_MARKER}
  if (build.future.v3_singleFetch) {
    let encodeHandoff = () => singleFetch.encodeViaTurboStream(state, request.signal, build.entry.module.streamTimeout, serverMode);
    Object.defineProperty(entryContext, "serverHandoffStream", {
      configurable: true,
      enumerable: true,
      get() {
        let stream = encodeHandoff();
        Object.defineProperty(entryContext, "serverHandoffStream", { value: stream, writable: true, configurable: true, enumerable: true });
        return stream;
      }
    });
  }
  let handleDocumentRequestFunction = build.entry.module.default;
`,
      },
    ],
  },
  {
    name: 'loaders and actions get the request itself when there is nothing to strip from its address',
    packageName: '@remix-run/server-runtime',
    version: '2.17.5',
    file: 'dist/data.js',
    marker: REQUEST_MARKER,
    replacements: [
      {
        from: '  for (let toKeep of indexValuesToKeep) {\n    url.searchParams.append("index", toKeep);\n  }\n',
        to: `  for (let toKeep of indexValuesToKeep) {\n    url.searchParams.append("index", toKeep);\n  }\n  ${REQUEST_MARKER}\n  if (url.href === request.url) return request;\n`,
      },
      {
        from: '  url.searchParams.delete("_data");\n',
        to: '  url.searchParams.delete("_data");\n  if (url.href === request.url) return request;\n',
      },
      {
        from: '  url.searchParams.delete("_routes");\n',
        to: '  url.searchParams.delete("_routes");\n  if (url.href === request.url) return request;\n',
      },
    ],
  },
];

/** Applies every patch under `root` (the directory holding node_modules); returns one line per patch. */
export function applyPatches(root) {
  return PATCHES.map((patch) => {
    const packageDir = path.join(root, 'node_modules', patch.packageName);
    const file = path.join(packageDir, patch.file);
    if (!existsSync(file)) return `skipped ${patch.name}: ${patch.packageName} is not installed`;
    const { version } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    if (version !== patch.version) {
      return `NOT APPLIED ${patch.name}: written for ${patch.packageName} ${patch.version}, installed ${version}`;
    }
    const source = readFileSync(file, 'utf8');
    if (source.includes(patch.marker)) return `already applied: ${patch.name}`;
    const missing = patch.replacements.filter(({ from }) => source.split(from).length !== 2);
    if (missing.length) return `NOT APPLIED ${patch.name}: ${patch.file} does not contain the expected text once`;
    writeFileSync(file, patch.replacements.reduce((text, { from, to }) => text.replace(from, () => to), source));
    return `applied: ${patch.name}`;
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (const line of applyPatches(root)) console.log(`[patch-dependencies] ${line}`);
}
