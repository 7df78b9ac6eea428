import { calculatorPickers, pickerTexts, type PickerState } from '../calculator/pickers';
import { calculatorFields, type CalculatorRawValues } from '../calculator/fields';
import {
  DEFAULT_ITEM_FIELDS,
  DEFAULT_NUMBER_FIELDS,
  type CalculatorDefaultsInput,
  type CalculatorDefaultsValues,
  type DefaultItemField,
} from '../domain/calculator-defaults';
import { fieldErrors, ok, type Result } from '../domain/result';
import { CalculatorDefaults, Filament, Marketplace, Packaging, Printer, ShippingProvider } from '../entities';
import { formatDecimalInput, formatMoneyInput } from '../lib/number';
import { plainRowTable } from '../services/plain-rows.server';
import { queryPrepared, type PreparedRead } from '../services/prepared-query.server';
import type { UserContext } from '../services/request-context.server';
import { findActiveLibraryItem, listPickerItems } from './library.server';

/**
 * 'Meine Standardwerte' (issue 24 §4): stored per user, edited on /profile, and the
 * start of a signed-in seller's new calculation (`applyCalculatorDefaults`). The
 * visitor's calculator and shared links never see them.
 */

const ITEM_KIND = {
  defaultPrinter: 'printers',
  defaultFilament: 'filaments',
  defaultPackaging: 'packaging',
  defaultShippingProvider: 'shipping',
  defaultMarketplace: 'marketplaces',
} as const satisfies Record<DefaultItemField, string>;

const ITEM_ENTITY = {
  defaultPrinter: Printer,
  defaultFilament: Filament,
  defaultPackaging: Packaging,
  defaultShippingProvider: ShippingProvider,
  defaultMarketplace: Marketplace,
} as const;

const ITEM_NAMES = Object.values(DEFAULT_ITEM_FIELDS) as DefaultItemField[];

/** The user's stored defaults, or null when none were saved. */
export async function getCalculatorDefaults(ctx: UserContext): Promise<CalculatorDefaultsValues | null> {
  const read = calculatorDefaultsRead(ctx);
  return read.read(await queryPrepared<Record<string, unknown>>(ctx.em, read.sql, read.params));
}

/**
 * The defaults as a plain prepared read (every signed-in '/calculator' asks, with its pickers in
 * one statement: `queryPreparedTogether`); an entity (identity map, references) cost more than the query.
 */
export function calculatorDefaultsRead(ctx: UserContext): PreparedRead<CalculatorDefaultsValues | null> {
  const table = plainRowTable(ctx.em, CalculatorDefaults);
  return {
    sql: `select ${DEFAULTS_COLUMNS.map((name) => `${table.column(name)} as "${name}"`).join(', ')} from ${table.table} where ${table.column('user')} = ? limit 1`,
    params: [ctx.user.id],
    read: ([row]) => {
      if (!row) return null;
      const values = { smallBusiness: Boolean(row.smallBusiness) } as CalculatorDefaultsValues;
      // DECIMAL columns come as text from the driver (as JSON numbers when read together with others).
      for (const name of DEFAULT_NUMBER_FIELDS) values[name] = row[name] === null || row[name] === undefined ? null : Number(row[name]);
      for (const name of ITEM_NAMES) values[name] = (row[name] as string | null | undefined) ?? null;
      return values;
    },
  };
}

const DEFAULTS_COLUMNS = ['smallBusiness', ...DEFAULT_NUMBER_FIELDS, ...ITEM_NAMES];

/** A default as its input shows it: money with two decimals (22,50), other figures as typed (4,5), issue 24 §1. */
function inputText(name: (typeof DEFAULT_NUMBER_FIELDS)[number], value: number): string {
  return (calculatorFields[name] as { money?: boolean }).money ? formatMoneyInput(value) : formatDecimalInput(value);
}

/** The /profile form's texts: German decimals, '' for "not set". */
export function calculatorDefaultsFormValues(values: CalculatorDefaultsValues | null): Record<string, string> {
  const form: Record<string, string> = { smallBusiness: values?.smallBusiness ? 'on' : '' };
  for (const name of DEFAULT_NUMBER_FIELDS) form[name] = values?.[name] === null || values?.[name] === undefined ? '' : inputText(name, values[name]!);
  for (const name of ITEM_NAMES) form[name] = values?.[name] ?? '';
  return form;
}

/** Saves the defaults; a library id that is not one of the user's active items is refused next to its select. */
export async function saveCalculatorDefaults(ctx: UserContext, input: CalculatorDefaultsInput): Promise<Result<CalculatorDefaultsValues>> {
  const errors: Record<string, string[]> = {};
  for (const name of ITEM_NAMES) {
    const id = input[name];
    if (id && !(await findActiveLibraryItem(ctx, ITEM_KIND[name], id))) errors[name] = ['project-tools:defaults.errors.item'];
  }
  if (Object.keys(errors).length > 0) return fieldErrors(errors);
  const row = (await ctx.em.findOne(CalculatorDefaults, { user: ctx.user.id })) ?? ctx.em.create(CalculatorDefaults, { user: ctx.user.id } as never);
  for (const name of DEFAULT_NUMBER_FIELDS) row[name] = input[name];
  row.smallBusiness = input.smallBusiness;
  for (const name of ITEM_NAMES) {
    const id = input[name];
    (row as unknown as Record<string, unknown>)[name] = id ? ctx.em.getReference(ITEM_ENTITY[name] as typeof Printer, id) : null;
  }
  row.updatedAt = ctx.now;
  await ctx.em.persist(row).flush();
  return ok((await getCalculatorDefaults(ctx))!);
}

/** The user's active library items by picker (the profile form's selects). */
export async function defaultItemOptions(ctx: UserContext): Promise<Record<DefaultItemField, Array<{ id: string; name: string }>>> {
  const lists = await listPickerItems(ctx);
  const options = {} as Record<DefaultItemField, Array<{ id: string; name: string }>>;
  for (const picker of calculatorPickers) options[DEFAULT_ITEM_FIELDS[picker.id]] = lists[picker.kind].map(({ id, name }) => ({ id, name }));
  return options;
}

/** What the data export (GDPR) holds of them. */
export async function exportCalculatorDefaults(ctx: UserContext): Promise<CalculatorDefaultsValues | null> {
  return getCalculatorDefaults(ctx);
}

/**
 * A new calculation of a signed-in seller: the calculator's defaults with the seller's
 * numbers on top, and each default library item chosen in its picker with its values
 * filled in (an item deleted or switched off since is skipped).
 */
export function applyCalculatorDefaults(values: CalculatorRawValues, defaults: CalculatorDefaultsValues, pickers: PickerState): { values: CalculatorRawValues; pickers: PickerState } {
  const next = { ...values };
  for (const name of DEFAULT_NUMBER_FIELDS) {
    const value = defaults[name];
    if (value !== null && value >= calculatorFields[name].min) next[name] = inputText(name, value);
  }
  if (defaults.smallBusiness) next.smallBusiness = 'on';
  const selected = { ...pickers.selected };
  for (const picker of calculatorPickers) {
    const id = defaults[DEFAULT_ITEM_FIELDS[picker.id]];
    const item = id ? pickers.items[picker.id].find((entry) => entry.id === id) : undefined;
    if (!item) continue;
    selected[picker.id] = item.id;
    for (const [field, text] of pickerTexts(picker, item)) next[field] = text;
  }
  return { values: next, pickers: { ...pickers, selected } };
}
