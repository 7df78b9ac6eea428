import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One quotation style in every German text (issue 24 §2): „…“, as the library's toasts always had.
 * Project toasts used straight quotes ("Vase" wurde gespeichert) while library toasts used „…“.
 */
const LOCALES = path.resolve('public/locales/de');

function strings(value: unknown, at: string, into: [string, string][]) {
  if (typeof value === 'string') into.push([at, value]);
  else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) strings(inner, at ? `${at}.${key}` : key, into);
  return into;
}

describe('German texts', () => {
  const files = fs.readdirSync(LOCALES).filter((file) => file.endsWith('.json'));

  it.each(files)('%s quotes the German way', (file) => {
    const texts = strings(JSON.parse(fs.readFileSync(path.join(LOCALES, file), 'utf8')), '', []);
    const straight = texts.filter(([, text]) => text.includes('"') || /(^|[\s(])'[^']+'/.test(text));
    expect(straight.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });
});
