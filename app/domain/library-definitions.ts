/**
 * The five libraries (printers, filaments, packaging, shipping providers,
 * marketplaces) are ONE implementation driven by a definition per kind: its
 * fields (labels, steps, defaults, limits), the one zod schema its form, the
 * page action and the JSON API share, what a card shows, which columns the
 * search looks at, its advice block and its toast texts. A sixth kind is one
 * more entry here (plus its entity in models/library.server.ts), not a copied page.
 *
 * Browser-safe: no Node or MikroORM imports. Every text is an i18n key in
 * namespace `library` (public/locales/de/library.json).
 */
import { z } from 'zod';
import { printerDefaults } from '../calculator/fields';
import { formatMoney, formatNumber, formatPercent, formatQuantity, parseDecimal } from '../lib/number';

export const FILAMENT_MATERIALS = ['PLA', 'ABS', 'PETG', 'TPU', 'ASA', 'PC', 'Nylon', 'HIPS', 'PVA'] as const;
export const PACKAGING_TYPES = ['box', 'envelope', 'bubble_mailer', 'padded_envelope', 'tube', 'bag'] as const;

export const LIBRARY_KINDS = ['printers', 'filaments', 'packaging', 'shipping', 'marketplaces'] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];

export function isLibraryKind(value: unknown): value is LibraryKind {
  return typeof value === 'string' && (LIBRARY_KINDS as readonly string[]).includes(value);
}

export const libraryErrorKeys = {
  required: 'library:errors.required',
  nameRequired: 'library:errors.nameRequired',
  notText: 'library:errors.notText',
  textTooLong: 'library:errors.textTooLong',
  singleLine: 'library:errors.singleLine',
  controlCharacters: 'library:errors.controlCharacters',
  notANumber: 'library:errors.notANumber',
  min: 'library:errors.min',
  max: 'library:errors.max',
  feeRange: 'library:errors.feeRange',
  invalidOption: 'library:errors.invalidOption',
  invalidActive: 'library:errors.invalidActive',
  invalidBody: 'library:errors.invalidBody',
  invalidInput: 'library:errors.invalidInput',
} as const;
const E = libraryErrorKeys;

export const NAME_MAX = 100;
export const TEXT_MAX = 100;
export const DESCRIPTION_MAX = 1000;

type BaseField = {
  name: string;
  /** i18n key of the label. */
  label: string;
};
export type TextFieldDef = BaseField & { type: 'text' | 'textarea'; required?: boolean; max: number; placeholder?: string };
export type NumberFieldDef = BaseField & {
  type: 'number';
  min: number;
  max: number;
  step: number;
  default: number;
  /** i18n key of the unit shown next to the input ('€', 'W', …). */
  unit: string;
  /** Fractions whose meaning is shown live next to the input ("= 6,5 %"). */
  showAsPercent?: boolean;
  /** Message key for a value outside min..max when one key covers both ends. */
  rangeMessage?: string;
};
export type SelectFieldDef = BaseField & { type: 'select'; options: readonly string[]; default: string; optionLabel: string };
export type SwitchFieldDef = BaseField & { type: 'switch'; default: 1 | 0 };
/** A number field holding an amount of money (its unit is €, €/kWh or €/kg): shown and pre-filled with two decimals. */
export function isMoneyField(field: NumberFieldDef): boolean {
  return field.unit.startsWith('library:units.euro');
}
export type FieldDef = TextFieldDef | NumberFieldDef | SelectFieldDef | SwitchFieldDef;

/** The stored item as the pages and the API see it (numbers as numbers, isActive 1/0). */
export type LibraryItem = { id: string; name: string; isActive: number; createdAt: string; updatedAt: string } & Record<
  string,
  string | number | null
>;

export type CardFigure = { label: string; value: (item: LibraryItem) => string };

export type LibraryDefinition = {
  kind: LibraryKind;
  /** The page's address. */
  path: string;
  /** The JSON API's path segment (spec §7). */
  apiPath: string;
  fields: readonly FieldDef[];
  /** Columns the search box matches (case-insensitive substring). */
  searchFields: readonly string[];
  /** The line under the card's name (e.g. brand and model). */
  subtitle: (item: LibraryItem, t: (key: string) => string) => string;
  figures: readonly CardFigure[];
  /** Only the printer form has an active switch (spec §4); the others get a card action. */
  activeSwitch: boolean;
  advice: 'filamentTips' | 'packagingTips' | 'shippingPrices' | 'marketplaceFees' | null;
  /** Prefix of this kind's texts in library.json (`library:printers.title`, …). */
  text: string;
};

// The pages' one rule for money and quantities (issue 24 §1): 1.299,50 €, 0,285 €/kWh, 6.000 h.
const euro = (n: unknown, unit = '€') => formatMoney(Number(n), unit);

const nameField: TextFieldDef = { name: 'name', label: 'library:fields.name', type: 'text', required: true, max: NAME_MAX };
const descriptionField: TextFieldDef = { name: 'description', label: 'library:fields.description', type: 'textarea', max: DESCRIPTION_MAX };

const joined = (...parts: Array<unknown>) => parts.filter((part) => typeof part === 'string' && part.trim() !== '').join(' · ');

export const libraryDefinitions: Record<LibraryKind, LibraryDefinition> = {
  printers: {
    kind: 'printers',
    path: '/printers',
    apiPath: 'printers',
    text: 'library:printers',
    fields: [
      { ...nameField, placeholder: 'library:printers.namePlaceholder' },
      { name: 'brand', label: 'library:fields.brand', type: 'text', max: TEXT_MAX },
      { name: 'model', label: 'library:fields.model', type: 'text', max: TEXT_MAX },
      { name: 'wattage', label: 'library:fields.wattage', type: 'number', min: 1, max: 100_000, step: 1, default: printerDefaults.wattage, unit: 'library:units.watt' },
      { name: 'cost', label: 'library:fields.printerCost', type: 'number', min: 0, max: 10_000_000, step: 10, default: printerDefaults.cost, unit: 'library:units.euro' },
      { name: 'lifetimeHours', label: 'library:fields.lifetimeHours', type: 'number', min: 1, max: 10_000_000, step: 1, default: printerDefaults.lifetimeHours, unit: 'library:units.hours' },
      { name: 'electricityRate', label: 'library:fields.electricityRate', type: 'number', min: 0, max: 1000, step: 0.01, default: printerDefaults.electricityRate, unit: 'library:units.euroPerKwh' },
      { name: 'isActive', label: 'library:fields.isActive', type: 'switch', default: 1 },
    ],
    searchFields: ['name', 'brand'],
    subtitle: (item) => joined(item.brand, item.model),
    figures: [
      { label: 'library:fields.wattage', value: (item) => formatQuantity(Number(item.wattage), 'W') },
      { label: 'library:fields.printerCost', value: (item) => euro(item.cost) },
      { label: 'library:fields.lifetimeHours', value: (item) => formatQuantity(Number(item.lifetimeHours), 'h') },
      { label: 'library:fields.electricityRate', value: (item) => euro(item.electricityRate, '€/kWh') },
    ],
    activeSwitch: true,
    advice: null,
  },
  filaments: {
    kind: 'filaments',
    path: '/filaments',
    apiPath: 'filaments',
    text: 'library:filaments',
    fields: [
      { ...nameField, placeholder: 'library:filaments.namePlaceholder' },
      { name: 'brand', label: 'library:fields.brand', type: 'text', max: TEXT_MAX },
      { name: 'material', label: 'library:fields.material', type: 'select', options: FILAMENT_MATERIALS, default: 'PLA', optionLabel: 'library:materials' },
      { name: 'color', label: 'library:fields.color', type: 'text', max: TEXT_MAX },
      { name: 'pricePerKg', label: 'library:fields.pricePerKg', type: 'number', min: 0, max: 100_000, step: 0.01, default: 25, unit: 'library:units.euroPerKg' },
    ],
    searchFields: ['name', 'brand', 'material', 'color'],
    subtitle: (item, t) => joined(item.brand, t(`library:materials.${String(item.material)}`), item.color),
    figures: [{ label: 'library:fields.pricePerKg', value: (item) => euro(item.pricePerKg, '€/kg') }],
    activeSwitch: false,
    advice: 'filamentTips',
  },
  packaging: {
    kind: 'packaging',
    path: '/packaging',
    apiPath: 'packaging',
    text: 'library:packaging',
    fields: [
      { ...nameField, placeholder: 'library:packaging.namePlaceholder' },
      { name: 'type', label: 'library:fields.packagingType', type: 'select', options: PACKAGING_TYPES, default: 'box', optionLabel: 'library:packagingTypes' },
      { name: 'cost', label: 'library:fields.packagingCost', type: 'number', min: 0, max: 100_000, step: 0.01, default: 0.5, unit: 'library:units.euro' },
      descriptionField,
    ],
    searchFields: ['name'],
    subtitle: (item, t) => t(`library:packagingTypes.${String(item.type)}`),
    figures: [{ label: 'library:fields.packagingCost', value: (item) => euro(item.cost) }],
    activeSwitch: false,
    advice: 'packagingTips',
  },
  shipping: {
    kind: 'shipping',
    path: '/shipping',
    apiPath: 'shipping-providers',
    text: 'library:shipping',
    fields: [
      { ...nameField, placeholder: 'library:shipping.namePlaceholder' },
      { name: 'service', label: 'library:fields.service', type: 'text', max: TEXT_MAX, placeholder: 'library:shipping.servicePlaceholder' },
      { name: 'baseCost', label: 'library:fields.baseCost', type: 'number', min: 0, max: 100_000, step: 0.01, default: 4.95, unit: 'library:units.euro' },
      descriptionField,
    ],
    searchFields: ['name'],
    subtitle: (item) => joined(item.service),
    figures: [{ label: 'library:fields.baseCost', value: (item) => euro(item.baseCost) }],
    activeSwitch: false,
    advice: 'shippingPrices',
  },
  marketplaces: {
    kind: 'marketplaces',
    path: '/marketplaces',
    apiPath: 'marketplaces',
    text: 'library:marketplaces',
    fields: [
      { ...nameField, placeholder: 'library:marketplaces.namePlaceholder' },
      {
        name: 'percentageFee',
        label: 'library:fields.percentageFee',
        type: 'number',
        min: 0,
        max: 1,
        step: 0.001,
        default: 0.05,
        unit: 'library:units.fraction',
        showAsPercent: true,
        rangeMessage: E.feeRange,
      },
      { name: 'fixedFee', label: 'library:fields.fixedFee', type: 'number', min: 0, max: 100_000, step: 0.01, default: 0.3, unit: 'library:units.euro' },
      descriptionField,
    ],
    searchFields: ['name'],
    subtitle: () => '',
    figures: [
      { label: 'library:fields.percentageFee', value: (item) => formatPercent(Number(item.percentageFee) * 100) },
      { label: 'library:fields.fixedFee', value: (item) => euro(item.fixedFee) },
    ],
    activeSwitch: false,
    advice: 'marketplaceFees',
  },
};

/** The kind whose JSON API lives at /api/<apiPath>. */
export function kindOfApiPath(apiPath: string): LibraryKind | null {
  return LIBRARY_KINDS.find((kind) => libraryDefinitions[kind].apiPath === apiPath) ?? null;
}

/** "= 6,5 %" for a fee fraction as typed (German or plain decimals); '' while it is not a number. */
export function percentMeaning(raw: unknown): string {
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDecimal(raw) : undefined;
  if (value === undefined || !Number.isFinite(value)) return '';
  return `= ${formatPercent(value * 100)}`;
}

// ---------------------------------------------------------------------------
// The schema. Every field may be MISSING (undefined: the model fills the
// default on create and keeps the stored value on update, so a JSON client can
// PUT only what changed); a field that is PRESENT must be valid. Fields are
// built on z.unknown() so conform's coercion leaves '' alone (an emptied
// number is an error, not "missing") and JSON values of the wrong type
// (arrays, objects, booleans, Infinity from 1e309) get a German message.

type Ctx = z.RefinementCtx;

function fail(ctx: Ctx, message: string, params?: Record<string, number | string>): typeof z.NEVER {
  // Conform and the API show `message`; params ride along for the translator (min/max).
  ctx.addIssue({ code: 'custom', message: params ? `${message}|${JSON.stringify(params)}` : message });
  return z.NEVER;
}

const CONTROL_SINGLE_LINE = /[\u0000-\u001f\u007f]/;
const CONTROL_MULTI_LINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function textSchema(field: TextFieldDef) {
  return z.unknown().transform((value, ctx): string | null | undefined => {
    if (value === undefined) return undefined;
    if (value === null) return field.required ? fail(ctx, E.nameRequired) : null;
    if (typeof value !== 'string') return fail(ctx, E.notText);
    const text = value.trim();
    if (text === '') return field.required ? fail(ctx, E.nameRequired) : null;
    if (text.length > field.max) return fail(ctx, E.textTooLong, { max: field.max });
    if (field.type === 'text' ? CONTROL_SINGLE_LINE.test(text) : CONTROL_MULTI_LINE.test(text)) {
      return fail(ctx, field.type === 'text' ? E.singleLine : E.controlCharacters);
    }
    return text;
  });
}

function numberSchema(field: NumberFieldDef) {
  return z.unknown().transform((value, ctx): number | undefined => {
    if (value === undefined) return undefined;
    let n: number | undefined;
    if (typeof value === 'number') n = Number.isFinite(value) ? value : undefined;
    else if (typeof value === 'string') {
      if (value.trim() === '') return fail(ctx, E.required);
      n = parseDecimal(value);
    }
    if (n === undefined) return fail(ctx, E.notANumber);
    if (n < field.min) return fail(ctx, field.rangeMessage ?? E.min, { min: formatNumber(field.min, 3) });
    if (n > field.max) return fail(ctx, field.rangeMessage ?? E.max, { max: formatNumber(field.max, 3) });
    return n;
  });
}

function selectSchema(field: SelectFieldDef) {
  return z.unknown().transform((value, ctx): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !field.options.includes(value)) return fail(ctx, E.invalidOption);
    return value;
  });
}

const ACTIVE_VALUES = new Map<unknown, 0 | 1>([
  [1, 1],
  [0, 0],
  [true, 1],
  [false, 0],
  ['1', 1],
  ['0', 0],
  ['true', 1],
  ['false', 0],
  // An HTML checkbox posts "on" when ticked.
  ['on', 1],
]);

function switchSchema() {
  return z.unknown().transform((value, ctx): 0 | 1 | undefined => {
    if (value === undefined) return undefined;
    const flag = ACTIVE_VALUES.get(value);
    return flag ?? fail(ctx, E.invalidActive);
  });
}

function fieldSchema(field: FieldDef) {
  switch (field.type) {
    case 'text':
    case 'textarea':
      return textSchema(field);
    case 'number':
      return numberSchema(field);
    case 'select':
      return selectSchema(field);
    case 'switch':
      return switchSchema();
  }
}

export type LibraryInput = Record<string, string | number | null | undefined>;

const schemas = new Map<LibraryKind, z.ZodType<LibraryInput>>();

/**
 * The one schema of a kind's form (page, dialog in the browser, JSON API).
 * isActive is accepted by every kind's API (spec §7), though only the printer
 * form shows it.
 */
export function librarySchema(kind: LibraryKind): z.ZodType<LibraryInput> {
  let schema = schemas.get(kind);
  if (!schema) {
    const shape: Record<string, z.ZodType> = {};
    for (const field of libraryDefinitions[kind].fields) shape[field.name] = fieldSchema(field);
    shape.isActive ??= switchSchema();
    schema = z.object(shape) as unknown as z.ZodType<LibraryInput>;
    schemas.set(kind, schema);
  }
  return schema;
}

/** Splits a message that carries parameters ("library:errors.min|{"min":"1"}"). */
export function splitMessage(message: string): { key: string; params: Record<string, unknown> } {
  const bar = message.indexOf('|');
  if (bar < 0) return { key: message, params: {} };
  try {
    return { key: message.slice(0, bar), params: JSON.parse(message.slice(bar + 1)) as Record<string, unknown> };
  } catch {
    return { key: message.slice(0, bar), params: {} };
  }
}

/** The form's starting values for a new item (spec §9 defaults). */
export function libraryDefaults(kind: LibraryKind): Record<string, string | number | null> {
  const values: Record<string, string | number | null> = {};
  for (const field of libraryDefinitions[kind].fields) {
    if (field.type === 'number' || field.type === 'select' || field.type === 'switch') values[field.name] = field.default;
    else values[field.name] = null;
  }
  values.isActive ??= 1;
  return values;
}

/** What the library pages' loader hands the page (app/web/library-route.server.ts). */
export type LibraryMode = 'new' | 'edit' | 'delete' | null;

export type LibraryLoaderData =
  | { signedIn: false; kind: LibraryKind; title: string }
  | {
      signedIn: true;
      kind: LibraryKind;
      title: string;
      q: string;
      items: LibraryItem[];
      /** Pages of LIBRARY_PAGE_SIZE, newest first (`?page=`). */
      page: number;
      hasNext: boolean;
      mode: LibraryMode;
      item: LibraryItem | null;
    };
