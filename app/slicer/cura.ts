/**
 * Cura / UltiMaker Cura G-code (also the G-code inside a `.ufp`).
 *
 * Lines read:
 *   ;Generated with Cura_SteamEngine 5.6.0
 *   ;TIME:6666                                   (seconds)
 *   ;Filament used: 1.23456m, 0.5m               (metres, one per extruder)
 *   ;MATERIAL_DIAMETER:2.85 / ;EXTRUDER_TRAIN.0.MATERIAL.DIAMETER:2.85   (else 1,75 mm)
 * Griffin header (UltiMaker printers, between ;START_OF_HEADER and ;END_OF_HEADER):
 *   ;GENERATOR.NAME:Cura_SteamEngine   ;GENERATOR.VERSION:5.6.0
 *   ;PRINT.TIME:6666
 *   ;EXTRUDER_TRAIN.0.MATERIAL.VOLUME_USED:12345   (mm³, one per extruder)
 * Cura names no material, so the weight uses PLA's density.
 */
import type { GcodeComments } from './gcode-text';
import { parseDuration, parseNumber, splitList } from './gcode-text';
import { DEFAULT_DIAMETER_MM, DEFAULT_MATERIAL, densityFor, gramsFromCubicCentimetres, gramsFromLength } from './materials';
import { cleanVersion, finishSummary } from './summary';
import type { SlicerExtruder, SlicerSummary, SlicerWarning } from './types';

const MAX_EXTRUDERS = 16;

export function hasCuraKeys(comments: GcodeComments): boolean {
  const v = comments.values;
  return v.has('print.time') || v.has('extruder_train.0.material.volume_used') || (v.has('time') && v.has('flavor')) || v.has('filament used');
}

export function isCura(comments: GcodeComments): boolean {
  return (
    comments.values.get('generator.name')?.toLowerCase().includes('cura') === true ||
    comments.firstLines.some((line) => /^generated with cura/i.test(line))
  );
}

export function readCura(comments: GcodeComments): SlicerSummary {
  const v = comments.values;
  const density = densityFor(DEFAULT_MATERIAL);
  const warnings: SlicerWarning[] = [];
  let extruders: SlicerExtruder[] = [];

  const volumes: number[] = [];
  for (let i = 0; i < MAX_EXTRUDERS; i++) {
    const mm3 = parseNumber(v.get(`extruder_train.${i}.material.volume_used`));
    if (mm3 === undefined) break;
    volumes.push(mm3);
  }
  if (volumes.some((mm3) => mm3 > 0)) {
    extruders = volumes.map((mm3) => ({ filamentGrams: gramsFromCubicCentimetres(mm3 / 1000, density) }));
    warnings.push({ code: 'weightFromVolume', params: { material: DEFAULT_MATERIAL, density } });
  } else {
    const metres = splitList(v.get('filament used')).map((part) => parseNumber(part) ?? 0);
    const sharedDiameter = parseNumber(v.get('material_diameter'));
    extruders = metres.map((m, i) => {
      const diameter = parseNumber(v.get(`extruder_train.${i}.material.diameter`)) ?? sharedDiameter ?? DEFAULT_DIAMETER_MM;
      return { filamentGrams: gramsFromLength(m * 1000, diameter, density) };
    });
    if (metres.some((m) => m > 0)) warnings.push({ code: 'weightFromLength', params: { material: DEFAULT_MATERIAL, density } });
  }

  const versionLine = comments.firstLines.map((line) => /^generated with cura_steamengine\s+(\S+)/i.exec(line)).find(Boolean);
  return finishSummary({
    slicer: isCura(comments) ? 'UltiMaker Cura' : 'G-Code',
    slicerVersion: cleanVersion(v.get('generator.version') ?? versionLine?.[1]),
    extruders,
    printSeconds: parseDuration(v.get('print.time') ?? v.get('time')),
    warnings,
  });
}
