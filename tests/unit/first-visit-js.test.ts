import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAZY_PARTS } from '~/server/part-preloads.server';
import { CLIENT_MANIFEST, firstVisitFiles, readClientManifest, type ViteManifest } from '../../scripts/lib/first-visit-js';

/*
 * The first visit's JavaScript (scripts/js-budget.ts, npm run bench): which
 * files count. The second part reads the real build when there is one
 * (`npm run build`; the unit suite does not build).
 */

describe('firstVisitFiles', () => {
  const manifest: ViteManifest = {
    'app/entry.client.tsx': { file: 'assets/entry.client-1.js', imports: ['_shell-1.js'] },
    'app/root.tsx?__remix-build-client-route': { file: 'assets/root-1.js', imports: ['_shell-1.js'] },
    'app/routes/page.tsx?__remix-build-client-route': { file: 'assets/page-1.js', imports: ['_shell-1.js', '_number-1.js'], dynamicImports: ['app/lazy.tsx'] },
    '_shell-1.js': { file: 'assets/shell-1.js', dynamicImports: ['app/menu.tsx'] },
    '_number-1.js': { file: 'assets/number-1.js', imports: ['_tiny-1.js'] },
    '_tiny-1.js': { file: 'assets/tiny-1.js' },
    'app/lazy.tsx': { file: 'assets/lazy-1.js', isDynamicEntry: true, imports: ['_shell-1.js', '_icon-1.js'] },
    'app/menu.tsx': { file: 'assets/menu-1.js', isDynamicEntry: true },
    '_icon-1.js': { file: 'assets/icon-1.js' },
  };

  it('counts the entry and the routes with their static imports, each once, and no dynamic import', () => {
    expect(firstVisitFiles(manifest, ['app/root.tsx', 'app/routes/page.tsx']).sort()).toEqual(
      ['/assets/entry.client-1.js', '/assets/number-1.js', '/assets/page-1.js', '/assets/root-1.js', '/assets/shell-1.js', '/assets/tiny-1.js'].sort(),
    );
  });

  it('names a route missing from the manifest', () => {
    expect(() => firstVisitFiles(manifest, ['app/root.tsx', 'app/routes/gone.tsx'])).toThrow(/gone\.tsx/);
  });
});

describe.skipIf(!existsSync(CLIENT_MANIFEST))('the build: a visitor’s first visit to /calculator', () => {
  /** Data attributes only the signed-in parts' code names (app/lib/lazy-part.ts loads them apart). */
  // Issue 21: the print sheet's "Verwendet" block (image, library items) is one of them too.
  const signedInMarkers = ['data-save-project-floating', 'data-picker-applied', 'data-product-image-preview', 'data-management-menu', 'data-premium-crown', 'data-print-used', 'data-print-image'];

  it('does not load the signed-in parts, which are chunks of their own', () => {
    const manifest = readClientManifest();
    const files = firstVisitFiles(manifest);
    // Also checks the names the loaders' modulepreload links use (server/part-preloads.server.ts).
    for (const part of Object.values(LAZY_PARTS)) {
      expect(manifest[part]?.isDynamicEntry, part).toBe(true);
      expect(files).not.toContain(`/${manifest[part].file}`);
    }
    for (const file of files) {
      const code = readFileSync(path.join('build/client', file), 'utf8');
      for (const marker of signedInMarkers) expect(code.includes(marker), `${file} names ${marker}`).toBe(false);
    }
  });

  it('holds neither Stripe.js nor any ad code (issue 21): the slots are empty reserved space until the cookie answer', () => {
    const files = firstVisitFiles(readClientManifest());
    const markers = ['js.stripe.com', 'confirmPayment', 'pagead2.googlesyndication.com', 'requestNonPersonalizedAds', 'data-ad-placeholder', 'adsbygoogle'];
    for (const file of files) {
      const code = readFileSync(path.join('build/client', file), 'utf8');
      for (const marker of markers) expect(code.includes(marker), `${file} names ${marker}`).toBe(false);
    }
  });

  /*
   * Issue 21: the first visit carries only the empty box of an ad slot (its heights are CSS);
   * what fills it and Google's script load later, only when ads are on and answered for.
   * Issue 25 put the small box into the shell (vite.config.ts, shellChunk): a request fewer
   * on a slow phone outweighs its ~250 bytes on pages without slots.
   */
  it('holds the ad slot in the shell, with no request of its own; its content and the ad script stay out of the first visit', () => {
    const manifest = readClientManifest();
    const files = firstVisitFiles(manifest);
    const withSlot = files.filter((file) => readFileSync(path.join('build/client', file), 'utf8').includes('data-ad-slot'));
    expect(withSlot).toHaveLength(1);
    expect(withSlot[0]).toMatch(/\/shell-[\w-]+\.js$/);
    expect(files.filter((file) => /\/(ad-content|adsense)-[\w-]+\.js$/.test(file))).toEqual([]);
    expect(files.some((file) => readFileSync(path.join('build/client', file), 'utf8').includes('pagead2.googlesyndication.com/pagead/js'))).toBe(false);
  });

  /*
   * Issue 21: the shell holds only what /calculator loads (vite.config.ts, shellChunk): the legal
   * pages' operator details wait in the "pages" chunk. And terser's files keep every licence
   * comment once, at the end (scripts/lib/vite-licence-comments.ts).
   */
  it('holds neither the legal pages’ operator details nor a licence comment twice', () => {
    const manifest = readClientManifest();
    const files = firstVisitFiles(manifest);
    for (const file of files) {
      const code = readFileSync(path.join('build/client', file), 'utf8');
      expect(code.includes('admin:legal.missing'), `${file} holds the operator details`).toBe(false);
      const licences = code.match(/\/\*[\s\S]*?\*\//g)?.filter((comment) => comment.includes('@license')) ?? [];
      expect(new Set(licences).size, file).toBe(licences.length);
      // All of them after the code: the file ends with its licence comments.
      if (licences.length) expect(code.trimEnd().endsWith(licences.at(-1)!), file).toBe(true);
    }
    const shell = files.find((file) => /\/shell-[\w-]+\.js$/.test(file))!;
    const shellCode = readFileSync(path.join('build/client', shell), 'utf8');
    for (const licence of ['@license React', '@remix-run/router v', 'React Router DOM v', '@license lucide-react']) expect(shellCode, licence).toContain(licence);
    const pages = Object.values(manifest).find((chunk) => chunk.name === 'pages');
    expect(pages && readFileSync(path.join('build/client', pages.file), 'utf8').includes('admin:legal.missing')).toBe(true);
  });
});
