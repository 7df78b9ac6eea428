import { describe, expect, it } from 'vitest';
import { printTimeParts, readSlicerSummary, SLICER_HEAD_BYTES, type SlicerReadResult } from '~/slicer';
import { bambuGcode, bytes, curaGcode, griffinGcode, moves, prusaGcode, simplify3dGcode, zip } from '../fixtures/slicer/make';

function ok(result: SlicerReadResult) {
  if (!result.ok) throw new Error(`expected a summary, got ${JSON.stringify(result.error)}`);
  return result.summary;
}

describe('PrusaSlicer family plain G-code (prusa.ts)', () => {
  it('sums the grams of every extruder and reads the normal-mode time', async () => {
    const summary = ok(await readSlicerSummary(bytes(prusaGcode({ grams: '12.50, 7.25', time: '1d 2h 3m 4s', config: '; filament_type = PLA;PETG' }))));
    expect(summary).toMatchObject({ slicer: 'PrusaSlicer', slicerVersion: '2.7.1', filamentGrams: 19.75, printSeconds: 93784, warnings: [] });
    expect(summary.perExtruder).toEqual([
      { filamentGrams: 12.5, material: 'PLA' },
      { filamentGrams: 7.25, material: 'PETG' },
    ]);
  });

  it('leaves out extruders that used nothing', async () => {
    const summary = ok(await readSlicerSummary(bytes(prusaGcode({ grams: '3.68, 0.00', time: '1h 2m 3s' }))));
    expect(summary.filamentGrams).toBe(3.68);
    expect(summary.printSeconds).toBe(3723);
    expect(summary.perExtruder).toHaveLength(1);
  });

  it('falls back to [cm3] with each material’s density', async () => {
    const summary = ok(await readSlicerSummary(bytes(prusaGcode({ cm3: '10, 2', time: '30m', config: '; filament_type = PLA;PETG' }))));
    // 10 cm³ PLA × 1,24 + 2 cm³ PETG × 1,27
    expect(summary.filamentGrams).toBeCloseTo(14.94, 2);
    expect(summary.warnings).toEqual([{ code: 'weightFromVolume', params: { material: 'PLA', density: 1.24 } }]);
  });

  it('prefers the density the file states', async () => {
    const summary = ok(await readSlicerSummary(bytes(prusaGcode({ cm3: '10', time: '30m', config: '; filament_type = PETG\n; filament_density = 1.3' }))));
    expect(summary.filamentGrams).toBe(13);
  });

  it('falls back to [mm] with the diameter (1,75 mm unless the file says otherwise) and PLA when no material is named', async () => {
    const plain = ok(await readSlicerSummary(bytes(prusaGcode({ mm: '1000', time: '10m', config: '; layer_height = 0.2' }))));
    expect(plain.filamentGrams).toBe(2.98); // π·0,875²·1000 mm³ × 1,24 g/cm³
    expect(plain.warnings[0]).toEqual({ code: 'weightFromLength', params: { material: 'PLA', density: 1.24 } });
    const thick = ok(await readSlicerSummary(bytes(prusaGcode({ mm: '1000', time: '10m', config: '; filament_diameter = 2.85' }))));
    expect(thick.filamentGrams).toBe(7.91);
  });

  it('names SuperSlicer and OrcaSlicer and reads Orca’s end block', async () => {
    const superSlicer = ok(await readSlicerSummary(bytes(prusaGcode({ generator: 'SuperSlicer 2.5.59', grams: '5', time: '5m' }))));
    expect(superSlicer).toMatchObject({ slicer: 'SuperSlicer', slicerVersion: '2.5.59' });
    const orca = ok(
      await readSlicerSummary(bytes(prusaGcode({ generator: 'OrcaSlicer 2.2.0', grams: '20.3, 14.2', time: '2h 14m 0s', config: '; filament_type = PLA;PLA' }))),
    );
    expect(orca).toMatchObject({ slicer: 'OrcaSlicer', slicerVersion: '2.2.0', filamentGrams: 34.5, printSeconds: 8040 });
    expect(orca.perExtruder).toHaveLength(2);
  });

  it('reads the Bambu/Orca header and takes the total estimated time', async () => {
    const summary = ok(await readSlicerSummary(bytes(bambuGcode())));
    expect(summary).toMatchObject({ slicer: 'Bambu Studio', slicerVersion: '1.9.0.70', filamentGrams: 13.49, printSeconds: 5923 });
  });

  it('finds the summary at the very end of a large file from its first and last bytes only', async () => {
    const body = moves(400_000); // ≈ 13 MB between header and summary
    expect(body.length).toBeGreaterThan(3 * SLICER_HEAD_BYTES);
    const file = bytes(prusaGcode({ grams: '42.42', time: '3h 0m 1s', body }));
    const whole = ok(await readSlicerSummary(file));
    expect(whole).toMatchObject({ filamentGrams: 42.42, printSeconds: 10801 });
    // What the server keeps of an upload: 4 MB from each end, no random access.
    const sliced = ok(await readSlicerSummary({ size: file.length, head: file.subarray(0, SLICER_HEAD_BYTES), tail: file.subarray(file.length - SLICER_HEAD_BYTES) }));
    expect(sliced).toEqual(whole);
  });
});

describe('Cura / UltiMaker (cura.ts, ufp.ts)', () => {
  it('converts metres per extruder with 1,75 mm and PLA', async () => {
    const summary = ok(await readSlicerSummary(bytes(curaGcode({ filament: '2.5m, 1m' }))));
    expect(summary).toMatchObject({ slicer: 'UltiMaker Cura', slicerVersion: '5.6.0', printSeconds: 6666 });
    expect(summary.perExtruder.map((e) => e.filamentGrams)).toEqual([7.46, 2.98]);
    expect(summary.filamentGrams).toBe(10.44);
  });

  it('uses the file’s material diameter', async () => {
    const summary = ok(await readSlicerSummary(bytes(curaGcode({ diameter: '2.85' }))));
    expect(summary.filamentGrams).toBe(19.78);
  });

  it('reads the Griffin header (volume in mm³ per extruder)', async () => {
    const summary = ok(await readSlicerSummary(bytes(griffinGcode())));
    expect(summary).toMatchObject({ slicer: 'UltiMaker Cura', slicerVersion: '5.6.0', filamentGrams: 19.84, printSeconds: 7200 });
  });

  it('reads the G-code inside a .ufp package', async () => {
    const ufp = zip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: '_rels/.rels', data: '<Relationships/>' },
      { name: '3D/model.gcode', data: griffinGcode({ volumes: [10000], time: 3661 }) },
      { name: 'Metadata/thumbnail.png', data: new Uint8Array(64), store: true },
    ]);
    const summary = ok(await readSlicerSummary(ufp));
    expect(summary).toMatchObject({ filamentGrams: 12.4, printSeconds: 3661 });
  });
});

describe('Simplify3D (simplify3d.ts)', () => {
  it('reads build time and plastic weight', async () => {
    const summary = ok(await readSlicerSummary(bytes(simplify3dGcode())));
    expect(summary).toMatchObject({ slicer: 'Simplify3D', slicerVersion: '4.1.2', filamentGrams: 23.41, printSeconds: 7500 });
  });

  it('falls back to the plastic volume', async () => {
    const summary = ok(await readSlicerSummary(bytes(simplify3dGcode({ weight: '0', volume: '18194.54', time: '1 hour 1 minute' }))));
    expect(summary.filamentGrams).toBe(22.56);
    expect(summary.printSeconds).toBe(3660);
  });
});

describe('printTimeParts', () => {
  it('rounds up to whole minutes', () => {
    expect(printTimeParts(8040)).toEqual({ hours: 2, minutes: 14 });
    expect(printTimeParts(8041)).toEqual({ hours: 2, minutes: 15 });
    expect(printTimeParts(59)).toEqual({ hours: 0, minutes: 1 });
  });
});
