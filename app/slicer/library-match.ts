/**
 * Issue 23 §3: after a slicer import (several filaments, or one whose material the file names), each line takes the
 * seller's library filament when exactly one ACTIVE filament of theirs matches it:
 * the same material and, where the file names a colour, the same colour. When
 * several match, the brand the file names (`filament_vendor`) may narrow them to
 * one. Several or none: the line keeps the form's price and the notice says so.
 *
 * Browser-safe and small: the lazily loaded reader chunk (slicer/browser.ts), the
 * notice (import-view.ts) and the no-JS upload route share it.
 *
 * Colours: files give `#RRGGBB` (Bambu Studio, Orca, PrusaSlicer `filament_colour`,
 * Bambu's slice_info `color`); the library's colour is the seller's free text
 * ("Weiß", "Dunkelblau", "#1A1A1A"). Both are reduced to a colour family (white,
 * black, grey, red, …): a hex code in the text is classified like the file's, else
 * the text's German or English colour words count. A library filament whose colour
 * says nothing we know is not excluded by colour (its colour is not known).
 */
import { normalizeMaterial } from './materials';

/** What a match needs of a library filament: the filament picker's item (calculator/pickers.ts). */
export type MatchableFilament = { id: string; name: string } & Record<string, string | number>;

export type SlicerLineFacts = { material?: string; color?: string; vendor?: string };

export type LineMatch =
  | { kind: 'chosen'; id: string; name: string; pricePerKg: number }
  | { kind: 'several'; count: number }
  | { kind: 'none' };

export type ColourFamily = 'white' | 'black' | 'grey' | 'red' | 'orange' | 'yellow' | 'green' | 'blue' | 'purple' | 'pink' | 'brown';

/** Words (German and English, lower case) that name a family; a word counts at the start or end of a word of the text ("Dunkelblau", "Rotbraun"). */
const COLOUR_WORDS: Record<ColourFamily, readonly string[]> = {
  white: ['weiß', 'weiss', 'white'],
  black: ['schwarz', 'black'],
  grey: ['grau', 'grey', 'gray', 'silber', 'silver', 'anthrazit'],
  red: ['rot', 'red', 'bordeaux', 'weinrot'],
  orange: ['orange'],
  yellow: ['gelb', 'yellow', 'gold'],
  green: ['grün', 'gruen', 'green', 'oliv', 'olive', 'mint'],
  blue: ['blau', 'blue', 'türkis', 'tuerkis', 'turquoise', 'cyan', 'navy', 'petrol'],
  purple: ['lila', 'violett', 'violet', 'purple', 'flieder'],
  pink: ['pink', 'rosa', 'rose', 'magenta'],
  brown: ['braun', 'brown', 'holz', 'wood', 'schoko', 'bronze', 'beige'],
};

const FAMILIES = Object.keys(COLOUR_WORDS) as ColourFamily[];

/** `#RRGGBB` or `#RRGGBBAA` (Bambu's RGBA), any case → `#RRGGBB` upper case; anything else undefined. */
export function normalizeHexColour(text: string | undefined): string | undefined {
  const match = /^\s*"?#?([0-9a-f]{6})(?:[0-9a-f]{2})?"?\s*$/i.exec(text ?? '');
  return match ? `#${match[1].toUpperCase()}` : undefined;
}

/** The family of an `#RRGGBB` colour, by lightness, saturation and hue. */
export function colourFamilyOfHex(hex: string): ColourFamily | undefined {
  const value = normalizeHexColour(hex);
  if (!value) return undefined;
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(value.slice(at, at + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  if (lightness >= 0.9) return 'white';
  if (lightness <= 0.12) return 'black';
  if (saturation < 0.15 || chroma < 0.08) return lightness >= 0.8 ? 'white' : lightness <= 0.2 ? 'black' : 'grey';
  let hue = 0;
  if (max === r) hue = ((g - b) / chroma) % 6;
  else if (max === g) hue = (b - r) / chroma + 2;
  else hue = (r - g) / chroma + 4;
  hue = (hue * 60 + 360) % 360;
  // Light reds are pink (Bambu "Pink" #F55A74); dull or dark oranges and yellows are brown or beige.
  if (hue < 10 || hue >= 330) return lightness >= 0.6 || (hue >= 330 && hue < 345) ? 'pink' : 'red';
  if (hue < 15) return 'red';
  if (hue < 70 && (saturation < 0.5 || lightness < 0.3)) return 'brown';
  if (hue < 45) return 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 165) return 'green';
  if (hue < 250) return 'blue';
  if (hue < 290) return 'purple';
  return 'pink';
}

/** The families a library colour text names (none when it names no colour we know). */
export function colourFamiliesOfText(text: string | undefined): Set<ColourFamily> {
  const families = new Set<ColourFamily>();
  if (!text) return families;
  for (const hex of text.match(/#[0-9a-f]{6}\b/gi) ?? []) {
    const family = colourFamilyOfHex(hex);
    if (family) families.add(family);
  }
  const words = text.toLowerCase().split(/[^a-zäöüß]+/).filter(Boolean);
  for (const family of FAMILIES) {
    if (COLOUR_WORDS[family].some((colour) => words.some((word) => word === colour || (word.length > colour.length + 2 && (word.startsWith(colour) || word.endsWith(colour)))))) {
      families.add(family);
    }
  }
  return families;
}

const text = (value: string | number | undefined) => (typeof value === 'string' ? value.trim() : '');

/** "Generic" and the like name no brand. */
function brandOf(value: string | undefined): string {
  const brand = (value ?? '').trim().toLowerCase();
  return brand === '' || brand === 'generic' || brand === 'default' ? '' : brand;
}

/** Which of the library's filaments fit one imported line. */
export function matchLine(line: SlicerLineFacts, library: readonly MatchableFilament[]): LineMatch {
  const material = normalizeMaterial(line.material);
  if (!material) return { kind: 'none' };
  const family = line.color ? colourFamilyOfHex(line.color) : undefined;
  let candidates = library.filter((item) => {
    if (normalizeMaterial(text(item.material)) !== material) return false;
    if (!family) return true;
    const named = colourFamiliesOfText(text(item.color));
    return named.size === 0 || named.has(family);
  });
  // Only an exact colour beats a colour not known: a white PLA wins over a PLA without colour.
  if (family && candidates.length > 1) {
    const coloured = candidates.filter((item) => colourFamiliesOfText(text(item.color)).has(family));
    if (coloured.length > 0) candidates = coloured;
  }
  const vendor = brandOf(line.vendor);
  if (vendor && candidates.length > 1) {
    const sameBrand = candidates.filter((item) => {
      const brand = brandOf(text(item.brand));
      return brand !== '' && (brand.includes(vendor) || vendor.includes(brand));
    });
    if (sameBrand.length > 0) candidates = sameBrand;
  }
  if (candidates.length === 1) {
    const [item] = candidates;
    return { kind: 'chosen', id: item.id, name: item.name, pricePerKg: Number(item.pricePerKg) };
  }
  return candidates.length === 0 ? { kind: 'none' } : { kind: 'several', count: candidates.length };
}

/**
 * One match per imported line; null without a library (a visitor) or without lines to match.
 * A one-filament import is matched too (its line 1), when the file names its material.
 */
export function matchLines(lines: readonly SlicerLineFacts[], library: readonly MatchableFilament[] | null | undefined): LineMatch[] | null {
  if (!library || !needsLibrary(lines)) return null;
  return lines.map((line) => matchLine(line, library));
}

/** Whether an import's lines can be matched at all: several lines, or one whose material the file names (else no library read is needed). */
export function needsLibrary(lines: readonly SlicerLineFacts[]): boolean {
  return lines.length > 1 || (lines.length === 1 && Boolean(lines[0].material));
}
