import type { ActionFunctionArgs } from '@remix-run/node';
import { createSubscription } from '~/models/premium.server';
import { requireApiUserContext } from '~/services/auth.server';
import { methodNotAllowed } from '~/web/api.server';
import { getConsent } from '~/web/consent.server';
import { apiResult } from '~/web/result-response.server';

export const allowedMethods = ['POST'] as const;

/**
 * POST /api/subscription/create (empty body) → { clientSecret } of the first
 * invoice of an incomplete subscription, for the Payment Element. Refused
 * without payment-cookie consent, for Premium users, and in German when
 * payments are not set up or Stripe cannot be reached.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const consent = await getConsent(args.request);
  const result = await createSubscription(ctx, { paymentConsent: Boolean(consent?.preferences.payment) });
  return apiResult(result, ({ clientSecret }) => ({ clientSecret }));
}
