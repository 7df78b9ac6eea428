import { describe, expect, it } from 'vitest';
import { readSlicerSummary, type SlicerReadResult } from '~/slicer';
import { importInfoFromSummary, importNoticeFromParams, importNoticeToParams } from '~/slicer/import-link';
import { buildImportView } from '~/slicer/import-view';
import { bambuGcode, bytes, modelFile, orcaMultiMaterialGcode, sliceInfo, zip } from '../fixtures/slicer/make';

/*
 * Issue 23 §3: purge and wipe-tower filament is bought filament. PrusaSlicer reports the wipe
 * tower's grams; OrcaSlicer and Bambu Studio report none, only how much they flush per filament
 * change (`flush_volumes_matrix` × `flush_multiplier`, mm³) and how many changes the print has
 * (`total filament change`). Their grams per filament already hold the flushed filament, so the
 * weight stays the file's; the notice names the purge, as an estimate where it is one.
 */

function ok(result: SlicerReadResult) {
  if (!result.ok) throw new Error(`expected a summary, got ${JSON.stringify(result.error)}`);
  return result.summary;
}

const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? JSON.stringify(options) : ''}`;

describe('purge of OrcaSlicer and Bambu Studio files', () => {
  it('OrcaSlicer: changes × the mean flush volume between the used filaments × multiplier × density', async () => {
    // Two of four filaments used (slots 1 and 3): their flush volumes 300 (1→3) and 500 (3→1) mm³.
    const file = orcaMultiMaterialGcode({
      grams: '20.00, 0.00, 10.00, 0.00',
      changes: 10,
      multiplier: '1.2',
      types: 'PLA;PLA;PLA;PLA',
      matrix: '0,100,300,100, 100,0,100,100, 500,100,0,100, 100,100,100,0',
    });
    const summary = ok(await readSlicerSummary(bytes(file)));
    // 10 × 400 mm³ × 1.2 = 4,800 mm³ = 4.8 cm³ × 1.24 g/cm³
    expect(summary.purgeGrams).toBe(5.95);
    expect(summary.purgeEstimate).toEqual({ changes: 10 });
    // The weight stays the file's: its grams per filament hold what was flushed.
    expect(summary.filamentGrams).toBe(30);
    const info = importInfoFromSummary(summary);
    expect(buildImportView(info, t, '').purge).toBe('filament-lines:slicerPurgeEstimate{"grams":"6","count":10}');
    // The estimate travels in the no-JS import link.
    const back = importNoticeFromParams(importNoticeToParams({ kind: 'info', info }, new URLSearchParams()));
    expect(back?.kind === 'info' && [back.info.purge, back.info.purgeChanges]).toEqual([5.95, 10]);
  });

  it('Bambu Studio (AMS): the header figures, the footer count and the config block flush volumes', async () => {
    const file = bambuGcode({
      weight: '12.00,4.00',
      extra: [
        '; CONFIG_BLOCK_START',
        '; filament_type = PLA;PETG',
        '; flush_multiplier = 1',
        '; flush_volumes_matrix = 0,280,160,0',
        '; CONFIG_BLOCK_END',
        '; total filament change = 3',
      ].join('\n'),
    });
    const summary = ok(await readSlicerSummary(bytes(file)));
    // 3 × (280 + 160) / 2 mm³ = 660 mm³ × mean density (1.26 + 1.24) / 2
    expect(summary.perExtruder.map((e) => e.filamentGrams)).toEqual([12, 4]);
    expect(summary.purgeGrams).toBe(0.83);
    expect(buildImportView(importInfoFromSummary(summary), t, '').purge).toBe('filament-lines:slicerPurgeEstimate{"grams":"0,8","count":3}');
  });

  it('a wipe tower the file reports wins over the estimate and is no estimate', async () => {
    const summary = ok(await readSlicerSummary(bytes(orcaMultiMaterialGcode({ grams: '20, 10', changes: 10, matrix: '0,300,500,0', wipeTower: '4.20' }))));
    expect(summary.purgeGrams).toBe(4.2);
    expect(summary.purgeEstimate).toBeUndefined();
    expect(buildImportView(importInfoFromSummary(summary), t, '').purge).toBe('filament-lines:slicerPurge{"grams":"4,2"}');
  });

  it('no estimate without changes, without a square matrix or with one filament', async () => {
    for (const file of [
      orcaMultiMaterialGcode({ grams: '20, 10', matrix: '0,300,500,0' }),
      orcaMultiMaterialGcode({ grams: '20, 10', changes: 0, matrix: '0,300,500,0' }),
      orcaMultiMaterialGcode({ grams: '20, 10', changes: 4, matrix: '0,300,500' }),
      orcaMultiMaterialGcode({ grams: '20, 0', changes: 4, matrix: '0,300,500,0' }),
    ]) {
      const summary = ok(await readSlicerSummary(bytes(file)));
      expect(summary.purgeGrams).toBeUndefined();
      expect(buildImportView(importInfoFromSummary(summary), t, '').purge).toBeUndefined();
    }
  });
});

describe('purge of a .gcode.3mf (Bambu Studio, OrcaSlicer)', () => {
  const project = (filaments: { id: number; type: string; grams: number }[]) =>
    zip([
      { name: '3D/3dmodel.model', data: modelFile('BambuStudio-01.09.00.70') },
      { name: 'Metadata/slice_info.config', data: sliceInfo([{ index: 1, prediction: 3600, weight: filaments.reduce((sum, f) => sum + f.grams, 0), filaments }]) },
    ]);

  it('several filaments: no change count in its metadata, so no purge; the notice says it is not included, also after the link', async () => {
    const summary = ok(await readSlicerSummary(project([{ id: 1, type: 'PLA', grams: 6 }, { id: 2, type: 'PETG', grams: 3 }])));
    expect(summary.purgeGrams).toBeUndefined();
    expect(summary.purgeUnknown).toBe(true);
    // The weight is the file's (slice_info's grams per filament).
    expect(summary.perExtruder.map((e) => e.filamentGrams)).toEqual([6, 3]);
    const info = importInfoFromSummary(summary);
    expect(buildImportView(info, t, '').purge).toBe('filament-lines:slicerPurgeUnknown');
    const params = importNoticeToParams({ kind: 'info', info }, new URLSearchParams());
    expect(params.get('slicerPurgeUnknown')).toBe('1');
    const back = importNoticeFromParams(params);
    expect(back?.kind === 'info' && buildImportView(back.info, t, '').purge).toBe('filament-lines:slicerPurgeUnknown');
    // A link's own value counts only as '1', and never beside a purge figure.
    const odd = importNoticeFromParams(new URLSearchParams({ slicer: 'X', slicerGrams: '1', slicerSeconds: '1', slicerPurgeUnknown: 'ja' }));
    expect(odd?.kind === 'info' && odd.info.purgeUnknown).toBeFalsy();
    const both = importNoticeFromParams(new URLSearchParams({ slicer: 'X', slicerGrams: '1', slicerSeconds: '1', slicerPurge: '2', slicerPurgeUnknown: '1' }));
    expect(both?.kind === 'info' && both.info.purgeUnknown).toBeFalsy();
  });

  it('one filament: nothing to purge, nothing said', async () => {
    const summary = ok(await readSlicerSummary(project([{ id: 1, type: 'PLA', grams: 6 }])));
    expect(summary.purgeUnknown).toBeUndefined();
    expect(buildImportView(importInfoFromSummary(summary), t, '').purge).toBeUndefined();
  });
});
