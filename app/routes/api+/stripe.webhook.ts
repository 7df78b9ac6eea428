import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveStripeWebhook } from '~/models/premium.server';
import { getRequestContext } from '~/services/request-context.server';
import { methodNotAllowed } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

export const allowedMethods = ['POST'] as const;

/**
 * POST /api/stripe/webhook: Stripe's signed events (issue 21 §3), checked and
 * applied by receiveStripeWebhook (models/premium.server.ts); a bad signature
 * is a 400 and changes nothing, unknown types get 200 and are ignored.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const signature = args.request.headers.get('stripe-signature');
  const raw = await args.request.text();
  const result = await receiveStripeWebhook(await getRequestContext(args), { raw, signature });
  return apiResult(result, ({ outcome }) => ({ received: true, outcome }));
}
