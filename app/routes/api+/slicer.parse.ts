import type { ActionFunctionArgs } from '@remix-run/node';
import { importSlicerFile } from '~/models/slicer-import.server';
import { getRequestContext } from '~/services/request-context.server';
import { methodNotAllowed } from '~/web/api.server';
import { readSlicerUpload, slicerParseResponse } from '~/web/slicer-upload.server';

/**
 * POST /api/slicer/parse (multipart, field `file`) → the summary as JSON, or
 * 400 `{ message }` in German. Open to visitors; the file is streamed (up to
 * 1 GB, head and tail kept) and never stored.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(['POST']);
  const ctx = await getRequestContext(args);
  return slicerParseResponse(await importSlicerFile({ em: ctx.em, ip: ctx.ip }, () => readSlicerUpload(args.request)));
}

export async function loader() {
  return methodNotAllowed(['POST']);
}
