import type { ActionFunctionArgs } from '@remix-run/node';
import { requestProfileUploadUrl } from '~/models/profile.server';
import { jsonResponse, methodNotAllowed } from '~/web/api.server';
import { requireApiUserContext } from '~/services/auth.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/profile/upload-url → { uploadURL }: a short-lived address to PUT
 * one JPEG to. The key names the user (`profile/<userId>/<random>`), so the
 * completion step accepts only this user's uploads; 429 over the user's
 * rate limit or quota of open uploads.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const result = await requestProfileUploadUrl(ctx);
  return apiResult(result, (value) => jsonResponse({ uploadURL: value.uploadURL }));
}
