import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { berlinDate, quoteInputSchema } from '~/domain/quotes';
import { deleteQuote, getQuote, toApiQuote, updateQuote } from '~/models/quotes.server';
import { requireApiUserContext } from '~/services/auth.server';
import { malformedBodyResponse, methodNotAllowed, readBody, validationErrorResponse, zodFieldErrors } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** GET /api/quotes/<id>: one of the user's quotes; another user's, a deleted or malformed id is 404. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  return apiResult(await getQuote(ctx, args.params.id), (quote) => toApiQuote(quote, berlinDate(ctx.now)));
}

/** PUT /api/quotes/<id> (a draft's customer, dates, lines, discount, closing text) → 200; DELETE (drafts only) → 204. */
export async function action(args: ActionFunctionArgs) {
  const method = args.request.method;
  if (method !== 'PUT' && method !== 'DELETE') return methodNotAllowed(['GET', 'PUT', 'DELETE']);
  const ctx = await requireApiUserContext(args);
  if (method === 'DELETE') return apiResult(await deleteQuote(ctx, args.params.id), () => new Response(null, { status: 204 }));
  const body = await readBody(args.request);
  if (!body) return malformedBodyResponse();
  const parsed = quoteInputSchema.safeParse(body);
  if (!parsed.success) {
    // A foreign id is 404 even with a bad body: the answer never tells whether the quote exists.
    return apiResult(await getQuote(ctx, args.params.id), () => validationErrorResponse(zodFieldErrors(parsed.error), 'quotes:errors.invalidInput'));
  }
  return apiResult(await updateQuote(ctx, args.params.id, parsed.data), (quote) => toApiQuote(quote, berlinDate(ctx.now)));
}
