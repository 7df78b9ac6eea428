import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { deleteProject, getProject, toApiProject, updateProjectFromBody } from '~/models/projects.server';
import { requireApiUserContext } from '~/services/auth.server';
import { malformedBodyResponse, methodNotAllowed, readBody } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

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
  return apiResult(await updateProjectFromBody(ctx, args.params.id, body), toApiProject);
}
