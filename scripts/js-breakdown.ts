/**
 * `JS_SOURCEMAP=1 npm run build && npx tsx scripts/js-breakdown.ts [/calculator|/]`:
 * what the files of a first visit hold, by source module, as minified bytes
 * (from the build's hidden source maps) and each module's share of the
 * file's gzip size (proportional). For finding what a first screen does not
 * need; `scripts/js-budget.ts` gives the totals. Such a build writes the
 * `.map` files beside the served scripts: analyse, then `npm run build` again
 * before serving or deploying it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CALCULATOR_ROUTES, firstVisitFiles, gzipSize, readClientManifest } from './lib/first-visit-js';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A source map's `mappings` (base64 VLQ): per generated line, its segments [column, source index?]. */
function decode(mappings: string): number[][][] {
  let source = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter(Boolean)
      .map((segment) => {
        const fields: number[] = [];
        let value = 0;
        let shift = 0;
        for (const char of segment) {
          const digit = BASE64.indexOf(char);
          value += (digit & 31) << shift;
          if (digit & 32) {
            shift += 5;
            continue;
          }
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
        column += fields[0];
        if (fields.length > 1) source += fields[1];
        return fields.length > 1 ? [column, source] : [column];
      });
  });
}

const ROUTES: Record<string, string[]> = {
  '/calculator': CALCULATOR_ROUTES,
  '/': ['app/root.tsx', 'app/routes/_public+/_index.tsx'],
};
const page = process.argv[2] ?? '/calculator';
const limit = Number(process.argv[3] ?? 40);
const files = firstVisitFiles(readClientManifest(), ROUTES[page]);

for (const url of files) {
  const file = path.join('build/client', url);
  const map = `${file}.map`;
  if (!existsSync(map)) {
    console.log(`${url}: no source map (build with JS_SOURCEMAP=1)`);
    continue;
  }
  const code = readFileSync(file, 'utf8');
  const { sources, mappings } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const bySource = new Map<string, number>();
  const decoded = decode(mappings);
  let attributed = 0;
  decoded.forEach((segments, lineIndex) => {
    const line = lines[lineIndex] ?? '';
    segments.forEach((segment, index) => {
      const end = index + 1 < segments.length ? segments[index + 1][0] : line.length;
      const bytes = Math.max(0, end - segment[0]);
      const source = segment.length > 1 ? sources[segment[1]].replace(/^.*?node_modules\//, 'npm:').replace(/^(\.\.\/)+/, '') : '(generated)';
      bySource.set(source, (bySource.get(source) ?? 0) + bytes);
      attributed += bytes;
    });
  });
  const gzip = gzipSize(url);
  console.log(`\n${url}: ${code.length} B minified, ${gzip} B gzip, ${sources.length} sources`);
  const rows = [...bySource.entries()].sort((a, b) => b[1] - a[1]);
  for (const [source, bytes] of rows.slice(0, limit)) {
    console.log(`  ${String(bytes).padStart(7)} B  ~${String(Math.round((bytes / attributed) * gzip)).padStart(6)} B gz  ${source}`);
  }
  if (rows.length > limit) console.log(`  ... ${rows.length - limit} more`);
}
