import type { LoaderFunctionArgs } from '@remix-run/node';
import { quotePdf } from '~/models/quotes.server';
import { requireUserContext } from '~/services/auth.server';
import { quotePdfResponse } from '~/services/quote-pdf.server';
import { resourceResult } from '~/web/result-response.server';

/** GET /angebote/<id>.pdf: the quote as PDF (issue 26 §3). Someone else's or an unknown id is 404. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args);
  return resourceResult(await quotePdf(ctx, args.params.id), quotePdfResponse);
}
