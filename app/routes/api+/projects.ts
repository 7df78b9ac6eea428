import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { parseProjectPayload } from '~/domain/project-payload';
import { createProject, listAllProjects, payloadErrors, toApiProject } from '~/models/projects.server';
import { requireApiUserContext } from '~/services/auth.server';
import { malformedBodyResponse, jsonResponse, methodNotAllowed, readBody } from '~/web/api.server';
import { apiFailure, apiResult } from '~/web/result-response.server';

/** GET /api/projects → the user's projects, newest first (spec §7). */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  return jsonResponse((await listAllProjects(ctx)).map(toApiProject));
}

/** POST /api/projects (payload §3) → 201 with the project incl. id; 403 PROJECT_LIMIT_EXCEEDED at the free limit. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const ctx = await requireApiUserContext(args);
  const body = await readBody(args.request);
  if (!body) return malformedBodyResponse();
  const parsed = parseProjectPayload(body);
  if (!parsed.ok) return apiFailure(payloadErrors(parsed.errors));
  return apiResult(await createProject(ctx, parsed.payload), (project) => jsonResponse(toApiProject(project), 201));
}
