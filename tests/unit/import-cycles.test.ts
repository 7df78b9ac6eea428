import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/*
 * ESLint (eslint.config.js) refuses an upward import and an import cycle, but
 * its cycle rule skips `import type`. Types tie files together for a reader as
 * much as values do, so here every import counts (value, type, re-export and
 * dynamic `import()`): no two files of app/ may reach each other.
 */

const APP = path.resolve('app');
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string, files: Set<string>): string | null {
  const base = specifier.startsWith('~/') ? path.join(APP, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  for (const extension of EXTENSIONS) if (files.has(base + extension)) return base + extension;
  return null;
}

/** Groups of files that import each other, directly or around a loop (Tarjan's strongly connected components). */
function importCycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const imported of graph.get(file) ?? []) {
      if (!index.has(imported)) {
        visit(imported);
        low.set(file, Math.min(low.get(file)!, low.get(imported)!));
      } else if (onStack.has(imported)) low.set(file, Math.min(low.get(file)!, index.get(imported)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(path.relative(process.cwd(), member));
    } while (member !== file);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

describe('imports in app/', () => {
  const files = sourceFiles(APP);
  const known = new Set(files);
  const graph = new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map(({ fileName }) => resolveImport(file, fileName, known)).filter((target): target is string => target !== null);
      return [file, [...new Set(targets)]];
    }),
  );

  it('reads the imports it checks (aliased, relative and dynamic)', () => {
    const header = path.join(APP, 'components/site-header.tsx');
    expect(graph.get(header)).toContain(path.join(APP, 'components/site-header-user.tsx'));
    expect(graph.get(header)).toContain(path.join(APP, 'lib/lazy-part.ts'));
  });

  it('form no cycle, type imports included', () => {
    expect(importCycles(graph)).toEqual([]);
  });
});
