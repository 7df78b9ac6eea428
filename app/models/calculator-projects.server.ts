import {
  calculatorFieldNames,
  calculatorFields,
  extraLineFieldNames,
  filamentLinesOf,
  LINE_COUNT_PARAM,
  lineTextsOf,
  rawValuesFromSearchParams,
  toProjectPayload,
  withLineTexts,
  type CalculatorFieldValues,
  type CalculatorRawValues,
} from '../calculator/fields';
import { PROJECT_PARAM } from '../calculator/page';
import type { PickerState } from '../calculator/pickers';
import { calculatorSaveSchema, calculatorSchema } from '../calculator/schema';
import { queryPreparedTogether, type PreparedRead } from '../services/prepared-query.server';
import { isUserContext, type RequestContext, type UserContext } from '../services/request-context.server';
import type { ProjectUsage } from '../domain/projects';
import { withFilamentLines, type ProjectPayload } from '../domain/project-payload';
import { pickerStateOf } from './calculator-pickers.server';
import { applyCalculatorDefaults, calculatorDefaultsRead } from './calculator-defaults.server';
import { pickerItemsRead } from './library.server';
import { projectUsageRead } from './project-quota.server';
import { sellerDisplayNameRead } from './quotes.server';
import { releaseProductImage, uploadProductImage } from './product-images.server';
import { createProject, getProject, isProjectId, projectFormValues, updateProject } from './projects.server';
import { andThen, fieldErrors, ok, unauthorized, type Result } from '../domain/result';

/**
 * The calculator page's side of projects: what `/calculator?project=<id>`
 * shows, the save from the calculator form (page action, with and without
 * JavaScript) and the no-JS product image upload and removal. The rules
 * themselves are in projects.server.ts and product-images.server.ts.
 */

export type OpenedProject = {
  values: CalculatorRawValues;
  hidden: Record<string, string>;
  project: { id: string; name: string } | null;
  /** The id in the address is not one of the user's projects (foreign, deleted, malformed). */
  notFound: boolean;
  /** Field values in the address differ from the saved ones. */
  unsaved: boolean;
};

/**
 * Names the form submits for hidden values (image, library references): the field table's
 * hidden texts, and the library filaments of lines 2… (selectedFilament2, …).
 */
export const HIDDEN_PROJECT_FIELDS: string[] = [
  ...(Object.keys(calculatorFields) as (keyof typeof calculatorFields)[]).filter(
    (name) => calculatorFields[name].project !== false && !(calculatorFieldNames as string[]).includes(name),
  ),
  ...extraLineFieldNames.filter((name) => name.startsWith('selectedFilament')),
];

/**
 * The save payload of parsed form values: the table's fields, and the filament
 * lines (issue 23) when there are several or line 1 has a label. One plain line
 * is saved exactly as before the lines existed.
 */
export function calculatorProjectPayload(values: CalculatorFieldValues): ProjectPayload {
  const payload = toProjectPayload(values) as ProjectPayload;
  const lines = filamentLinesOf(values as unknown as Record<string, unknown>);
  if (lines.length > 1 || lines[0].label) withFilamentLines(payload, lines, { selectLine1: false });
  return payload;
}

function payloadOf(values: CalculatorRawValues): string | null {
  const parsed = calculatorSchema.safeParse(values);
  return parsed.success ? JSON.stringify(calculatorProjectPayload(parsed.data)) : null;
}

/**
 * The project's values with the address's fields on top: a shared link of an
 * edited, unsaved calculation keeps its edits (and says so).
 */
export async function openProject(ctx: UserContext, id: string, params: URLSearchParams, fromAddress: CalculatorRawValues): Promise<OpenedProject> {
  const found = await getProject(ctx, id);
  if (found.kind !== 'ok') return { values: fromAddress, hidden: {}, project: null, notFound: true, unsaved: false };
  const saved = projectFormValues(found.value);
  let values = { ...saved.values };
  let overridden = false;
  for (const name of calculatorFieldNames) {
    const value = params.get(name);
    if (value === null) continue;
    values[name] = value;
    overridden = true;
  }
  // An address with filament lines (a live draft, a shared link) brings its own lines; its
  // line count says so even when it went back to one line.
  if (params.has(LINE_COUNT_PARAM) || params.has('filamentLabel') || extraLineFieldNames.some((name) => params.has(name))) {
    values = withLineTexts(values, lineTextsOf(fromAddress));
    overridden = true;
  }
  const unsaved = overridden && payloadOf(values) !== payloadOf(saved.values);
  return { values, hidden: saved.hidden, project: { id: found.value.id, name: found.value.name }, notFound: false, unsaved };
}

export { isProjectId };

/** What `/calculator` shows: the values of the address, for a signed-in user over an opened project, with the pickers. */
export type CalculatorState = Omit<OpenedProject, 'notFound'> & {
  projectNotFound: boolean;
  pickers: PickerState | null;
  /** Issue 24 §4: '2 von 3 Projekten' at the save button (free users only; null for visitors and Premium). */
  projectUsage: ProjectUsage | null;
  /** The print sheet's header: the business name of the Geschäftsdaten, else the person (null for visitors). */
  sellerName: string | null;
};

/**
 * The calculator page of an address. Visitors get the address's values alone
 * (spec §4: a project opens by the address only for a signed-in user); a
 * signed-in user's `?apply=<picker>` (no JS) answers with the filled address.
 */
export async function openCalculator(ctx: UserContext | null, params: URLSearchParams): Promise<CalculatorState | { redirectTo: string }> {
  const fromAddress = rawValuesFromSearchParams(params);
  if (!ctx) return { values: fromAddress, hidden: {}, project: null, projectNotFound: false, unsaved: false, pickers: null, projectUsage: null, sellerName: null };
  const projectId = params.get(PROJECT_PARAM);
  const opened = projectId === null ? null : await openProject(ctx, projectId, params, fromAddress);
  const { values, hidden, project, unsaved } = opened ?? { values: fromAddress, hidden: {}, project: null, unsaved: false };
  // The pickers' items, the seller's defaults (issue 24 §4: a new calculation, an address without
  // values or a project, starts from them) and the project count: one statement, one round trip.
  const usageRead = projectUsageRead(ctx);
  const [lists, defaults, projectUsage, sellerName] = await queryPreparedTogether(ctx.em, [
    pickerItemsRead(ctx),
    projectId === null && isNewCalculation(params) ? calculatorDefaultsRead(ctx) : NO_DEFAULTS,
    usageRead ?? NO_USAGE,
    sellerDisplayNameRead(ctx),
  ]);
  // A reopened project's library references preselect the pickers unless the address names others.
  const pickerParams = new URLSearchParams(params);
  for (const [name, value] of Object.entries(hidden)) if (name.startsWith('selected') && !pickerParams.has(name)) pickerParams.set(name, value);
  const outcome = pickerStateOf(lists, pickerParams, values);
  // The applied values stay a draft of the opened project.
  if ('redirectTo' in outcome) return { redirectTo: project ? `${outcome.redirectTo}&${PROJECT_PARAM}=${project.id}` : outcome.redirectTo };
  if (defaults) {
    const started = applyCalculatorDefaults(values, defaults, outcome.state);
    return { values: started.values, hidden, project, projectNotFound: false, unsaved, pickers: started.pickers, projectUsage, sellerName };
  }
  return { values, hidden, project, projectNotFound: opened?.notFound ?? false, unsaved, pickers: outcome.state, projectUsage, sellerName };
}

// Reads that ask nothing of the database, for the parts a request does not need.
const NO_DEFAULTS: PreparedRead<null> = { sql: 'select 1 where false', params: [], read: () => null };
const NO_USAGE: PreparedRead<null> = { sql: 'select 1 where false', params: [], read: () => null };

/** '/calculator' itself: an address with any value, picker or import in it (a shared link) keeps what it says. */
function isNewCalculation(params: URLSearchParams): boolean {
  return params.size === 0;
}

const IMAGE_UNAUTHORIZED = 'projects:image.unauthorized';

/** The no-JS image upload: the file is stored as a product image; its path travels in the form until a save. */
export async function uploadCalculatorImage(ctx: RequestContext, image: Result<Buffer>): Promise<Result<{ productImagePath: string }>> {
  if (!isUserContext(ctx)) return unauthorized(IMAGE_UNAUTHORIZED);
  const uploaded = await andThen(image, (bytes) => uploadProductImage(ctx, bytes));
  return andThen(uploaded, ({ imagePath }) => ok({ productImagePath: imagePath }));
}

/** The no-JS image removal: an upload no project shows is deleted now; a saved project's image goes when the project is saved without it. */
export async function removeCalculatorImage(ctx: RequestContext, productImagePath: string | undefined): Promise<Result<{ productImagePath: string }>> {
  if (!isUserContext(ctx)) return unauthorized(IMAGE_UNAUTHORIZED);
  if (productImagePath) await releaseProductImage(ctx.em, productImagePath, ctx.user.id);
  return ok({ productImagePath: '' });
}

export type SavedProject = { id: string; name: string; created: boolean };

/**
 * Saves the submitted calculator form: creates a project, or updates the one
 * named by the form's `project` field. Invalid fields come back as field
 * errors (i18n keys by field name), the name first.
 */
export async function saveCalculatorProject(ctx: RequestContext, form: Record<string, unknown>): Promise<Result<SavedProject>> {
  if (!isUserContext(ctx)) return unauthorized('projects:toast.signInRequired');
  const parsed = calculatorSaveSchema.safeParse(form);
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      (errors[field] ??= []).push(issue.message);
    }
    return fieldErrors(errors);
  }
  const payload = calculatorProjectPayload(parsed.data);
  const projectId = typeof form.project === 'string' && form.project ? form.project : null;
  const result = projectId ? await updateProject(ctx, projectId, payload) : await createProject(ctx, payload);
  if (result.kind !== 'ok') return result;
  return { kind: 'ok', value: { id: result.value.id, name: result.value.name, created: !projectId } };
}
