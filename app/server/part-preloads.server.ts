import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AdsView } from '../domain/ads';

/** The lazily loaded parts (lib/lazy-part.ts) a page may render, by source file as the build's manifest names them. */
export const LAZY_PARTS = {
  calculatorSignedIn: 'app/components/calculator/signed-in-parts.tsx',
  headerSignedIn: 'app/components/site-header-user.tsx',
  adContent: 'app/components/ads/ad-content.tsx',
} as const;

type ManifestChunk = { file: string; imports?: string[] };
let manifest: Record<string, ManifestChunk> | null | undefined;

function readManifest(): Record<string, ManifestChunk> | null {
  // Only a production build has one that matches the files served; development serves sources.
  if (process.env.NODE_ENV !== 'production') return null;
  if (manifest === undefined) {
    try {
      manifest = JSON.parse(readFileSync(path.resolve('build/.vite/client-manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    } catch {
      manifest = null;
    }
  }
  return manifest;
}

/**
 * The browser files of the lazily loaded parts a page renders (each with its
 * static imports), as addresses for `<link rel="modulepreload">` in the
 * document's head (root.tsx renders every matched route's `partPreloads`).
 * The browser then fetches them with the page's other scripts, not after
 * them: hydration waits for them (lib/lazy-part.ts), so this keeps a
 * signed-in page from becoming interactive a round trip later. Read from the
 * build's manifest (kept by vite.config.ts); empty without one.
 */
export function partPreloads(...parts: Array<(typeof LAZY_PARTS)[keyof typeof LAZY_PARTS]>): string[] {
  // Walked once per combination: the manifest does not change while the process runs, and every signed-in page asks.
  const key = parts.join('\n');
  let files = walked.get(key);
  if (!files) {
    files = walkManifest(parts);
    walked.set(key, files);
  }
  return [...files];
}

const walked = new Map<string, readonly string[]>();

function walkManifest(parts: readonly string[]): string[] {
  const chunks = readManifest();
  if (!chunks) return [];
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = chunks[key];
    // The shell (vite.config.ts) is the root's: every page has it already.
    if (!chunk || files.has(`/${chunk.file}`) || key.startsWith('_shell-')) return;
    files.add(`/${chunk.file}`);
    chunk.imports?.forEach(visit);
  };
  parts.forEach(visit);
  return [...files];
}

/**
 * On a page with ad slots (`handle.ads`): the slots' content once the cookie
 * dialog was answered, for those who see ads. The server's markup then holds
 * it, so hydration waits for its chunk; named in the head, it comes with the
 * page's scripts instead of a round trip after them. Before the answer (every
 * first visit) nothing.
 */
export function adContentPreloads(ads: AdsView | null | undefined): string[] {
  return ads?.show && ads.consentAnswered ? partPreloads(LAZY_PARTS.adContent) : [];
}
