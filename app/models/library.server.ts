import type { EntityManager } from '@mikro-orm/postgresql';
import { getServerT } from '../i18n.server';
import { Filament, Marketplace, Packaging, Printer, ShippingProvider, User } from '../entities';
import {
  LIBRARY_KINDS,
  libraryDefaults,
  libraryDefinitions,
  libraryErrorKeys,
  librarySchema,
  type LibraryInput,
  type LibraryItem,
  type LibraryKind,
} from '../domain/library-definitions';
import { plainRowTable } from '../services/plain-rows.server';
import { queryPrepared, type PreparedRead } from '../services/prepared-query.server';
import { searchText } from '../lib/search-text';
import { findPreset } from '../domain/library-presets';
import { forgetFilamentInProjectLines } from './projects.server';
import { fieldErrors, notFound, ok, type Result } from '../domain/result';

/**
 * The library operations, one implementation for the five kinds: each takes
 * the request context (`{ em, user }`) and answers a Result. Every query is
 * scoped by owner; someone else's id (or a malformed one) is notFound.
 * The pages (web/library-route.server.ts) and the JSON API call these.
 */

export type LibraryContext = { em: EntityManager; user: User };

type LibraryEntity = Printer | Filament | Packaging | ShippingProvider | Marketplace;
type EntityClass = typeof Printer | typeof Filament | typeof Packaging | typeof ShippingProvider | typeof Marketplace;

export const libraryEntities: Record<LibraryKind, EntityClass> = {
  printers: Printer,
  filaments: Filament,
  packaging: Packaging,
  shipping: ShippingProvider,
  marketplaces: Marketplace,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Longest search text we look for; a longer one cannot match a 100-character name anyway. */
export const SEARCH_MAX = 100;

/** The §7 shape: the stored fields, userId, isActive as 1/0, ISO timestamps. */
export function toLibraryItem(kind: LibraryKind, entity: LibraryEntity): LibraryItem {
  const record = entity as unknown as Record<string, unknown>;
  const item: Record<string, string | number | null> = {
    id: entity.id,
    userId: typeof record.user === 'object' && record.user ? (record.user as { id: string }).id : null,
  };
  for (const field of libraryDefinitions[kind].fields) {
    const value = record[field.name];
    item[field.name] = value === undefined ? null : (value as string | number | null);
  }
  item.isActive = Number(entity.isActive) === 1 ? 1 : 0;
  item.createdAt = entity.createdAt.toISOString();
  item.updatedAt = entity.updatedAt.toISOString();
  return item as LibraryItem;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** Library cards per page (a multiple of the grid's 1, 2 and 3 columns). */
export const LIBRARY_PAGE_SIZE = 48;

export type LibraryPage = { items: LibraryItem[]; page: number; hasNext: boolean };

/**
 * The user's items of a kind, newest first, optionally filtered by `q`
 * (case-insensitive substring on the kind's search fields). Without `page`
 * the whole list (the JSON API's answer, spec §7); with it one page of
 * LIBRARY_PAGE_SIZE, so a print farm's 200 printers cost what 48 do.
 */
export async function listLibraryItems(ctx: LibraryContext, kind: LibraryKind, options: { q?: string | null } = {}): Promise<Result<LibraryItem[]>> {
  return ok((await selectLibraryItems(ctx, kind, options.q, null)).items);
}

export async function listLibraryPage(ctx: LibraryContext, kind: LibraryKind, { q, page }: { q?: string | null; page: number }): Promise<LibraryPage> {
  const current = Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
  return selectLibraryItems(ctx, kind, q, current);
}

/**
 * One query straight into the §7 shape: plain rows, no entity hydration (the
 * list is read, never changed, and hydrating 200 entities with their user
 * reference cost more than the query itself).
 */
async function selectLibraryItems(ctx: LibraryContext, kind: LibraryKind, q: string | null | undefined, page: number | null): Promise<LibraryPage> {
  const definition = libraryDefinitions[kind];
  const rows = plainRowTable(ctx.em, libraryEntities[kind]);
  const search = searchText(q, SEARCH_MAX);
  const params: unknown[] = [ctx.user.id];
  let tail = `where ${rows.column('user')} = ?`;
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    tail += ` and (${definition.searchFields.map((field) => (params.push(pattern), `${rows.column(field)} ilike ?`)).join(' or ')})`;
  }
  tail += ` order by ${rows.column('createdAt')} desc, ${rows.column('id')} desc`;
  if (page !== null) {
    tail += ' limit ? offset ?';
    params.push(LIBRARY_PAGE_SIZE + 1, (page - 1) * LIBRARY_PAGE_SIZE);
  }
  const names = definition.fields.map((field) => field.name).filter((name) => name !== 'isActive');
  const found = await rows.select(['id', ...names, 'isActive', 'createdAt', 'updatedAt'], tail, params);
  const items = found.slice(0, page === null ? found.length : LIBRARY_PAGE_SIZE).map((row) => {
    const item: Record<string, string | number | null> = { id: String(row.id), userId: ctx.user.id };
    for (const name of names) item[name] = (row[name] ?? null) as string | number | null;
    item.isActive = Number(row.isActive) === 1 ? 1 : 0;
    item.createdAt = new Date(row.createdAt as string | Date).toISOString();
    item.updatedAt = new Date(row.updatedAt as string | Date).toISOString();
    return item as LibraryItem;
  });
  return { items, page: page ?? 1, hasNext: page !== null && found.length > LIBRARY_PAGE_SIZE };
}

async function findOwned(ctx: LibraryContext, kind: LibraryKind, id: unknown): Promise<LibraryEntity | null> {
  if (typeof id !== 'string' || !UUID.test(id)) return null;
  return (await ctx.em.findOne(libraryEntities[kind] as typeof Printer, { id, user: ctx.user.id })) as LibraryEntity | null;
}

export async function getLibraryItem(ctx: LibraryContext, kind: LibraryKind, id: unknown): Promise<Result<LibraryItem>> {
  const entity = await findOwned(ctx, kind, id);
  return entity ? ok(toLibraryItem(kind, entity)) : notFound();
}

/** Validates raw input (form fields or a JSON body) with the kind's one schema. */
export function parseLibraryInput(kind: LibraryKind, raw: unknown): Result<LibraryInput> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fieldErrors({ '': [libraryErrorKeys.invalidBody] });
  const parsed = librarySchema(kind).safeParse(raw);
  if (parsed.success) return ok(parsed.data);
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : '';
    const list = (errors[field] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return fieldErrors(errors);
}

function assign(kind: LibraryKind, entity: LibraryEntity, input: LibraryInput) {
  const record = entity as unknown as Record<string, unknown>;
  for (const field of libraryDefinitions[kind].fields) {
    if (input[field.name] !== undefined) record[field.name] = input[field.name];
  }
  if (input.isActive !== undefined) entity.isActive = Number(input.isActive);
}

/** Creates an item; missing fields get the form defaults (spec §9), a missing name is an error. */
export async function createLibraryItem(ctx: LibraryContext, kind: LibraryKind, raw: unknown): Promise<Result<LibraryItem>> {
  const parsed = parseLibraryInput(kind, raw);
  if (parsed.kind !== 'ok') return parsed;
  const input = { ...libraryDefaults(kind), ...stripUndefined(parsed.value) };
  if (typeof input.name !== 'string' || input.name === '') return fieldErrors({ name: [libraryErrorKeys.nameRequired] });
  const entity = ctx.em.create(libraryEntities[kind] as typeof Printer, { user: ctx.em.getReference(User, ctx.user.id) } as never) as LibraryEntity;
  assign(kind, entity, input);
  await ctx.em.persistAndFlush(entity);
  return ok(toLibraryItem(kind, entity));
}

/** Updates an owned item; fields left out keep their stored value. */
export async function updateLibraryItem(ctx: LibraryContext, kind: LibraryKind, id: unknown, raw: unknown): Promise<Result<LibraryItem>> {
  const entity = await findOwned(ctx, kind, id);
  if (!entity) return notFound();
  const parsed = parseLibraryInput(kind, raw);
  if (parsed.kind !== 'ok') return parsed;
  assign(kind, entity, parsed.value);
  await ctx.em.flush();
  return ok(toLibraryItem(kind, entity));
}

export async function deleteLibraryItem(ctx: LibraryContext, kind: LibraryKind, id: unknown): Promise<Result<LibraryItem>> {
  const entity = await findOwned(ctx, kind, id);
  if (!entity) return notFound();
  const item = toLibraryItem(kind, entity);
  if (kind !== 'filaments') {
    await ctx.em.removeAndFlush(entity);
    return ok(item);
  }
  // A filament: the projects' lines keep its values but forget its id, in the same transaction.
  await ctx.em.transactional(async (tx) => {
    await forgetFilamentInProjectLines(tx, ctx.user.id, entity.id);
    tx.remove(entity);
  });
  return ok(item);
}

/** Takes an item out of (or back into) the calculator's pickers without deleting it. */
export async function setLibraryItemActive(
  ctx: LibraryContext,
  kind: LibraryKind,
  id: unknown,
  active: boolean,
): Promise<Result<LibraryItem>> {
  const entity = await findOwned(ctx, kind, id);
  if (!entity) return notFound();
  entity.isActive = active ? 1 : 0;
  await ctx.em.flush();
  return ok(toLibraryItem(kind, entity));
}

function stripUndefined(input: LibraryInput): Record<string, string | number | null> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Record<string, string | number | null>;
}

/** An item as the calculator's pickers need it: id, name and its numbers. */
export type PickerRow = { id: string; name: string } & Record<string, string | number>;
export type PickerItems = Record<LibraryKind, PickerRow[]>;

let pickerSql: string | null = null;

/** Texts a kind's picker items bring along besides the numbers (calculator/pickers.ts `carries`). */
const PICKER_TEXTS: Partial<Record<LibraryKind, readonly string[]>> = { filaments: ['material', 'color', 'brand'] };

/**
 * One UNION ALL over the five tables, built once from the definitions and the
 * ORM's column names: only id, name and the numbers, no entity hydration.
 */
function pickerQuery(em: EntityManager): string {
  if (pickerSql) return pickerSql;
  const parts = LIBRARY_KINDS.map((kind, index) => {
    const meta = em.getMetadata().get(libraryEntities[kind].name);
    const column = (property: string) => meta.properties[property as never].fieldNames[0];
    const numbers = libraryDefinitions[kind].fields.filter((field) => field.type === 'number' || PICKER_TEXTS[kind]?.includes(field.name));
    const json = numbers.map((field) => `'${field.name}', "${column(field.name)}"`).join(', ');
    return `select ${index} as k, "id", "name", json_build_object(${json}) as v from "${meta.tableName}" where "${column('user')}" = ? and "${column('isActive')}" = 1`;
  });
  pickerSql = parts.join(' union all ');
  return pickerSql;
}

type PickerQueryRow = { k: number; id: string; name: string; v: Record<string, string | number> };

/**
 * The calculator's five pickers: the user's ACTIVE items of every kind, in
 * one query (one round trip whatever the library sizes); as a read that can
 * join others in one statement (`queryPreparedTogether`).
 */
export function pickerItemsRead(ctx: LibraryContext): PreparedRead<PickerItems> {
  return {
    sql: pickerQuery(ctx.em),
    params: LIBRARY_KINDS.map(() => ctx.user.id),
    orderBy: 't.k, t.name, t.id',
    read: (rows) => toPickerItems(rows as PickerQueryRow[]),
  };
}

export async function listPickerItems(ctx: LibraryContext): Promise<PickerItems> {
  const read = pickerItemsRead(ctx);
  return read.read(await queryPrepared<Record<string, unknown>>(ctx.em, `${read.sql} order by k, name, id`, read.params));
}

function toPickerItems(rows: PickerQueryRow[]): PickerItems {
  const lists = Object.fromEntries(LIBRARY_KINDS.map((kind) => [kind, [] as PickerRow[]])) as PickerItems;
  // A plain loop: this runs for every item on every signed-in calculator request.
  for (const row of rows) {
    const item: PickerRow = { id: row.id, name: row.name };
    for (const name in row.v) {
      const value = row.v[name];
      const text = PICKER_TEXTS[LIBRARY_KINDS[row.k]]?.includes(name);
      if (!text) item[name] = Number(value);
      else if (typeof value === 'string') item[name] = value;
    }
    lists[LIBRARY_KINDS[row.k]].push(item);
  }
  return lists;
}

/** An active item of the user's own, or null (a foreign, inactive or malformed id applies nothing). */
export async function findActiveLibraryItem(ctx: LibraryContext, kind: LibraryKind, id: unknown): Promise<LibraryItem | null> {
  const entity = await findOwned(ctx, kind, id);
  return entity && Number(entity.isActive) === 1 ? toLibraryItem(kind, entity) : null;
}

/**
 * "In meine Bibliothek übernehmen": a new item with a preset's figures from the advice table.
 * Pressed again (or twice in a row), the item already taken over is answered instead of a second,
 * identical one: `created` says which.
 */
export async function createLibraryItemFromPreset(
  ctx: LibraryContext,
  kind: LibraryKind,
  presetId: unknown,
): Promise<Result<{ item: LibraryItem; created: boolean }>> {
  const preset = findPreset(kind, presetId);
  if (!preset) return notFound();
  const t = await getServerT('library');
  const texts: Record<string, string> = Object.fromEntries(preset.texts.map((field) => [field, t(`library:presets.${preset.id}.${field}`)]));
  const existing = await findSameItem(ctx, kind, { ...texts, ...preset.values });
  if (existing) return ok({ item: toLibraryItem(kind, existing), created: false });
  const result = await createLibraryItem(ctx, kind, { ...texts, ...preset.values });
  return result.kind === 'ok' ? ok({ item: result.value, created: true }) : result;
}

/** The user's item of this kind with the same name and figures, if any (the newest). */
async function findSameItem(ctx: LibraryContext, kind: LibraryKind, values: Record<string, string | number>): Promise<LibraryEntity | null> {
  const candidates = (await ctx.em.find(
    libraryEntities[kind] as typeof Marketplace,
    { user: ctx.user, name: String(values.name) },
    { orderBy: { createdAt: 'desc' }, limit: 20 },
  )) as LibraryEntity[];
  return (
    candidates.find((candidate) => {
      const record = candidate as unknown as Record<string, unknown>;
      return Object.entries(values).every(([name, value]) => (typeof value === 'number' ? Number(record[name]) === value : String(record[name] ?? '') === value));
    }) ?? null
  );
}
