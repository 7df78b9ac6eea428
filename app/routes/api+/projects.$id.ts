import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { parseProjectPayload } from '~/domain/project-payload';
import { deleteProject, getProject, payloadErrors, toApiProject, updateProject } from '~/models/projects.server';
import { requireApiUserContext } from '~/services/auth.server';
import { malformedBodyResponse, methodNotAllowed, readBody } from '~/web/api.server';
import { apiFailure, apiResult } from '~/web/result-response.server';

/** GET /api/projects/<id>: one of the user's projects; another user's id, a deleted or malformed one is 404. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  return apiResult(await getProject(ctx, args.params.id), toApiProject);
}

/** PUT /api/projects/<id> (payload §3) → 200 with the project; DELETE → 204. */
export async function action(args: ActionFunctionArgs) {
  const method = args.request.method;
  if (method !== 'PUT' && method !== 'DELETE') return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  const ctx = await requireApiUserContext(args);
  if (method === 'DELETE') {
    return apiResult(await deleteProject(ctx, args.params.id), () => new Response(null, { status: 204 }));
  }
  const body = await readBody(args.request);
  if (!body) return malformedBodyResponse();
  const parsed = parseProjectPayload(body);
  // A foreign id is 404 even with a bad body: the answer never tells whether the project exists.
  if (!parsed.ok) {
    const existing = await getProject(ctx, args.params.id);
    return apiFailure(existing.kind === 'ok' ? payloadErrors(parsed.errors) : existing);
  }
  return apiResult(await updateProject(ctx, args.params.id, parsed.payload), toApiProject);
}
