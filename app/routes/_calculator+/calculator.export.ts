import type { LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { evaluateCalculator } from '~/calculator/evaluate';
import { rawValuesFromSearchParams, rawValuesToSearchParams } from '~/calculator/fields';
import { getServerT } from '~/i18n.server';

/**
 * The export button submits the calculator form here (plain GET, so it works
 * without JS): a JSON download with inputs, results and a timestamp. Invalid
 * input goes back to the calculator, which shows the messages.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const values = rawValuesFromSearchParams(new URL(request.url).searchParams);
  const evaluation = evaluateCalculator(values);
  if (evaluation.status === 'invalid') {
    return redirect(`/calculator?${rawValuesToSearchParams(values)}`);
  }
  const now = new Date();
  const t = await getServerT('calculator');
  const body = {
    exportedAt: now.toISOString(),
    currency: 'EUR',
    projectName: values.projectName,
    inputs: evaluation.input,
    results: evaluation.status === 'ok' ? evaluation.result : null,
    ...(evaluation.status === 'impossible' ? { error: 'marketplaceFeeTooHigh', partialResults: evaluation.partial } : {}),
  };
  const fileName = `${t('export.filePrefix')}-${now.toISOString().slice(0, 10)}.json`;
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'no-store',
    },
  });
}
