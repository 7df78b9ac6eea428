import type { LoaderFunctionArgs } from '@remix-run/node';
import { exportProjectsCsv } from '~/models/project-csv.server';
import { requireUserContext } from '~/services/auth.server';
import { fileDownload } from '~/web/file-download.server';

/**
 * GET /projects.csv (issue 24 §4): the signed-in seller's projects as a German CSV file
 * (the 'Als CSV exportieren' link on /projects, works without JavaScript). Visitors are
 * sent to sign in and come back here.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args, { redirectTo: '/projects' });
  return fileDownload(await exportProjectsCsv(ctx), 'text/csv; charset=utf-8');
}
