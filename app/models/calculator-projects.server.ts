import {
  calculatorFieldNames,
  calculatorFields,
  extraLineFieldNames,
  filamentLinesOf,
  lineTextsOf,
  toProjectPayload,
  withLineTexts,
  type CalculatorFieldValues,
  type CalculatorRawValues,
} from '../calculator/fields';
import { calculatorSaveSchema, calculatorSchema } from '../calculator/schema';
import type { UserContext } from '../services/request-context.server';
import { withFilamentLines, type ProjectPayload } from '../domain/project-payload';
import { createProject, getProject, isProjectId, projectFormValues, updateProject } from './projects.server';
import { fieldErrors, type Result } from '../domain/result';

/**
 * The calculator page's side of projects: what `/calculator?project=<id>`
 * shows, and the save from the calculator form (page action, with and
 * without JavaScript). The rules themselves are in projects.server.ts.
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
  // An address with filament lines (a live draft, a shared link) brings its own lines.
  if (params.has('filamentLabel') || extraLineFieldNames.some((name) => params.has(name))) {
    values = withLineTexts(values, lineTextsOf(fromAddress));
    overridden = true;
  }
  const unsaved = overridden && payloadOf(values) !== payloadOf(saved.values);
  return { values, hidden: saved.hidden, project: { id: found.value.id, name: found.value.name }, notFound: false, unsaved };
}

export { isProjectId };

/**
 * Saves the submitted calculator form: creates a project, or updates the one
 * named by the form's `project` field. Invalid fields come back as field
 * errors (i18n keys by field name), the name first.
 */
export async function saveCalculatorProject(
  ctx: UserContext,
  form: Record<string, unknown>,
): Promise<Result<{ id: string; name: string; created: boolean }>> {
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
