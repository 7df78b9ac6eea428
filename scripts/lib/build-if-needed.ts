import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = ['app', 'public', 'remix.config.js', 'vite.config.ts', 'tailwind.config.ts', 'package.json'];
const BUILD_ENTRY = 'build/server/index.js';

/** Builds the app when there is no build yet, a source file is newer than it, or `force` says so. */
export function buildIfNeeded({ force = false }: { force?: boolean } = {}) {
  if (existsSync(BUILD_ENTRY) && !force) {
    // A production image has the build but not the build tools: serve what is there.
    if (!existsSync('node_modules/@remix-run/dev')) return;
    if (newestMtime(SOURCES) <= statSync(BUILD_ENTRY).mtimeMs) return;
  }
  console.log('[start] building the app (remix vite:build)…');
  const result = spawnSync('npx', ['remix', 'vite:build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (result.status !== 0) throw new Error('build failed');
}

function newestMtime(entries: string[]): number {
  let newest = 0;
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    const stat = statSync(entry);
    if (stat.isDirectory()) for (const child of readdirSync(entry)) visit(path.join(entry, child));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  entries.forEach(visit);
  return newest;
}
