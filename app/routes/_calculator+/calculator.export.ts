import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { buildCalculatorExport, exportFileName, serializeExport } from '~/calculator/export';
import { rawValuesFromSearchParams, rawValuesToSearchParams } from '~/calculator/fields';
import { getServerT } from '~/i18n.server';

/**
 * Without JavaScript the export button submits the calculator form here (plain
 * GET): a JSON download with inputs, results and a timestamp. With JavaScript
 * the browser builds the same file itself (no server call, spec §7). Invalid
 * input goes back to the calculator, which shows the messages.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const values = rawValuesFromSearchParams(new URL(request.url).searchParams);
  const now = new Date();
  const body = buildCalculatorExport(values, now);
  if (!body) return redirect(`/calculator?${rawValuesToSearchParams(values)}#ergebnis`);
  const t = await getServerT('calculator');
  return new Response(serializeExport(body), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${exportFileName(t('export.filePrefix'), now)}"`,
      'Cache-Control': 'no-store',
    },
  });
}
