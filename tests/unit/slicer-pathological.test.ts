import { describe, expect, it } from 'vitest';
import { readSlicerSummary } from '~/slicer';
import { collectComments, parseDuration, parseNumber, parseNumberList, splitList } from '~/slicer/gcode-text';
import { normalizeMaterial } from '~/slicer/materials';
import { cleanVersion } from '~/slicer/summary';
import { xmlTags } from '~/slicer/xml-tags';
import { isNumberInProgress, parseGermanNumber } from '~/lib/parse-number';
import { gcode, hostileInputs, modelFile, sliceInfo } from '../fixtures/slicer/hostile-inputs';

/**
 * Issue 18 §1: inputs shaped against each pattern in app/slicer/ and the German number parsers
 * (tests/fixtures/slicer/hostile-inputs.ts). Each was quadratic (or would be, unbounded) somewhere.
 *
 * No timing assert of the real figures here (they depend on the machine's load): the linear code
 * answers each in a few milliseconds (`npx tsx scripts/bench-slicer-patterns.ts` prints each input's
 * time at its size and at 8×, and the growth between them), the quadratic versions needed 17 s to
 * minutes for these sizes (37 s for the first one, 115 s for the unclosed plates). So the ceiling is
 * far from both: 2 s fails only when a pattern has gone quadratic again, never on a busy machine.
 */
const CEILING_MS = 2_000;
const inputs = hostileInputs();
const encoder = new TextEncoder();

function within<T>(label: string, run: () => T): T {
  const started = performance.now();
  const result = run();
  const ms = performance.now() - started;
  expect(ms, `${label}: ${ms.toFixed(1)} ms (a pattern gone quadratic?)`).toBeLessThan(CEILING_MS);
  return result;
}

async function withinAsync<T>(label: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  expect(ms, `${label}: ${ms.toFixed(1)} ms (a pattern gone quadratic?)`).toBeLessThan(CEILING_MS);
  return result;
}

describe('slicer readers stay linear on hostile input', () => {
  it('a print time of 120,000 digits and an x (was 37.6 s)', async () => {
    const result = await withinAsync('G-code with long time', () => readSlicerSummary(gcode(inputs.longPrintTime)));
    expect(result.ok).toBe(false);
  });

  it.each(inputs.durations)('parseDuration: %s', (_label, text) => {
    within(`parseDuration ${_label}`, () => parseDuration(text));
  });

  it('parseDuration still reads what slicers write', () => {
    expect(parseDuration('1d 2h 3m 4s')).toBe(93784);
    expect(parseDuration('2 hours 5 minutes')).toBe(7500);
    expect(parseDuration('1.5h')).toBe(5400);
    expect(parseDuration('01:02:03')).toBe(3723);
    expect(parseDuration('6666')).toBe(6666);
    expect(parseDuration('45s')).toBe(45);
    expect(parseDuration('12x 3h')).toBe(10800);
    expect(parseDuration('1.2.3h')).toBe(8280);
    expect(parseDuration('1hx 2m')).toBe(120);
    expect(parseDuration('nichts')).toBeUndefined();
  });

  it.each(inputs.numbers)('parseNumber and lists: %s', (_label, text) => {
    within(`parseNumber ${_label}`, () => parseNumber(text));
    within(`parseNumberList ${_label}`, () => parseNumberList(text));
    within(`splitList ${_label}`, () => splitList(`${text},`.repeat(2)));
  });

  it('a comment line of megabytes is cut before any pattern sees it', () => {
    const comments = within('collectComments', () => collectComments([encoder.encode(inputs.megabyteComment)]));
    expect(comments.values.get('filament used [g]')!.length).toBeLessThanOrEqual(4096);
  });

  it.each(inputs.gcodeTexts)('G-code text: %s', async (_label, text) => {
    await withinAsync(`G-code ${_label}`, () => readSlicerSummary(gcode(text)));
  });

  it.each(inputs.materials)('normalizeMaterial: %s', (_label, text) => {
    within(`normalizeMaterial ${_label}`, () => normalizeMaterial(text));
  });

  it.each(inputs.versions)('cleanVersion: %s', (_label, text) => {
    within(`cleanVersion ${_label}`, () => cleanVersion(text));
  });
});

describe('Bambu/Orca project configs stay linear', () => {
  it('200,000 unclosed <plate> in a file of about 2 KB (was 115 s)', async () => {
    const file = sliceInfo(inputs.unclosedPlates);
    expect(file.length).toBeLessThan(4096);
    const result = await withinAsync('unclosed plates', () => readSlicerSummary(file));
    expect(result).toEqual({ ok: false, error: { code: 'projectNotSliced' } });
  });

  it.each(inputs.sliceInfos)('slice_info.config: %s', async (_label, body) => {
    await withinAsync(`slice_info ${_label}`, () => readSlicerSummary(sliceInfo(body)));
  });

  it('a model file whose application name never ends', async () => {
    const result = await withinAsync('model application', () => readSlicerSummary(modelFile(inputs.modelApplication)));
    expect(result.ok).toBe(true);
  });

  it('the tag scanner reads attributes in any order and quote style', () => {
    const tags = [...xmlTags(`<?xml version="1.0"?><!-- x --><plate><metadata value='7' key="index"/><filament id="2" type="PETG" used_g="1.5"/></plate>`)];
    expect(tags.map((tag) => `${tag.closing ? '/' : ''}${tag.name}${tag.selfClosing ? '/' : ''}`)).toEqual(['plate', 'metadata/', 'filament/', '/plate']);
    expect(Object.fromEntries(tags[1].attributes)).toEqual({ value: '7', key: 'index' });
    expect(tags[2].attributes.get('used_g')).toBe('1.5');
  });
});

describe('German number parsers stay linear', () => {
  it.each(inputs.germanNumbers)('%s', (_label, text) => {
    within(`parseGermanNumber ${_label}`, () => parseGermanNumber(text));
    within(`isNumberInProgress ${_label}`, () => isNumberInProgress(text));
  });
});
