import type { ActionFunctionArgs } from '@remix-run/node';
import { andThen } from '~/domain/result';
import { uploadProductImage } from '~/models/product-images.server';
import { getUserContext } from '~/services/auth.server';
import { jsonResponse, messageResponse, methodNotAllowed } from '~/web/api.server';
import { readImageForm } from '~/web/image-upload.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['POST'] as const;

/**
 * POST /api/images/upload (multipart, field `image`) → { imagePath } (spec §7).
 * Visitors 401; the type is read from the bytes, at most 10 MB, re-encoded;
 * 429 when the user has too many uploads not saved with a project.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await getUserContext(args);
  if (!ctx) return messageResponse('projects:image.unauthorized', 401);
  const { image } = await readImageForm(args.request);
  return apiResult(await andThen(image, (bytes) => uploadProductImage(ctx, bytes)), (value) => jsonResponse(value));
}
