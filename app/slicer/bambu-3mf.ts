/**
 * Bambu Studio / OrcaSlicer project exports (`.gcode.3mf`, a ZIP).
 *
 * Read:
 *   Metadata/slice_info.config, per <plate>:
 *     <metadata key="index" value="1"/> <metadata key="prediction" value="5528"/> (s)
 *     <metadata key="weight" value="16.84"/> (g)
 *     <filament id="1" type="PLA" color="#FFFFFF" used_g="16.84" …/>  (colour: issue 23's library match)
 *   and <header_item key="X-BBL-Client-Version" value="01.09.00.70"/>;
 *   Metadata/plate_N.gcode (its header, see prusa.ts) when a plate lacks prediction or weight;
 *   3D/3dmodel.model's <metadata name="Application">OrcaSlicer-2.2.0</metadata> for the slicer's name.
 * A project with neither figures nor plate G-code has not been sliced yet.
 */
import { ByteSource } from './bytes';
import { readGcodeBytes } from './gcode';
import { wholeLines } from './gcode-text';
import { normalizeHexColour } from './library-match';
import { normalizeMaterial, roundGrams } from './materials';
import { cleanVersion } from './summary';
import { SLICER_HEAD_BYTES, SlicerReadError, type SlicerExtruder, type SlicerPlate, type SlicerSummary, type SlicerWarning } from './types';
import { xmlTags } from './xml-tags';
import { readZipEntry, type ZipEntry } from './zip';

const SLICE_INFO = 'Metadata/slice_info.config';
const PLATE_GCODE = /^Metadata\/plate_(\d+)\.gcode$/;
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export function is3mf(entries: ZipEntry[]): boolean {
  return entries.some((entry) => entry.name === '3D/3dmodel.model' || entry.name === SLICE_INFO || PLATE_GCODE.test(entry.name));
}

type PlateInfo = { index: number; seconds?: number; grams?: number; filaments: { id: string; grams: number; material?: string; color?: string }[] };

export async function read3mf(source: ByteSource, entries: ZipEntry[]): Promise<SlicerSummary> {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const decoder = new TextDecoder();
  const sliceInfoEntry = byName.get(SLICE_INFO);
  const sliceInfo = sliceInfoEntry ? decoder.decode(await readZipEntry(source, sliceInfoEntry, MAX_CONFIG_BYTES)) : '';
  const infos = parsePlates(sliceInfo);
  // Plates that only have G-code (no slice_info, or not listed there).
  const listed = new Set(infos.map((info) => info.index));
  for (const entry of entries) {
    const match = PLATE_GCODE.exec(entry.name);
    if (match && !listed.has(Number(match[1])) && infos.length < MAX_PLATES) {
      listed.add(Number(match[1]));
      infos.push({ index: Number(match[1]), filaments: [] });
    }
  }
  infos.sort((a, b) => a.index - b.index);

  const plates: SlicerPlate[] = [];
  const extruders = new Map<string, SlicerExtruder>();
  const warnings: SlicerWarning[] = [];
  let gcodeIdentity: { slicer: string; version: string | null } | undefined;
  for (const info of infos) {
    let { seconds, grams } = info;
    let filaments = info.filaments;
    if (!(seconds && seconds > 0 && grams && grams > 0)) {
      const gcode = byName.get(`Metadata/plate_${info.index}.gcode`);
      if (!gcode) continue;
      const head = await readZipEntry(source, gcode, SLICER_HEAD_BYTES);
      const summary = readGcodeBytes(wholeLines(head, new Uint8Array(), Math.max(gcode.size, head.length)));
      seconds = summary.printSeconds;
      grams = summary.filamentGrams;
      gcodeIdentity ??= { slicer: summary.slicer, version: summary.slicerVersion };
      for (const warning of summary.warnings) if (!warnings.some((w) => w.code === warning.code)) warnings.push(warning);
      if (filaments.length === 0) filaments = summary.perExtruder.map((e, i) => ({ id: String(i + 1), grams: e.filamentGrams, material: e.material, color: e.color }));
    }
    plates.push({ index: info.index, filamentGrams: roundGrams(grams), printSeconds: Math.round(seconds) });
    for (const filament of filaments) {
      const current = extruders.get(filament.id);
      const material = current?.material ?? filament.material;
      const color = current?.color ?? filament.color;
      extruders.set(filament.id, {
        filamentGrams: roundGrams((current?.filamentGrams ?? 0) + filament.grams),
        ...(material ? { material } : {}),
        ...(color ? { color } : {}),
      });
    }
  }
  if (plates.length === 0) throw new SlicerReadError('projectNotSliced');

  const identity = (await applicationOf(source, byName.get('3D/3dmodel.model'))) ??
    gcodeIdentity ?? { slicer: 'Bambu Studio', version: cleanVersion(headerItem(sliceInfo, 'X-BBL-Client-Version')) };
  const filamentGrams = roundGrams(plates.reduce((sum, plate) => sum + plate.filamentGrams, 0));
  const perExtruder = [...extruders.values()].filter((e) => e.filamentGrams > 0);
  return {
    slicer: identity.slicer,
    slicerVersion: identity.version,
    filamentGrams,
    printSeconds: plates.reduce((sum, plate) => sum + plate.printSeconds, 0),
    perExtruder: perExtruder.length > 0 ? perExtruder : [{ filamentGrams }],
    ...(plates.length > 1 ? { plates } : {}),
    ...(perExtruder.length > 1 ? { purgeUnknown: true as const } : {}),
    warnings,
  };
}

/** Bambu Studio allows a few dozen plates and 16 AMS slots; more is not a sliced project of ours. */
const MAX_PLATES = 1000;
const MAX_FILAMENTS_PER_PLATE = 64;

const number = (text: string | undefined) => (text !== undefined && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined);

/** `<plate>`…`</plate>` blocks of slice_info.config, read with the one-pass tag scanner (see xml-tags.ts). */
function parsePlates(xml: string): PlateInfo[] {
  const plates: PlateInfo[] = [];
  let plate: { metadata: Map<string, string>; filaments: PlateInfo['filaments'] } | null = null;
  for (const tag of xmlTags(xml)) {
    if (tag.name === 'plate') {
      if (!tag.closing) {
        plate ??= { metadata: new Map(), filaments: [] };
      } else if (plate) {
        const index = number(plate.metadata.get('index')) ?? plates.length + 1;
        plates.push({ index, seconds: number(plate.metadata.get('prediction')), grams: number(plate.metadata.get('weight')), filaments: plate.filaments });
        plate = null;
        if (plates.length >= MAX_PLATES) break;
      }
    } else if (plate && !tag.closing && tag.name === 'metadata') {
      const key = tag.attributes.get('key');
      const value = tag.attributes.get('value');
      if (key !== undefined && value !== undefined && !plate.metadata.has(key)) plate.metadata.set(key, value);
    } else if (plate && !tag.closing && tag.name === 'filament' && plate.filaments.length < MAX_FILAMENTS_PER_PLATE) {
      plate.filaments.push({
        id: tag.attributes.get('id') ?? '1',
        grams: number(tag.attributes.get('used_g')) ?? 0,
        material: normalizeMaterial(tag.attributes.get('type')),
        color: normalizeHexColour(tag.attributes.get('color')),
      });
    }
  }
  return plates;
}

function headerItem(xml: string, key: string): string | undefined {
  for (const tag of xmlTags(xml)) {
    if (tag.name === 'header_item' && tag.attributes.get('key') === key) return tag.attributes.get('value');
  }
  return undefined;
}

const APPLICATIONS: Record<string, string> = { bambustudio: 'Bambu Studio', orcaslicer: 'OrcaSlicer' };

/** The model file starts with its metadata; only its first 16 kB are inflated. */
async function applicationOf(source: ByteSource, model: ZipEntry | undefined) {
  if (!model) return undefined;
  try {
    const text = new TextDecoder().decode(await readZipEntry(source, model, 16 * 1024));
    // Found by indexOf, matched on the short text after it: the pattern never runs over the whole model.
    const marker = '<metadata name="Application">';
    const at = text.indexOf(marker);
    if (at === -1) return undefined;
    const match = /^\s*([A-Za-z ]+?)[- ]v?(\d[\w.]*)\s*</.exec(text.slice(at + marker.length, at + marker.length + 200));
    if (!match) return undefined;
    return { slicer: APPLICATIONS[match[1].toLowerCase().replace(/\s+/g, '')] ?? match[1], version: cleanVersion(match[2]) };
  } catch {
    // The figures are what matter; a model we cannot reach only costs the name.
    return undefined;
  }
}
