import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { calculatorDefaults } from '~/calculator/defaults';
import { buildCalculatorExport } from '~/calculator/export';
import {
  calculatorFieldNames,
  calculatorFields,
  calculatorSections,
  defaultRawValues,
  extraLineFieldNames,
  fieldDefaults,
  fieldViews,
  fieldsOfSection,
  printerDefaults,
  rawValuesFromSearchParams,
  rawValuesToSearchParams,
  toEngineInput,
  toProjectPayload,
  type FieldSpec,
} from '~/calculator/fields';
import { linkQuery } from '~/calculator/link';
import { calculatorSchema } from '~/calculator/schema';
import { Printer } from '~/entities/printer.entity';
import { Project } from '~/entities/project.entity';

const locale = JSON.parse(readFileSync('public/locales/de/calculator.json', 'utf8'));
const specs = Object.entries(calculatorFields) as [string, FieldSpec][];

describe('the field table is the one source', () => {
  it('every field of the table is in the schema, and nothing else is', () => {
    // Plus the filament lines 2… (issue 23), which repeat line 1's fields under numbered names.
    expect(Object.keys(calculatorSchema.def.shape).sort()).toEqual([...Object.keys(calculatorFields), ...extraLineFieldNames].sort());
  });

  it('every visible field has a German label, and every error key a German text', () => {
    for (const [name, spec] of specs) {
      if ('section' in spec) expect(locale.fields[name]?.label, name).toEqual(expect.any(String));
      if (spec.kind !== 'boolean') {
        for (const key of Object.values(spec.errors)) expect(locale.errors[key], `${name}: ${key}`).toEqual(expect.any(String));
      }
    }
  });

  it('the loader hands the form a view of each visible field', () => {
    expect(fieldViews.map((view) => view.name)).toEqual(calculatorFieldNames);
    expect(fieldViews.find((view) => view.name === 'targetPrice')).toMatchObject({ kind: 'number', section: 'pricing', money: true, wide: true });
    expect(fieldViews.find((view) => view.name === 'quantity')).toMatchObject({ integer: true, section: 'basics' });
    expect(fieldViews.filter((view) => view.group === 'printTime').map((view) => view.name)).toEqual(['printTimeHours', 'printTimeMinutes']);
  });

  it('the form shows the visible fields section by section, in table order', () => {
    expect(calculatorSections.flatMap((section) => fieldsOfSection(section))).toEqual(calculatorFieldNames);
    expect(calculatorFieldNames[0]).toBe('projectName');
    expect(calculatorFieldNames).not.toContain('productImagePath');
  });

  it('the schema applies the table bounds and messages', () => {
    for (const [name, spec] of specs) {
      if (spec.kind !== 'number') continue;
      const below = calculatorSchema.safeParse({ [name]: String(spec.min - 1) });
      expect(below.success, name).toBe(false);
      expect(below.error?.issues.find((i) => i.path[0] === name)?.message, name).toBe(`calculator:errors.${spec.errors.min}`);
      if (spec.max !== undefined) {
        const above = calculatorSchema.safeParse({ [name]: String(spec.max + 1) });
        expect(above.error?.issues.find((i) => i.path[0] === name)?.message, name).toBe(
          `calculator:errors.${spec.errors.max}`,
        );
      }
    }
  });

  it('defaults match the spec (§9) and feed the engine, the printer dialog and the printer/project entities', () => {
    expect(calculatorDefaults).toMatchObject({ quantity: 1, filamentWeight: 25, printTime: 3.5, electricityRate: 0.32, vatPercent: 19 });
    expect(toEngineInput(fieldDefaults)).toEqual(
      Object.fromEntries(Object.entries(calculatorDefaults).filter(([k]) => !['projectName', 'printTimeHours', 'printTimeMinutes'].includes(k))),
    );
    expect(printerDefaults).toEqual({ wattage: 200, cost: 300, lifetimeHours: 3000, electricityRate: 0.32 });
    expect(new Printer().electricityRate).toBe(0.32);
    const project = new Project();
    expect([project.printerCost, project.printerLifetimeHours]).toEqual([300, 3000]);
  });

  it('a link carries the visible fields and reads back the same texts', () => {
    const values = { ...defaultRawValues(), filamentWeight: '1.200', projectName: 'Vase' };
    const params = rawValuesToSearchParams(values);
    // Then the number of filament lines it describes (issue 23).
    expect([...params.keys()]).toEqual([...calculatorFieldNames, 'filamentLines']);
    expect(rawValuesFromSearchParams(params)).toEqual(values);
  });

  it("the page's link from its field list (linkQuery) is the table's link: every visible field travels in it", () => {
    const values = { ...defaultRawValues(), filamentWeight: '1.200', projectName: 'Vase & Co', smallBusiness: '1' };
    expect(linkQuery(fieldViews, values).toString()).toBe(rawValuesToSearchParams(values).toString());
  });

  it('the project payload uses the stored names (spec §3) and combines the print time', () => {
    const parsed = calculatorSchema.parse({ projectName: 'Vase', printTimeHours: '1', printTimeMinutes: '15', marketplaceFeePercent: '6,5' });
    const payload = toProjectPayload(parsed);
    expect(payload).toMatchObject({ name: 'Vase', printTime: 1.25, marketplaceFeePercentage: 6.5, printerCost: 300, productImagePath: null });
    // Issue 12 adds the VAT to the saved project (a seller at 7 % or 0 % must get it back).
    expect(payload.vatPercent).toBe(19);
    expect(payload).not.toHaveProperty('printTimeHours');
  });
});

describe('export', () => {
  it('rounds the figures and lists the exported inputs', () => {
    const body = buildCalculatorExport(defaultRawValues(), new Date('2026-11-23T10:00:00Z'))!;
    expect(body.exportedAt).toBe('2026-11-23T10:00:00.000Z');
    // 3,5 h × 0,2 kW × 0,32 €/kWh = 0.22400000000000003 unrounded
    expect(body.results!.powerCost).toBe(0.22);
    for (const value of Object.values(body.results!)) expect(Math.round(value * 100) / 100).toBe(value);
    expect(body.inputs).toMatchObject({ filamentWeight: 25, printTimeHours: 3, printTimeMinutes: 30, printTime: 3.5, vatPercent: 19 });
    expect(JSON.stringify(body)).not.toMatch(/\d\.\d{7,}/);
  });

  it('is null for invalid input', () => {
    expect(buildCalculatorExport({ ...defaultRawValues(), quantity: 'abc' }, new Date())).toBeNull();
  });
});
