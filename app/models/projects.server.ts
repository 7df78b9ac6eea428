import { DecimalType, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { minimumPrices } from '../calculator/engine';
import {
  calculatorFieldNames,
  calculatorFields,
  defaultRawValues,
  fieldDefaults,
  filamentTotals,
  lineFieldName,
  MAX_FILAMENT_LINES,
  MAX_NUMBER,
  withLineTexts,
  type AnyFieldName,
  type CalculatorFieldName,
  type CalculatorInput,
  type CalculatorRawValues,
  type FieldSpec,
} from '../calculator/fields';
import { formatDecimalInput, formatMoneyInput } from '../lib/number';
import { asNumericColumn } from '../lib/numeric-column';
import { Filament, Marketplace, Packaging, Printer, Project, ShippingProvider } from '../entities';
import type { UserContext } from '../services/request-context.server';
import { plainRowTable, type PlainRowTable } from '../services/plain-rows.server';
import { queryPrepared } from '../services/prepared-query.server';
import { searchText } from '../lib/search-text';
import { limitReached, withinProjectLimit } from './project-quota.server';
import { acceptProductImage, releaseProductImage } from './product-images.server';
import { parseProjectPayload, SELECTED_KEYS, type PayloadFilamentLine, type PayloadValue, type ProjectPayload, type SelectedKey } from '../domain/project-payload';
import { andThen, fieldErrors, notFound, ok, type Result } from '../domain/result';

/**
 * Projects: saved calculations of one user (spec §2 Projects, §3, §7).
 * Every operation is scoped by owner; another user's id is "not found".
 * The free plan's limit (project-quota.server.ts) is checked in the transaction that creates.
 */

import { DEFAULT_PROJECT_SORT, MAX_SEARCH_LENGTH, PROJECTS_PAGE_SIZE, type ProjectSort } from '../domain/projects';

export { MAX_SEARCH_LENGTH, PROJECTS_PAGE_SIZE };
export const COPY_SUFFIX = ' (Kopie)';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isProjectId(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

const LIBRARY_ENTITIES = {
  selectedFilament: Filament,
  selectedPrinter: Printer,
  selectedPackaging: Packaging,
  selectedShippingProvider: ShippingProvider,
  selectedMarketplace: Marketplace,
} as const satisfies Record<SelectedKey, unknown>;

/** Payload keys that are columns of their own; every other payload key lives in `extraInputs`. */
const COLUMN_NAMES = [
  'quantity', 'filamentWeight', 'filamentPricePerKg', 'printTime', 'printerWattage', 'electricityRate',
  'preparationTime', 'postProcessingTime', 'hourlyRate', 'packagingCost', 'shippingCost',
  'marketplacePlatform', 'marketplaceFeePercentage', 'marketplaceFeeFixed', 'productImagePath',
  'profitMargin', 'targetPrice', 'printerCost', 'printerLifetimeHours', 'vatPercent',
] as const satisfies readonly (keyof Project)[];
const COLUMNS = new Set<string>(COLUMN_NAMES);

/** Library ids that are the user's own; any other id is dropped (never stored, never an error). */
async function ownedSelections(em: EntityManager, userId: string, payload: ProjectPayload) {
  const selections: Partial<Record<SelectedKey, string | null>> = {};
  // One after another: inside a transaction they share one connection.
  for (const name of SELECTED_KEYS) {
    const id = payload[name];
    selections[name] = isProjectId(id) && (await em.count(LIBRARY_ENTITIES[name] as typeof Printer, { id, user: userId })) > 0 ? id : null;
  }
  return selections;
}

/**
 * The lines as stored: a filamentId stays only when it is one of the user's active
 * library filaments (a foreign or inactive id applies nothing, as in the pickers).
 */
async function ownedLines(em: EntityManager, userId: string, lines: PayloadFilamentLine[]): Promise<StoredFilamentLine[]> {
  const ids = [...new Set(lines.map((line) => line.filamentId).filter((id): id is string => isProjectId(id)))];
  const active = new Set(
    ids.length === 0 ? [] : (await em.find(Filament, { id: { $in: ids }, user: userId, isActive: 1 }, { fields: ['id'] })).map((f) => f.id),
  );
  return lines.map(({ grams, pricePerKg, label, filamentId }) => ({
    grams,
    pricePerKg,
    ...(label ? { label } : {}),
    ...(filamentId && active.has(filamentId) ? { filamentId } : {}),
  }));
}

/**
 * A library filament is being deleted: the user's projects keep their lines' values (a snapshot,
 * issue 23) but no longer name it, so no stored line points at a deleted row (as the
 * `selected_filament_id` column's `on delete set null` does for line 1). One UPDATE, run in the
 * deletion's transaction; only projects whose lines name the filament are written, and their
 * `updated_at` stays (nothing the seller changed). Answers how many projects were written.
 */
export async function forgetFilamentInProjectLines(em: EntityManager, userId: string, filamentId: string): Promise<number> {
  const written = await em.execute<{ id: string }[]>(
    `update projects set filaments = (
       select jsonb_agg(case when line->>'filamentId' = ? then line - 'filamentId' else line end order by position)
       from jsonb_array_elements(filaments) with ordinality as lines(line, position))
     where user_id = ? and jsonb_typeof(filaments) = 'array' and filaments @> jsonb_build_array(jsonb_build_object('filamentId', ?::text))
     returning id`,
    [filamentId, userId, filamentId],
  );
  return written.length;
}

/** A stored filament line (issue 23). */
export type StoredFilamentLine = { grams: number; pricePerKg: number; label?: string; filamentId?: string };

const LINE_LABEL_MAX = calculatorFields.filamentLabel.maxLength;

function storedLine(value: unknown): StoredFilamentLine | null {
  if (typeof value !== 'object' || value === null) return null;
  const { grams, pricePerKg, label, filamentId } = value as Record<string, unknown>;
  if (typeof grams !== 'number' || !Number.isFinite(grams) || grams < calculatorFields.filamentWeight.min || grams > MAX_NUMBER) return null;
  if (typeof pricePerKg !== 'number' || !Number.isFinite(pricePerKg) || pricePerKg < calculatorFields.filamentPricePerKg.min || pricePerKg > MAX_NUMBER) return null;
  const line: StoredFilamentLine = { grams, pricePerKg };
  if (typeof label === 'string' && label !== '') line.label = label.slice(0, LINE_LABEL_MAX);
  if (typeof filamentId === 'string' && isProjectId(filamentId)) line.filamentId = filamentId;
  return line;
}

/**
 * A project's filament lines, validated when read: the stored list when it is one
 * (1 to 16 sound lines), else one line from the filament columns (every project
 * saved before the lines, and a row a hand edit broke).
 */
export function projectFilamentLines(project: Pick<ProjectListItem, 'filaments' | 'filamentWeight' | 'filamentPricePerKg'> & { selectedFilament?: { id: string } | null }): StoredFilamentLine[] {
  const stored = project.filaments;
  if (Array.isArray(stored) && stored.length >= 1 && stored.length <= MAX_FILAMENT_LINES) {
    const lines = stored.map(storedLine);
    if (lines.every((line) => line !== null)) return lines as StoredFilamentLine[];
  }
  const line: StoredFilamentLine = { grams: project.filamentWeight, pricePerKg: project.filamentPricePerKg };
  const id = project.selectedFilament?.id;
  if (id) line.filamentId = id;
  return [line];
}

/** Runs inside the transaction that writes the project (the image's acceptance must commit with it). */
async function applyPayload(em: EntityManager, userId: string, project: Project, payload: ProjectPayload) {
  const selections = await ownedSelections(em, userId, payload);
  const previousImage = project.productImagePath ?? null;
  const image = await acceptProductImage(em, userId, (payload.productImagePath as string | null) ?? null, previousImage);
  const extras: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (name === 'name' || (SELECTED_KEYS as readonly string[]).includes(name) || name === 'productImagePath') continue;
    if (name === 'filaments' || value === undefined || Array.isArray(value)) continue;
    if (COLUMNS.has(name)) (project as unknown as Record<string, PayloadValue>)[name] = value;
    else if (value !== null) extras[name] = value;
  }
  project.filaments = payload.filaments ? await ownedLines(em, userId, payload.filaments) : null;
  project.name = payload.name;
  project.productImagePath = image;
  project.extraInputs = extras;
  for (const name of SELECTED_KEYS) {
    const id = selections[name];
    (project as unknown as Record<string, unknown>)[name] = id ? em.getReference(LIBRARY_ENTITIES[name] as typeof Printer, id) : null;
  }
  storePrices(em, project);
  return { replacedImage: previousImage && previousImage !== image ? previousImage : null };
}

/** Creates a project unless the user is at their project limit (checked in the same transaction). */
async function insertWithinLimit(ctx: UserContext, build: (em: EntityManager) => Promise<Project>): Promise<Result<Project>> {
  return ctx.em.transactional(async (em) => {
    if (!(await withinProjectLimit(ctx, em))) return limitReached();
    const project = await build(em);
    em.persist(project);
    await em.flush();
    return ok(project);
  });
}

export async function createProject(ctx: UserContext, payload: ProjectPayload): Promise<Result<Project>> {
  return insertWithinLimit(ctx, async (em) => {
    const project = em.create(Project, { ...emptyProject(), user: ctx.user.id } as never) as Project;
    await applyPayload(em, ctx.user.id, project, payload);
    return project;
  });
}

function emptyProject() {
  return {
    name: '',
    quantity: fieldDefaults.quantity,
    filamentWeight: fieldDefaults.filamentWeight,
    filamentPricePerKg: fieldDefaults.filamentPricePerKg,
    printTime: (fieldDefaults.printTimeHours as number) + (fieldDefaults.printTimeMinutes as number) / 60,
    printerWattage: fieldDefaults.printerWattage,
    electricityRate: fieldDefaults.electricityRate,
    preparationTime: fieldDefaults.preparationTime,
    postProcessingTime: fieldDefaults.postProcessingTime,
    hourlyRate: fieldDefaults.hourlyRate,
    packagingCost: fieldDefaults.packagingCost,
    shippingCost: fieldDefaults.shippingCost,
    marketplaceFeePercentage: fieldDefaults.marketplaceFeePercent,
    profitMargin: fieldDefaults.profitMargin,
    targetPrice: fieldDefaults.targetPrice,
    filaments: null,
  };
}

export async function getProject(ctx: UserContext, id: unknown): Promise<Result<Project>> {
  if (!isProjectId(id)) return notFound();
  const project = await ctx.em.findOne(Project, { id, user: ctx.user.id });
  return project ? ok(project) : notFound();
}

export async function updateProject(ctx: UserContext, id: unknown, payload: ProjectPayload): Promise<Result<Project>> {
  if (!isProjectId(id)) return notFound();
  const saved = await ctx.em.transactional(async (em) => {
    // Locked: two saves of one project at once (two tabs) apply one after the other, so the stored
    // prices are always those of the values the row ends with, never a mix of both saves.
    const project = await em.findOne(Project, { id, user: ctx.user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
    if (!project) return null;
    const { replacedImage } = await applyPayload(em, ctx.user.id, project, payload);
    // updatedAt moves on every save (even an unchanged one: the user saved it now).
    project.updatedAt = ctx.now;
    await em.flush();
    return { project, replacedImage };
  });
  if (!saved) return notFound();
  // After the commit: the project no longer shows the old image.
  if (saved.replacedImage) await releaseProductImage(ctx.em, saved.replacedImage);
  return ok(saved.project);
}

/**
 * The JSON API's update (PUT /api/projects/<id>): the body checked as a payload. A foreign id is
 * 404 even with a bad body: the answer never tells whether the project exists.
 */
export async function updateProjectFromBody(ctx: UserContext, id: unknown, body: Record<string, unknown>): Promise<Result<Project>> {
  const parsed = parseProjectPayload(body);
  if (parsed.ok) return updateProject(ctx, id, parsed.payload);
  return andThen<Project, Project>(await getProject(ctx, id), () => payloadErrors(parsed.errors));
}

/**
 * A copy for a variant (spec §7 copy payload): the name plus ' (Kopie)' and the
 * calculation's numbers. The image and the library references stay with the
 * original (a shared file would vanish when either is deleted). Beyond the
 * spec's list, the fixed marketplace fee, the VAT and the extra inputs are
 * copied too: without them the copy would price differently.
 */
export async function copyProject(ctx: UserContext, id: unknown): Promise<Result<Project>> {
  if (!isProjectId(id)) return notFound();
  const original = await ctx.em.findOne(Project, { id, user: ctx.user.id });
  if (!original) return notFound();
  const maxName = calculatorFields.projectName.maxLength;
  return insertWithinLimit(ctx, async (em) => {
    const copy = em.create(Project, {
      user: ctx.user.id,
      name: `${original.name.slice(0, maxName - COPY_SUFFIX.length)}${COPY_SUFFIX}`,
      quantity: original.quantity,
      filamentWeight: original.filamentWeight,
      filamentPricePerKg: original.filamentPricePerKg,
      printTime: original.printTime,
      printerWattage: original.printerWattage,
      electricityRate: original.electricityRate,
      preparationTime: original.preparationTime,
      postProcessingTime: original.postProcessingTime,
      hourlyRate: original.hourlyRate,
      packagingCost: original.packagingCost,
      shippingCost: original.shippingCost,
      marketplacePlatform: original.marketplacePlatform ?? null,
      marketplaceFeePercentage: original.marketplaceFeePercentage,
      marketplaceFeeFixed: original.marketplaceFeeFixed,
      profitMargin: original.profitMargin,
      targetPrice: original.targetPrice,
      printerCost: original.printerCost,
      printerLifetimeHours: original.printerLifetimeHours,
      vatPercent: original.vatPercent,
      extraInputs: { ...original.extraInputs },
      // The lines' values (a library id stays a reference to the same user's filament).
      filaments: original.filaments ? projectFilamentLines(original) : null,
    } as never) as Project;
    // The copy's own figures (the same as the original's unless the engine changed since).
    storePrices(em, copy);
    return copy;
  });
}

export async function deleteProject(ctx: UserContext, id: unknown): Promise<Result<{ name: string }>> {
  if (!isProjectId(id)) return notFound();
  const project = await ctx.em.findOne(Project, { id, user: ctx.user.id });
  if (!project) return notFound();
  const { name, productImagePath } = project;
  await ctx.em.remove(project).flush();
  if (productImagePath) await releaseProductImage(ctx.em, productImagePath);
  return ok({ name });
}

/** `%`, `_` and `\` are wildcards in LIKE; a search for "10%" means the text. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}


/** A project as the list reads it: its own columns, without the owner and library references. */
export type ProjectListItem = Pick<Project, (typeof LIST_PROPERTIES)[number]>;

export type ProjectPage = { items: ProjectListItem[]; page: number; hasNext: boolean; q: string; sort: ProjectSort };

/**
 * SQL order of each sort, each served by an index of `projects` (entities/project.entity.ts).
 * The price is the stored minimum price incl. VAT (written with every save); a project
 * without a possible price is last in both directions, equal prices by id.
 */
const SQL_ORDER: Record<ProjectSort, (table: PlainRowTable) => string> = {
  changed: (table) => `${table.column('updatedAt')} desc, ${table.column('id')} desc`,
  name: (table) => `lower(${table.column('name')}) asc, ${table.column('id')} asc`,
  price: (table) => `${table.column('minimumPriceWithVat')} asc nulls last, ${table.column('id')} asc`,
  'price-desc': (table) => `${table.column('minimumPriceWithVat')} desc nulls last, ${table.column('id')} asc`,
};

export function listItem(row: Record<string, unknown>): ProjectListItem {
  return {
    ...row,
    createdAt: new Date(row.createdAt as string | Date),
    updatedAt: new Date(row.updatedAt as string | Date),
    extraInputs: (row.extraInputs ?? {}) as Project['extraInputs'],
  } as ProjectListItem;
}

/**
 * One page of the user's projects, optionally filtered by a case-insensitive
 * substring of the name, newest change first or by name or minimum price
 * (issue 24 §4). No total count: counting 100,000 matches costs more than the
 * page itself, and the page links need only "is there a next page".
 */
export async function listProjects(
  ctx: UserContext,
  { q = '', page = 1, pageSize = PROJECTS_PAGE_SIZE, sort = DEFAULT_PROJECT_SORT }: { q?: string; page?: number; pageSize?: number; sort?: ProjectSort } = {},
): Promise<ProjectPage> {
  const query = searchText(q, MAX_SEARCH_LENGTH);
  const current = Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
  // A read-only list: plain rows of the project's own columns (services/plain-rows.server.ts),
  // none of the six references (owner, library selections) a card never shows.
  const table = plainRowTable(ctx.em, Project);
  const own = ownProjectsNamed(table, ctx, query);
  // Every order, the price too, is one index-ordered page (the price is a stored column).
  const tail = `${own.where} order by ${SQL_ORDER[sort](table)} limit ? offset ?`;
  const params = [...own.params, pageSize + 1, (current - 1) * pageSize];
  const rows = await table.select(LIST_PROPERTIES, tail, params);
  return { items: rows.slice(0, pageSize).map(listItem), page: current, hasNext: rows.length > pageSize, q: query, sort };
}

export const PROJECT_BATCH_SIZE = 500;

/**
 * The user's projects as the list reads them, newest change first, one keyset-ordered batch
 * at a time (the CSV export, issue 24 §4): never the whole account in memory. The cursor is
 * the last row's `updated_at` as PostgreSQL's text (microseconds; a JS Date would drop them
 * and skip or repeat rows) and id. `onBatch` is told each batch's size (tests count them).
 */
export async function* projectItemBatches(
  ctx: UserContext,
  { batchSize = PROJECT_BATCH_SIZE, onBatch }: { batchSize?: number; onBatch?: (size: number) => void } = {},
): AsyncGenerator<ProjectListItem[]> {
  const table = plainRowTable(ctx.em, Project);
  const [updatedAt, id] = [table.column('updatedAt'), table.column('id')];
  const select = (extra: string, params: unknown[]) =>
    queryPrepared<Record<string, unknown>>(
      ctx.em,
      `select ${LIST_PROPERTIES.map((name) => `${table.column(name)} as "${name}"`).join(', ')}, ${updatedAt}::text as "cursorAt"
       from ${table.table} where ${table.column('user')} = ?${extra} order by ${SQL_ORDER.changed(table)} limit ?`,
      [ctx.user.id, ...params, batchSize],
    );
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    const rows: Record<string, unknown>[] = cursor
      ? await select(` and (${updatedAt}, ${id}) < (?::timestamptz, ?::uuid)`, [cursor.at, cursor.id])
      : await select('', []);
    if (rows.length === 0) return;
    onBatch?.(rows.length);
    const last = rows[rows.length - 1];
    cursor = { at: last.cursorAt as string, id: last.id as string };
    yield rows.map((row) => {
      delete row.cursorAt;
      return listItem(numbersOf(row));
    });
    if (rows.length < batchSize) return;
  }
}

/** DECIMAL columns arrive as strings from a hand-written select (plainRowTable converts its own). */
function numbersOf(row: Record<string, unknown>): Record<string, unknown> {
  for (const name of DECIMAL_PROPERTIES) if (typeof row[name] === 'string') row[name] = Number(row[name]);
  return row;
}

const DECIMAL_PROPERTIES = COLUMN_NAMES.filter((name) => name !== 'quantity' && name !== 'marketplacePlatform' && name !== 'productImagePath');

/** What the engine reads of a project (its own columns), and what is stored from it. */
export const INPUT_PROPERTIES = ['id', 'name', 'createdAt', 'updatedAt', 'extraInputs', 'filaments', ...COLUMN_NAMES] as const;
const PRICE_PROPERTIES = ['totalCosts', 'minimumPrice', 'minimumPriceWithVat', 'pricesStored'] as const;
const LIST_PROPERTIES = [...INPUT_PROPERTIES, ...PRICE_PROPERTIES] as const;

/** A project's saved inputs as the engine reads them. */
export type ProjectInputs = Pick<Project, (typeof INPUT_PROPERTIES)[number]>;

export type ProjectPrices = { totalCosts: number | null; minimumPrice: number | null; minimumPriceWithVat: number | null };

/**
 * The engine's figures of the saved inputs (the CSV's three, the card's one): what every save
 * stores with the project. All null when no price is possible (the fee takes the whole sale).
 */
export function projectPrices(project: ProjectInputs): ProjectPrices {
  return minimumPrices(projectEngineInput(project)) ?? { totalCosts: null, minimumPrice: null, minimumPriceWithVat: null };
}

/**
 * Sets the stored figures of a project about to be written (every create, edit and copy),
 * priced from its values as the database will keep them: a DECIMAL column rounds at its scale
 * (a multi-line project's weighted € per kg, an electricity rate typed with six decimals), and
 * the list priced the read-back values, so the figures stay the ones it showed to the cent.
 */
function storePrices(em: EntityManager, project: Project) {
  const meta = em.getMetadata().get(Project.name);
  const saved: Record<string, unknown> = { ...project };
  for (const name of COLUMN_NAMES) {
    const prop = meta.properties[name];
    const value = saved[name];
    if (prop.customType instanceof DecimalType && typeof value === 'number') saved[name] = asNumericColumn(value, prop.scale ?? 0);
  }
  Object.assign(project, projectPricesOrNone(saved as ProjectInputs), { pricesStored: true });
}

/**
 * projectPrices, or none when the engine refuses the values (out of its range: a row edited by
 * hand): stored without a price (last in the price order, empty CSV cells) rather than failing
 * the save or the start's backfill.
 */
export function projectPricesOrNone(project: ProjectInputs): ProjectPrices {
  try {
    return projectPrices(project);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    console.warn(`[prices] project ${project.id ?? '(new)'} cannot be priced (${error.message}); stored without a price`);
    return { totalCosts: null, minimumPrice: null, minimumPriceWithVat: null };
  }
}

/**
 * A listed project's figures: the stored ones (every row after the start's backfill,
 * scripts/lib/migrate.ts), else the engine's for this one row (a row inserted by hand since).
 */
export function listedPrices(project: ProjectListItem): ProjectPrices {
  if (!project.pricesStored) return projectPricesOrNone(project);
  return { totalCosts: project.totalCosts ?? null, minimumPrice: project.minimumPrice ?? null, minimumPriceWithVat: project.minimumPriceWithVat ?? null };
}

/** How many projects `/angebote/neu` offers to choose from (the newest; a search finds the others). */
export const PROJECT_CHOICES_LIMIT = 200;

export type ProjectChoices = {
  choices: Array<{ id: string; name: string }>;
  /** More projects match than are offered (the page says to search). */
  capped: boolean;
  q: string;
  selected: string;
};

/**
 * The projects a quote can be made from (`/angebote/neu`): the newest changed ones matching the
 * optional name search, at most PROJECT_CHOICES_LIMIT, id and name only — a seller with 100,000
 * projects must not get them all in one select. The project named in the address
 * (`?project=<id>`, the list's 'Angebot' link) is offered and selected even when older.
 */
export async function listProjectChoices(ctx: UserContext, { q = '', project = '' }: { q?: string; project?: string } = {}): Promise<ProjectChoices> {
  const query = searchText(q, MAX_SEARCH_LENGTH);
  const table = plainRowTable(ctx.em, Project);
  const own = ownProjectsNamed(table, ctx, query);
  const rows = await table.select(['id', 'name'], `${own.where} order by ${SQL_ORDER.changed(table)} limit ?`, [...own.params, PROJECT_CHOICES_LIMIT + 1]);
  const choices = rows.slice(0, PROJECT_CHOICES_LIMIT).map((row) => ({ id: row.id as string, name: row.name as string }));
  if (isProjectId(project) && !choices.some((choice) => choice.id === project)) {
    const [wanted] = await table.select(['id', 'name'], `where ${table.column('user')} = ? and ${table.column('id')} = ?`, [ctx.user.id, project]);
    if (wanted) choices.unshift({ id: wanted.id as string, name: wanted.name as string });
  }
  const selected = choices.some((choice) => choice.id === project) ? project : (choices[0]?.id ?? '');
  return { choices, capped: rows.length > PROJECT_CHOICES_LIMIT, q: query, selected };
}

/** All of the user's projects, newest first (JSON API list; spec §7 has no paging). */
export async function listAllProjects(ctx: UserContext): Promise<Project[]> {
  return ctx.em.find(Project, { user: ctx.user.id }, { orderBy: { updatedAt: 'desc', id: 'desc' } });
}

/** The engine's input of a saved project. */
export function projectEngineInput(project: ProjectInputs): CalculatorInput {
  const input: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(calculatorFields) as [string, FieldSpec][]) {
    if (!('engine' in spec) || !spec.engine) continue;
    const stored = spec.project ? projectValue(project, spec.project) : undefined;
    input[name] = stored ?? spec.default;
  }
  input.printTime = project.printTime;
  // Several lines: the card's figure is the calculator's (the columns hold a rounded average).
  const lines = projectFilamentLines(project);
  if (lines.length > 1) input.filaments = lines.map(({ grams, pricePerKg }) => ({ grams, pricePerKg }));
  else [input.filamentWeight, input.filamentPricePerKg] = [lines[0].grams, lines[0].pricePerKg];
  return input as CalculatorInput;
}

/** A stored value by payload name (column, library reference id, or extra input). */
export function projectValue(project: ProjectInputs, name: string): PayloadValue | undefined {
  if (name === 'name') return project.name;
  if ((SELECTED_KEYS as readonly string[]).includes(name)) {
    const ref = (project as unknown as Record<string, { id: string } | null | undefined>)[name];
    return ref?.id ?? null;
  }
  if (COLUMNS.has(name)) return (project as unknown as Record<string, PayloadValue>)[name] ?? null;
  return project.extraInputs?.[name];
}

/** Minimum price incl. VAT of the saved inputs by the engine (spec §2 list card), or null when no price is possible. */
export function projectMinimumPriceWithVat(project: ProjectInputs): number | null {
  return projectPrices(project).minimumPriceWithVat;
}

/** The API's view (spec §7): the fee as `marketplaceFeePercentage`, the references as `selected…Id`. */
export function toApiProject(project: Project) {
  const extras = project.extraInputs ?? {};
  // Issue 23: always the lines, and the spec's two fields as their total and weighted average.
  const filaments = projectFilamentLines(project);
  const totals = filamentTotals(filaments);
  return {
    ...extras,
    id: project.id,
    name: project.name,
    quantity: project.quantity,
    filamentWeight: totals.grams,
    filamentPricePerKg: totals.pricePerKg,
    filaments,
    printTime: project.printTime,
    printerWattage: project.printerWattage,
    electricityRate: project.electricityRate,
    preparationTime: project.preparationTime,
    postProcessingTime: project.postProcessingTime,
    hourlyRate: project.hourlyRate,
    packagingCost: project.packagingCost,
    shippingCost: project.shippingCost,
    marketplacePlatform: project.marketplacePlatform ?? null,
    marketplaceFeePercentage: project.marketplaceFeePercentage,
    marketplaceFeeFixed: project.marketplaceFeeFixed,
    productImagePath: project.productImagePath ?? null,
    ...Object.fromEntries(SELECTED_KEYS.map((name) => [`${name}Id`, projectValue(project, name) ?? null])),
    profitMargin: project.profitMargin,
    targetPrice: project.targetPrice,
    printerCost: project.printerCost,
    printerLifetimeHours: project.printerLifetimeHours,
    vatPercent: project.vatPercent,
    userId: project.user.id,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}

/** Field errors of a payload as the operations' Result. */
export function payloadErrors(errors: Record<string, string[]>) {
  return fieldErrors(errors, { message: 'projects:errors.invalidPayload' });
}

/** A stored number as its input shows it: money with two decimals (a target price of 29,90, not 29,9; issue 24 §1). */
function numberText(spec: FieldSpec, value: number): string {
  return spec.kind === 'number' && 'money' in spec && spec.money ? formatMoneyInput(value) : formatDecimalInput(value);
}

/**
 * The calculator's input texts of a saved project (what `/calculator?project=<id>`
 * fills in), and the hidden values (image, library references) that travel with it.
 */
export function projectFormValues(project: Project): { values: CalculatorRawValues; hidden: Record<string, string> } {
  const values = defaultRawValues();
  const hidden: Record<string, string> = {};
  for (const [name, spec] of Object.entries(calculatorFields) as [AnyFieldName, FieldSpec][]) {
    if (!spec.project) continue;
    const stored = projectValue(project, spec.project);
    if (stored === undefined || stored === null) continue;
    const text = typeof stored === 'number' ? numberText(spec, stored) : typeof stored === 'boolean' ? (stored ? 'on' : '') : stored;
    if ((calculatorFieldNames as string[]).includes(name)) values[name as CalculatorFieldName] = text;
    else hidden[name] = text;
  }
  // The filament lines (issue 23): line 1 into the table's fields, lines 2… after them;
  // their library filaments ride along as hidden selectedFilament2… like line 1's.
  const lines = projectFilamentLines(project);
  if (project.filaments) {
    const texts = lines.map((line) => ({ grams: formatDecimalInput(line.grams), pricePerKg: formatMoneyInput(line.pricePerKg), label: line.label ?? '' }));
    Object.assign(values, withLineTexts(values, texts));
    lines.forEach((line, index) => {
      if (index > 0 && line.filamentId) hidden[lineFieldName('filamentId', index)] = line.filamentId;
    });
  }
  // Decimal hours back to the two inputs; 2.999999 h is 3 h 0 min, not 2 h 60 min.
  const totalMinutes = Math.round(project.printTime * 60);
  values.printTimeHours = formatDecimalInput(Math.floor(totalMinutes / 60));
  values.printTimeMinutes = formatDecimalInput(totalMinutes % 60);
  return { values, hidden };
}

/** The seller's own projects, those whose name contains `query` when there is one: the list's and the quote picker's filter. */
function ownProjectsNamed(table: PlainRowTable, ctx: UserContext, query: string): { where: string; params: unknown[] } {
  if (!query) return { where: `where ${table.column('user')} = ?`, params: [ctx.user.id] };
  return { where: `where ${table.column('user')} = ? and ${table.column('name')} ilike ?`, params: [ctx.user.id, likePattern(query)] };
}
