import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { importSlicerFile } from '~/models/slicer-import.server';
import { getRequestContext } from '~/services/request-context.server';
import { readSlicerUpload, slicerImportRedirect } from '~/web/slicer-upload.server';

/**
 * The slicer import without JavaScript: a multipart post of the file and the
 * calculator's current texts. It has its own address because it alone may
 * stream up to 1 GB (app/server/request-guard.server.ts); the file is read as
 * it streams (head and tail kept, nothing stored). The answer is a redirect to
 * the calculation link with weight and print time filled in and the import
 * notice (or its German error) in the link.
 */
export async function action(args: ActionFunctionArgs) {
  const ctx = await getRequestContext(args);
  return slicerImportRedirect(await importSlicerFile({ em: ctx.em, ip: ctx.ip }, () => readSlicerUpload(args.request)), ctx);
}

/** Nothing to show at this address: a GET goes to the calculator. */
export function loader() {
  return redirect('/calculator');
}
