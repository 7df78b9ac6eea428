import type { LoaderFunctionArgs } from '@remix-run/node';
import { quotePdf } from '~/models/quotes.server';
import { requireUserContext } from '~/services/auth.server';
import { quotePdfResponse } from '~/services/quote-pdf.server';
import { rateLimitedResponse } from '~/web/api.server';

/** GET /angebote/<id>.pdf: the quote as PDF (issue 26 §3). Someone else's or an unknown id is 404. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireUserContext(args);
  const result = await quotePdf(ctx, args.params.id);
  if (result.kind === 'rateLimited') throw rateLimitedResponse(result.retryAfterSeconds);
  if (result.kind !== 'ok') throw new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return quotePdfResponse(result.value);
}
