import type { ActionFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { importSlicerFile } from '~/models/slicer-import.server';
import { getRequestContext } from '~/services/request-context.server';
import { readSlicerUpload } from '~/web/slicer-upload.server';
import { jsonResponse, methodNotAllowed, rateLimitedResponse } from '~/web/api.server';

/**
 * POST /api/slicer/parse (multipart, field `file`) → the summary as JSON, or
 * 400 `{ message }` in German. Open to visitors; the file is streamed (up to
 * 1 GB, head and tail kept) and never stored.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(['POST']);
  const ctx = await getRequestContext(args);
  const result = await importSlicerFile({ em: ctx.em, ip: ctx.ip }, () => readSlicerUpload(args.request));
  if (result.status === 'ok') return jsonResponse(result.summary);
  if (result.status === 'rateLimited') return rateLimitedResponse(result.retryAfterSeconds);
  const t = await getServerT('calculator');
  if (result.status === 'tooLarge') return jsonResponse({ message: t('slicer.errors.tooLarge') }, 413);
  if (result.status === 'badRequest') return jsonResponse({ message: t('slicer.errors.missingFile') }, 400);
  return jsonResponse({ message: t(`slicer.errors.${result.error.code}`, 'params' in result.error ? result.error.params : {}) }, 400);
}

export async function loader() {
  return methodNotAllowed(['POST']);
}
