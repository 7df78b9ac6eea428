import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { berlinDate, createQuoteSchema } from '~/domain/quotes';
import { createQuote, listAllQuotes, toApiQuote } from '~/models/quotes.server';
import { requireApiUserContext } from '~/services/auth.server';
import { jsonResponse, malformedBodyResponse, methodNotAllowed, readBody, validationErrorResponse, zodFieldErrors } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** GET /api/quotes → the user's quotes, newest first (issue 26 §4). */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  const today = berlinDate(ctx.now);
  return jsonResponse((await listAllQuotes(ctx)).map((quote) => toApiQuote(quote, today)));
}

/** POST /api/quotes `{ projectId, customerName, customerAddress?, customerEmail? }` → 201 with a draft from the project. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  const ctx = await requireApiUserContext(args);
  const body = await readBody(args.request);
  if (!body) return malformedBodyResponse();
  const parsed = createQuoteSchema.safeParse(body);
  if (!parsed.success) return validationErrorResponse(zodFieldErrors(parsed.error), 'quotes:errors.invalidInput');
  return apiResult(await createQuote(ctx, parsed.data), (quote) => jsonResponse(toApiQuote(quote, berlinDate(ctx.now)), 201));
}
