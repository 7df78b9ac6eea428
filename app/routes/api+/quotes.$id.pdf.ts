import type { LoaderFunctionArgs } from '@remix-run/node';
import { quotePdf } from '~/models/quotes.server';
import { requireApiUserContext } from '~/services/auth.server';
import { apiResult } from '~/web/result-response.server';
import { quotePdfResponse } from '~/services/quote-pdf.server';

/** GET /api/quotes/<id>/pdf → the quote as PDF (the same file as /angebote/<id>.pdf). */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  return apiResult(await quotePdf(ctx, args.params.id), quotePdfResponse);
}
