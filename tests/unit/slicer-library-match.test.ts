import { describe, expect, it } from 'vitest';
import { defaultRawValues, lineTextsOf, withLineTexts } from '~/calculator/fields';
import { readSlicerSummary, type SlicerReadResult } from '~/slicer';
import {
  importedFieldValues,
  importedFirstLineId,
  importedLines,
  importedLineTexts,
  importInfoFromSummary,
  importNoticeFromParams,
  importNoticeToParams,
  type ImportOptions,
  type SlicerImportInfo,
} from '~/slicer/import-link';
import { buildImportView } from '~/slicer/import-view';
import { colourFamiliesOfText, colourFamilyOfHex, matchLine, matchLines, normalizeHexColour, type MatchableFilament } from '~/slicer/library-match';
import { bambuGcode, bytes, modelFile, prusaGcode, sliceInfo, zip } from '../fixtures/slicer/make';

/*
 * Issue 23 §3: an imported line takes the signed-in seller's library filament when exactly
 * one active filament matches its material (and colour, where the file names one); several
 * or none leave the form's price and the notice says which.
 */

function ok(result: SlicerReadResult) {
  if (!result.ok) throw new Error(`expected a summary, got ${JSON.stringify(result.error)}`);
  return result.summary;
}

const item = (id: string, name: string, pricePerKg: number, extra: Record<string, string> = {}): MatchableFilament => ({ id, name, pricePerKg, ...extra });

const library: MatchableFilament[] = [
  item('pla-white', 'Bambu PLA Basic Jade White', 24.99, { material: 'PLA', color: 'Weiß', brand: 'Bambu Lab' }),
  item('pla-black', 'PLA Schwarz', 19.9, { material: 'PLA', color: 'Schwarz' }),
  item('petg-red-a', 'PETG Signalrot', 22, { material: 'PETG', color: 'Signalrot', brand: 'Prusament' }),
  item('petg-red-b', 'PETG Rot günstig', 18, { material: 'PETG', color: 'rot', brand: 'Generic' }),
  item('tpu', 'TPU 95A', 35, { material: 'TPU' }),
];

const german = (key: string, options?: Record<string, unknown>) => `${key}${options ? JSON.stringify(options) : ''}`;
const colourName = (family: string) => ({ white: 'Weiß', black: 'Schwarz', red: 'Rot', blue: 'Blau' })[family] ?? family;

describe('colours (issue 23: the library match)', () => {
  it("reads the files' #RRGGBB and Bambu's #RRGGBBAA, nothing else", () => {
    expect(normalizeHexColour('#ffffff')).toBe('#FFFFFF');
    expect(normalizeHexColour('"#00AE42FF"')).toBe('#00AE42');
    expect(normalizeHexColour('')).toBeUndefined();
    expect(normalizeHexColour('rot')).toBeUndefined();
  });

  it('puts a file colour into a family and reads German and English colour words', () => {
    expect(['#FFFFFF', '#000000', '#8E9089', '#C12E1F', '#FF6A13', '#F4EE2A', '#00AE42', '#0A2989', '#5E43B7', '#F55A74', '#7D6556'].map((hex) => colourFamilyOfHex(hex))).toEqual([
      'white', 'black', 'grey', 'red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink', 'brown',
    ]);
    expect([...colourFamiliesOfText('Dunkelblau')]).toEqual(['blue']);
    expect([...colourFamiliesOfText('Signalrot')]).toEqual(['red']);
    expect([...colourFamiliesOfText('Jade White')]).toEqual(['white']);
    expect([...colourFamiliesOfText('#1A1A1A')]).toEqual(['black']);
    expect(colourFamiliesOfText('Galaxy').size).toBe(0);
    // "rot" inside another word does not make it red ("Karotte", "Brot").
    expect(colourFamiliesOfText('Brot').size).toBe(0);
  });
});

describe('matching one imported line', () => {
  it('exactly one active filament of the material and colour: chosen', () => {
    expect(matchLine({ material: 'PLA', color: '#FFFFFF' }, library)).toEqual({ kind: 'chosen', id: 'pla-white', name: 'Bambu PLA Basic Jade White', pricePerKg: 24.99 });
    // PLA+ and PLA-CF are PLA, as the reader names them; the only TPU has no colour: still the only one.
    expect(matchLine({ material: 'PLA+', color: '#000000' }, library)).toMatchObject({ kind: 'chosen', id: 'pla-black' });
    expect(matchLine({ material: 'TPU', color: '#FF0000' }, library)).toMatchObject({ kind: 'chosen', id: 'tpu' });
  });

  it('several fit: not chosen, counted; the brand the file names narrows them to one', () => {
    expect(matchLine({ material: 'PLA' }, library)).toEqual({ kind: 'several', count: 2 });
    expect(matchLine({ material: 'PETG', color: '#C12E1F' }, library)).toEqual({ kind: 'several', count: 2 });
    expect(matchLine({ material: 'PETG', color: '#C12E1F', vendor: 'Prusament' }, library)).toMatchObject({ kind: 'chosen', id: 'petg-red-a' });
    // "Generic" names no brand.
    expect(matchLine({ material: 'PETG', color: '#C12E1F', vendor: 'Generic' }, library)).toEqual({ kind: 'several', count: 2 });
  });

  it('none fits (other material or colour, or the file names no material): none', () => {
    expect(matchLine({ material: 'ABS' }, library)).toEqual({ kind: 'none' });
    expect(matchLine({ material: 'PETG', color: '#0A2989' }, library)).toEqual({ kind: 'none' });
    expect(matchLine({}, library)).toEqual({ kind: 'none' });
    expect(matchLine({ material: 'PLA' }, [])).toEqual({ kind: 'none' });
  });

  it('only a signed-in seller (a library) is matched: two or more lines, or one line whose material the file names', () => {
    expect(matchLines([{ material: 'PLA' }, { material: 'TPU' }], null)).toBeNull();
    expect(matchLines([{ material: 'TPU' }], null)).toBeNull();
    expect(matchLines([{ material: 'TPU' }], library)).toEqual([{ kind: 'chosen', id: 'tpu', name: 'TPU 95A', pricePerKg: 35 }]);
    expect(matchLines([{}], library)).toBeNull();
    expect(matchLines([{ material: 'PLA', color: '#FFFFFF' }, { material: 'ABS' }], library)!.map((m) => m.kind)).toEqual(['chosen', 'none']);
  });
});

/** A Bambu Studio AMS G-code: white PLA, red PETG (two in the library), black PLA, blue PETG (none). */
const amsFile = () =>
  bytes(
    bambuGcode({
      extra: [
        '; filament used [g] = 10.00, 3.50, 2.25, 1.00',
        '; filament_type = PLA;PETG;PLA;PETG',
        '; filament_colour = #FFFFFF;#C12E1F;#000000;#0A2989',
        '; filament_vendor = "Bambu Lab";Generic;Generic;Generic',
      ].join('\n'),
    }),
  );

/** A one-filament Bambu Studio G-code: white PLA (one active white PLA in the library). */
const oneFilamentFile = (type = 'PLA', colour = '#FFFFFF') =>
  bytes(
    bambuGcode({
      extra: ['; filament used [g] = 12.50', `; filament_type = ${type}`, `; filament_colour = ${colour}`, '; filament_vendor = "Bambu Lab"'].join('\n'),
    }),
  );

describe('a one-filament import and the library', () => {
  it("exactly one fitting library filament is chosen for line 1: its price, the picker, the notice", async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(oneFilamentFile())));
    expect(info.lines).toBeUndefined();
    expect(info.filament).toEqual({ material: 'PLA', color: '#FFFFFF', vendor: 'Bambu Lab' });
    const options: ImportOptions = { matches: matchLines(importedLines(info), library), colourName };
    expect(importedFieldValues(info, options)).toEqual({ filamentWeight: '12,5', filamentPricePerKg: '24,99', printTimeHours: expect.any(String), printTimeMinutes: expect.any(String) });
    expect(importedFirstLineId(info, options)).toBe('pla-white');
    expect(importedLineTexts(info, () => '21', options)).toEqual([]);
    expect(buildImportView(info, german, '', library).lines).toBe(
      'filament-lines:slicerMatchChosenSingle{"line":"PLA, 12,5 g","name":"Bambu PLA Basic Jade White","price":"24,99"}',
    );
  });

  it('several or none fit, no material, or a visitor: as before (the form keeps its price, no line notice)', async () => {
    for (const [file, lib] of [
      [oneFilamentFile('PETG', '#C12E1F'), library], // two red PETGs
      [oneFilamentFile('ASA', '#FFFFFF'), library], // none
      [oneFilamentFile(), null], // a visitor
      [bytes(bambuGcode()), library], // the file names no material
    ] as const) {
      const info = importInfoFromSummary(ok(await readSlicerSummary(file)));
      const options: ImportOptions = { matches: matchLines(importedLines(info), lib), colourName };
      expect(importedFieldValues(info, options).filamentPricePerKg).toBeUndefined();
      expect(importedFieldValues(info, options).filamentLabel).toBeUndefined();
      expect(importedFirstLineId(info, options)).toBe('');
      expect(buildImportView(info, german, '', lib).lines).toBeUndefined();
    }
  });

  it('its material, colour and brand travel in the import link (slicerFilament), cleaned when read; the page matches again', async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(oneFilamentFile())));
    const params = importNoticeToParams({ kind: 'info', info }, new URLSearchParams());
    expect(params.get('slicerFilament')).toBe('PLA:FFFFFF:Bambu Lab');
    expect(params.has('slicerLines')).toBe(false);
    const back = importNoticeFromParams(params);
    expect(back?.kind === 'info' && back.info.filament).toEqual(info.filament);
    const hostile = importNoticeFromParams(new URLSearchParams({ slicer: 'X', slicerGrams: '1', slicerSeconds: '1', slicerFilament: '\u0000PLA:zzz:' + 'B'.repeat(90) }));
    expect(hostile?.kind === 'info' && hostile.info.filament).toEqual({ material: 'PLA', vendor: 'B'.repeat(40) });
    expect(importNoticeFromParams(new URLSearchParams({ slicer: 'X', slicerGrams: '1', slicerSeconds: '1', slicerFilament: ':FFFFFF' }))).not.toHaveProperty('info.filament');
    // A plate's link chooses it too (a multi-plate project printed in one filament).
    const plates: SlicerImportInfo = { ...info, plates: [{ index: 1, filamentGrams: 10, printSeconds: 30 }, { index: 2, filamentGrams: 2.5, printSeconds: 30 }] };
    const plate2 = new URL(buildImportView(plates, german, 'filamentPricePerKg=20', library).plates![2].href, 'http://x').searchParams;
    expect([plate2.get('filamentWeight'), plate2.get('filamentPricePerKg'), plate2.get('selectedFilament')]).toEqual(['2,5', '24,99', 'pla-white']);
  });
});

describe('an import with several filaments and the library', () => {
  it('the readers give each filament its colour and brand (G-code and .gcode.3mf)', async () => {
    const gcode = ok(await readSlicerSummary(amsFile()));
    expect(gcode.perExtruder[0]).toEqual({ filamentGrams: 10, material: 'PLA', color: '#FFFFFF', vendor: 'Bambu Lab' });
    expect(gcode.perExtruder[1]).toEqual({ filamentGrams: 3.5, material: 'PETG', color: '#C12E1F', vendor: 'Generic' });
    const prusa = ok(await readSlicerSummary(bytes(prusaGcode({ grams: '5, 2', time: '1h', config: '; filament_type = PLA;PLA\n; filament_colour = #FF8000;\n; extruder_colour = "";"#0A2989"' }))));
    // The filament's colour; PrusaSlicer's extruder colour where the filament names none.
    expect(prusa.perExtruder.map((e) => e.color)).toEqual(['#FF8000', '#0A2989']);
    const project = ok(
      await readSlicerSummary(
        zip([
          { name: '3D/3dmodel.model', data: modelFile('BambuStudio-01.09.00.70') },
          { name: 'Metadata/plate_1.gcode', data: bambuGcode() },
          { name: 'Metadata/slice_info.config', data: sliceInfo([{ index: 1, prediction: 3600, weight: 9, filaments: [{ id: 1, type: 'PLA', grams: 6, color: '#000000FF' }, { id: 2, type: 'PETG', grams: 3, color: '#C12E1F' }] }]) },
        ]),
      ),
    );
    expect(project.perExtruder.map((e) => [e.material, e.color])).toEqual([['PLA', '#000000'], ['PETG', '#C12E1F']]);
  });

  it('chosen lines take the library price and id, the others keep the form price; labels name the colour', async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(amsFile())));
    const options: ImportOptions = { matches: matchLines(importedLines(info), library), colourName };
    const first = importedFieldValues(info, options);
    expect(first).toMatchObject({ filamentWeight: '10', filamentLabel: 'PLA Weiß', filamentPricePerKg: '24,99' });
    expect(importedFirstLineId(info, options)).toBe('pla-white');
    const further = importedLineTexts(info, (line) => (line === 1 ? '21' : undefined), options);
    expect(further).toEqual([
      { grams: '3,5', pricePerKg: '21', label: 'PETG Rot', id: '' },
      { grams: '2,25', pricePerKg: '19,9', label: 'PLA Schwarz', id: 'pla-black' },
      { grams: '1', pricePerKg: '21', label: 'PETG Blau', id: '' },
    ]);
    const values = withLineTexts({ ...defaultRawValues(), ...first }, [{ grams: first.filamentWeight, pricePerKg: first.filamentPricePerKg, label: first.filamentLabel }, ...further]);
    expect(lineTextsOf(values).map((line) => line.pricePerKg)).toEqual(['24,99', '21', '19,9', '21']);

    // Without a library (a visitor) nothing is chosen: every line keeps the form's price, as before.
    expect(importedFieldValues(info, {}).filamentPricePerKg).toBeUndefined();
    expect(importedLineTexts(info, () => '21').every((line) => line.pricePerKg === '21' && line.id === '')).toBe(true);
  });

  it('the notice names what was chosen and says where several or none fit; a visitor gets the old notice', async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(amsFile())));
    const view = buildImportView(info, german, '', library);
    expect(view.lines!.split('\n')).toEqual([
      'filament-lines:slicerMatchTitle',
      'filament-lines:slicerMatchChosen{"n":1,"line":"PLA, 10 g","name":"Bambu PLA Basic Jade White","price":"24,99"}',
      'filament-lines:slicerMatchSeveral{"n":2,"line":"PETG, 3,5 g","count":2}',
      'filament-lines:slicerMatchChosen{"n":3,"line":"PLA, 2,25 g","name":"PLA Schwarz","price":"19,9"}',
      'filament-lines:slicerMatchNone{"n":4,"line":"PETG, 1 g"}',
    ]);
    const visitor = buildImportView(info, german, '');
    expect(visitor.lines).toBe('filament-lines:slicerLines{"list":"PLA 10 g, PETG 3,5 g, PLA 2,25 g, PETG 1 g"}');
  });

  it('colour and brand travel in the import link (the no-JS redirect), cleaned when read', async () => {
    const info = importInfoFromSummary(ok(await readSlicerSummary(amsFile())));
    const params = importNoticeToParams({ kind: 'info', info }, new URLSearchParams());
    expect(params.get('slicerLines')).toBe('10:PLA:FFFFFF:Bambu Lab;3.5:PETG:C12E1F:Generic;2.25:PLA:000000:Generic;1:PETG:0A2989:Generic');
    const back = importNoticeFromParams(params);
    expect(back?.kind === 'info' && back.info.lines).toEqual(info.lines);
    const hostile = importNoticeFromParams(new URLSearchParams({ slicer: 'X', slicerGrams: '1', slicerSeconds: '1', slicerLines: '1:PLA:zzz:\u0000Evil;2:PETG:12345678' }));
    expect(hostile?.kind === 'info' && hostile.info.lines).toEqual([
      { grams: 1, material: 'PLA', vendor: 'Evil' },
      { grams: 2, material: 'PETG', color: '#123456' },
    ]);
  });

  it("a plate choice's link selects the chosen filaments and takes their prices", () => {
    const info: SlicerImportInfo = {
      slicer: 'Bambu Studio', version: null, grams: 15, seconds: 60, filaments: 2, warnings: [],
      plates: [{ index: 1, filamentGrams: 10, printSeconds: 30 }, { index: 2, filamentGrams: 5, printSeconds: 30 }],
      lines: [{ grams: 12, material: 'PLA', color: '#FFFFFF' }, { grams: 3, material: 'TPU' }],
    };
    const view = buildImportView(info, german, 'filamentPricePerKg=20&selectedFilament=alt', library);
    const all = new URL(view.plates![0].href, 'http://x').searchParams;
    expect([all.get('filamentPricePerKg'), all.get('selectedFilament'), all.get('filamentPricePerKg2'), all.get('selectedFilament2')]).toEqual(['24,99', 'pla-white', '35', 'tpu']);
    // A single plate has no per-filament figures: one line, nothing matched, the form's choice stays.
    const plate2 = new URL(view.plates![2].href, 'http://x').searchParams;
    expect([plate2.get('filamentPricePerKg'), plate2.get('selectedFilament'), plate2.get('selectedFilament2')]).toEqual(['20', 'alt', null]);
  });
});
