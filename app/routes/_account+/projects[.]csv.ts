import type { LoaderFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { exportProjectsCsv } from '~/models/project-csv.server';
import { requireUserContext } from '~/services/auth.server';
import { fileDownload } from '~/web/file-download.server';

/**
 * GET /projects.csv (issue 24 §4): the signed-in seller's projects as a German CSV file
 * (the 'Als CSV exportieren' link on /projects, works without JavaScript). Visitors are
 * sent to sign in and come back here. Over the export's rate limit the link goes back to
 * /projects with a German toast; a script or API client gets the JSON 429.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args, { redirectTo: '/projects' });
  const t = await getServerT('project-tools');
  return fileDownload(await exportProjectsCsv(ctx), 'text/csv; charset=utf-8', {
    request: args.request,
    redirectTo: '/projects',
    title: t('csv.rateLimitedTitle'),
  });
}
