import type { ActionFunctionArgs } from '@remix-run/node';
import { berlinDate, sendQuoteSchema } from '~/domain/quotes';
import { getQuote, sendQuote, toApiQuote } from '~/models/quotes.server';
import { requireApiUserContext } from '~/services/auth.server';
import { malformedBodyResponse, methodNotAllowed, readBody, validationErrorResponse, zodFieldErrors } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** POST /api/quotes/<id>/send `{ to, subject, message }` → 200 with the quote (now 'sent'); 429 past the hourly cap. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(['POST']);
  const ctx = await requireApiUserContext(args);
  const body = await readBody(args.request);
  if (!body) return malformedBodyResponse();
  const parsed = sendQuoteSchema.safeParse(body);
  if (!parsed.success) {
    return apiResult(await getQuote(ctx, args.params.id), () => validationErrorResponse(zodFieldErrors(parsed.error), 'quotes:errors.invalidInput'));
  }
  return apiResult(await sendQuote(ctx, args.params.id, parsed.data), (quote) => toApiQuote(quote, berlinDate(ctx.now)));
}
