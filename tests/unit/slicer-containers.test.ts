import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readSlicerSummary, type SlicerReadResult } from '~/slicer';
import { bambuGcode, bgcode, bytes, modelFile, sliceInfo, zip } from '../fixtures/slicer/make';

function ok(result: SlicerReadResult) {
  if (!result.ok) throw new Error(`expected a summary, got ${JSON.stringify(result.error)}`);
  return result.summary;
}
function failure(result: SlicerReadResult) {
  if (result.ok) throw new Error('expected an error');
  return result.error;
}

const twoPlates = sliceInfo([
  { index: 1, prediction: 3600, weight: 10.5, filaments: [{ id: 1, type: 'PLA', grams: 10.5 }] },
  { index: 2, prediction: 1800, weight: 5.25, filaments: [{ id: 1, type: 'PLA', grams: 3.25 }, { id: 2, type: 'PETG', grams: 2 }] },
]);

describe('Bambu Studio / OrcaSlicer .gcode.3mf (bambu-3mf.ts)', () => {
  it('reads every plate from slice_info.config and sums them', async () => {
    const file = zip([
      { name: '3D/3dmodel.model', data: modelFile('OrcaSlicer-2.2.0') },
      { name: 'Metadata/plate_1.gcode', data: bambuGcode({ weight: '99' }) },
      { name: 'Metadata/plate_2.gcode', data: bambuGcode({ weight: '99' }) },
      { name: 'Metadata/slice_info.config', data: twoPlates },
    ]);
    const summary = ok(await readSlicerSummary(file));
    expect(summary).toMatchObject({ slicer: 'OrcaSlicer', slicerVersion: '2.2.0', filamentGrams: 15.75, printSeconds: 5400 });
    expect(summary.plates).toEqual([
      { index: 1, filamentGrams: 10.5, printSeconds: 3600 },
      { index: 2, filamentGrams: 5.25, printSeconds: 1800 },
    ]);
    expect(summary.perExtruder).toEqual([
      // The colour of slice_info's <filament color="…"> (issue 23: the library match).
      { filamentGrams: 13.75, material: 'PLA', color: '#FFFFFF' },
      { filamentGrams: 2, material: 'PETG', color: '#FFFFFF' },
    ]);
  });

  it('falls back to the plate’s G-code header when slice_info lacks the figures', async () => {
    const file = zip([
      { name: 'Metadata/slice_info.config', data: sliceInfo([{ index: 1 }]) },
      { name: 'Metadata/plate_1.gcode', data: bambuGcode() },
    ]);
    const summary = ok(await readSlicerSummary(file));
    expect(summary).toMatchObject({ slicer: 'Bambu Studio', slicerVersion: '1.9.0.70', filamentGrams: 13.49, printSeconds: 5923 });
    expect(summary.plates).toBeUndefined();
  });

  it('reads plates that only have G-code (stored, not deflated)', async () => {
    const file = zip([
      { name: 'Metadata/plate_1.gcode', data: bambuGcode({ weight: '4', total: '1h' }), store: true },
      { name: 'Metadata/plate_2.gcode', data: bambuGcode({ weight: '6', total: '30m' }) },
    ]);
    const summary = ok(await readSlicerSummary(file));
    expect(summary).toMatchObject({ filamentGrams: 10, printSeconds: 5400 });
    expect(summary.plates).toHaveLength(2);
  });

  it('says an unsliced project must be sliced first', async () => {
    const file = zip([
      { name: '3D/3dmodel.model', data: modelFile('BambuStudio-01.09.00.70') },
      { name: 'Metadata/model_settings.config', data: '<config/>' },
    ]);
    expect(failure(await readSlicerSummary(file)).code).toBe('projectNotSliced');
  });

  it('refuses a truncated ZIP', async () => {
    const file = zip([
      { name: 'Metadata/slice_info.config', data: twoPlates },
      { name: 'Metadata/plate_1.gcode', data: bambuGcode() },
    ]);
    expect(failure(await readSlicerSummary(file.subarray(0, Math.floor(file.length * 0.6)))).code).toBe('zipDamaged');
  });

  it('reads an entry in the middle of a large archive only with random access', async () => {
    const filler = () => ({ name: `Metadata/pick_${Math.random()}.png`, data: randomBytes(6 * 1024 * 1024), store: true });
    const file = zip([filler(), { name: 'Metadata/slice_info.config', data: twoPlates }, filler()]);
    const head = file.subarray(0, 4 * 1024 * 1024);
    const tail = file.subarray(file.length - 4 * 1024 * 1024);
    expect(failure(await readSlicerSummary({ size: file.length, head, tail })).code).toBe('zipPartUnavailable');
    const withRead = await readSlicerSummary({ size: file.length, head, tail, read: async (o, l) => file.subarray(o, o + l) });
    expect(ok(withRead).filamentGrams).toBe(15.75);
  });

  it('says a ZIP without G-code is not a slicer file', async () => {
    expect(failure(await readSlicerSummary(zip([{ name: 'readme.txt', data: 'hallo' }]))).code).toBe('zipNoGcode');
  });
});

describe('PrusaSlicer binary G-code (bgcode.ts)', () => {
  const print = 'filament used [mm]=1000.00\nfilament used [g]=3.68\nestimated printing time (normal mode)=1h 2m 3s\n';

  it('reads the print metadata block', async () => {
    const summary = ok(await readSlicerSummary(bgcode({ print })));
    expect(summary).toMatchObject({ slicer: 'PrusaSlicer', slicerVersion: '2.7.1', filamentGrams: 3.68, printSeconds: 3723 });
    expect(summary.perExtruder).toEqual([{ filamentGrams: 3.68, material: 'PLA' }]);
  });

  it('reads a deflate-compressed block, without checksums too', async () => {
    const summary = ok(await readSlicerSummary(bgcode({ print, printCompression: 1, checksums: false })));
    expect(summary.printSeconds).toBe(3723);
  });

  it('computes grams from the length with the slicer metadata’s density', async () => {
    const summary = ok(
      await readSlicerSummary(bgcode({ print: 'filament used [mm]=1000\nestimated printing time (normal mode)=10m\n', slicer: 'filament_density=1.27\nfilament_diameter=1.75\n', printer: 'filament_type=PETG\n' })),
    );
    expect(summary.filamentGrams).toBe(3.05); // 2,405 cm³ × 1,27
  });

  it('names an unsupported compression and suggests plain G-code', async () => {
    const error = failure(await readSlicerSummary(bgcode({ print, printCompression: 3 })));
    expect(error).toEqual({ code: 'bgcodeCompression', params: { method: 'Heatshrink 12,4' } });
  });

  it('refuses a cut-off file', async () => {
    const file = bgcode({ print });
    expect(failure(await readSlicerSummary(file.subarray(0, 40))).code).toBe('bgcodeDamaged');
  });
});

describe('files that are not a sliced print', () => {
  it.each([
    ['an empty file', new Uint8Array(), 'empty'],
    ['garbage bytes', new Uint8Array(randomBytes(5000)), 'notSlicerFile'],
    ['a renamed PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), 'image'],
    ['a renamed JPEG', new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]), 'image'],
    ['a text that is no G-code', bytes('Liebe Grüße\nvom Drucker\n'), 'notSlicerFile'],
    ['G-code without a summary', bytes('G28\nG1 X10 Y10 E1\nG1 X20 Y10 E2\n'), 'noSummary'],
    ['G-code with grams but no time', bytes('; generated by PrusaSlicer 2.7.1\nG28\n; filament used [g] = 3.5\n'), 'noTime'],
    ['G-code with a time but no grams', bytes('; generated by PrusaSlicer 2.7.1\nG28\n; estimated printing time (normal mode) = 1h\n'), 'noWeight'],
  ])('%s', async (_name, input, code) => {
    expect(failure(await readSlicerSummary(input)).code).toBe(code);
  });

  it('refuses a file over 1 GB without reading it', async () => {
    const head = bytes('; generated by PrusaSlicer 2.7.1\n');
    expect(failure(await readSlicerSummary({ size: 2 * 1024 ** 3, head, tail: head })).code).toBe('tooLarge');
  });
});

describe('messages', () => {
  it('every error and warning code has a German text', async () => {
    const { readFileSync } = await import('node:fs');
    const { SLICER_ERROR_CODES } = await import('~/slicer');
    const texts = JSON.parse(readFileSync('public/locales/de/calculator.json', 'utf8')).slicer;
    for (const code of [...SLICER_ERROR_CODES, 'missingFile', 'readFailed']) expect(texts.errors[code], code).toMatch(/[a-zäöü]{3}/);
    for (const code of ['weightFromVolume', 'weightFromLength']) expect(texts.warnings[code], code).toContain('{{density}}');
    expect(texts.errors.bgcodeCompression).toContain('{{method}}');
  });
});
