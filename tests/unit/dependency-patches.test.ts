import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// Plain JavaScript (it runs as postinstall, before anything is compiled); allowJs types it.
import { applyPatches, PATCHES } from '../../scripts/patch-dependencies.mjs';

type Patch = { name: string; packageName: string; version: string; file: string; marker: string };
type RouteObject = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: RouteObject[] };
type Match = { route: { id: string }; params: Record<string, string | undefined>; pathname: string; pathnameBase: string };
type MatchRoutes = (routes: RouteObject[], location: string) => Match[] | null;

const ROOT = path.resolve(__dirname, '../..');
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

// The route tree's shapes: pathless layouts, index routes, params, optional segments and splats.
const routes: RouteObject[] = [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'index', index: true },
      { id: 'calc-layout', children: [{ id: 'calculator', path: 'calculator' }, { id: 'export', path: 'calculator/export' }] },
      {
        id: 'library-layout',
        children: ['printers', 'filaments', 'packaging', 'shipping', 'marketplaces'].map((kind) => ({ id: kind, path: kind })),
      },
      { id: 'projects', path: 'projects', children: [{ id: 'projects-index', index: true }, { id: 'project', path: ':projectId' }] },
      { id: 'api-item', path: 'api/:kind/:id?' },
      { id: 'images', path: 'images/*' },
      { id: 'case', path: 'Kontakt', caseSensitive: true },
      { id: 'not-found', path: '*' },
    ],
  },
];
const PATHS = [
  '/', '/calculator', '/calculator/', '/calculator/export', '/CALCULATOR', '/printers', '/marketplaces', '/projects', '/projects/',
  '/projects/abc-123', '/projects/a%20b', '/api/printers', '/api/printers/42', '/api/printers/42/x', '/images/users/1/a.png',
  '/Kontakt', '/kontakt', '/nirgends', '/printers/1',
];

function summary(matches: Match[] | null) {
  return matches?.map(({ route, params, pathname, pathnameBase }) => ({ id: route.id, params, pathname, pathnameBase })) ?? null;
}

describe('dependency patches (scripts/patch-dependencies.mjs)', () => {
  it('are all applied to the installed packages, at the versions they were written for', () => {
    for (const patch of PATCHES as Patch[]) {
      const packageDir = path.join(ROOT, 'node_modules', patch.packageName);
      expect(JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version, patch.name).toBe(patch.version);
      expect(readFileSync(path.join(packageDir, patch.file), 'utf8'), patch.name).toContain(patch.marker);
    }
  });

  it('leave the route matching Node uses answering exactly as the unpatched router does, also when asked again', async () => {
    // The CommonJS build is the patched one Node loads; the ESM build (the browser's) is as published.
    const patched = createRequire(import.meta.url)(path.join(ROOT, 'node_modules/@remix-run/router/dist/router.cjs.js')) as {
      matchRoutes: MatchRoutes;
    };
    const published = (await import(/* @vite-ignore */ pathToFileURL(path.join(ROOT, 'node_modules/@remix-run/router/dist/router.js')).href)) as {
      matchRoutes: MatchRoutes;
    };
    for (let round = 0; round < 2; round++) {
      for (const pathname of PATHS) {
        expect(summary(patched.matchRoutes(routes, pathname)), pathname).toEqual(summary(published.matchRoutes(routes, pathname)));
      }
    }
    expect(summary(patched.matchRoutes(routes, '/projects/abc-123'))?.at(-1)).toMatchObject({ id: 'project', params: { projectId: 'abc-123' } });
    // Every call gets match objects of its own (callers may change them).
    expect(patched.matchRoutes(routes, '/calculator')).not.toBe(patched.matchRoutes(routes, '/calculator'));
    expect(patched.matchRoutes(routes, '/calculator')![0].params).not.toBe(patched.matchRoutes(routes, '/calculator')![0].params);
    const long = `/images/${'x'.repeat(600)}`;
    expect(summary(patched.matchRoutes(routes, long))).toEqual(summary(published.matchRoutes(routes, long)));
    // Another route tree (a new build in development) is matched on its own.
    const other: RouteObject[] = [{ id: 'other', path: 'calculator' }];
    expect(summary(patched.matchRoutes(other, '/calculator'))?.map((match) => match.id)).toEqual(['other']);
  });

  it('apply once, and leave a package of another version untouched', () => {
    for (const patch of PATCHES as Array<Patch & { replacements: Array<{ from: string; to: string }> }>) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'patches-'));
      temporary.push(dir);
      const installed = path.join(ROOT, 'node_modules', patch.packageName);
      const copy = path.join(dir, 'node_modules', patch.packageName);
      cpSync(path.join(installed, 'package.json'), path.join(copy, 'package.json'));
      // The published text: the patch's own replacements undone.
      const patchedSource = readFileSync(path.join(installed, patch.file), 'utf8');
      const original = patch.replacements.reduceRight((text, { from, to }) => text.replace(to, () => from), patchedSource);
      expect(original, patch.name).not.toContain(patch.marker);
      cpSync(path.join(installed, patch.file), path.join(copy, patch.file));
      writeFileSync(path.join(copy, patch.file), original);
      // Only this package is in the copy: the other patches say so.
      const line = (status: string) => expect.arrayContaining([status]);

      expect(applyPatches(dir)).toEqual(line(`applied: ${patch.name}`));
      expect(readFileSync(path.join(copy, patch.file), 'utf8')).toBe(patchedSource);
      expect(applyPatches(dir)).toEqual(line(`already applied: ${patch.name}`));
      expect(readFileSync(path.join(copy, patch.file), 'utf8')).toBe(patchedSource);

      writeFileSync(path.join(copy, patch.file), original);
      writeFileSync(path.join(copy, 'package.json'), JSON.stringify({ version: '9.9.9' }));
      expect(applyPatches(dir)).toEqual(expect.arrayContaining([`NOT APPLIED ${patch.name}: written for ${patch.packageName} ${patch.version}, installed 9.9.9`]));
      expect(readFileSync(path.join(copy, patch.file), 'utf8')).toBe(original);
    }
  });
});
