import type { ActionFunctionArgs } from '@remix-run/node';
import { applyStripeEvent } from '~/models/premium.server';
import { getEm } from '~/services/db.server';
import { readPaymentSettings } from '~/services/payment-config.server';
import { constructWebhookEvent } from '~/services/stripe.server';
import { jsonResponse, messageResponse, methodNotAllowed } from '~/web/api.server';

export const allowedMethods = ['POST'] as const;

/**
 * POST /api/stripe/webhook: Stripe's signed events (issue 21 §3). The
 * signature is checked over the raw body (400 otherwise, nothing changes);
 * handled types are applied from the payload (models/premium.server.ts),
 * others get 200 and are ignored. The webhook secret is read fresh, not from
 * the settings cache: a rotated secret works at once.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const signature = request.headers.get('stripe-signature');
  const raw = await request.text();
  const em = await getEm();
  const settings = await readPaymentSettings(em);
  if (!settings.webhookSecret) return messageResponse('premium:webhook.notConfigured', 400);
  if (!signature) return messageResponse('premium:webhook.badSignature', 400);
  let event;
  try {
    event = constructWebhookEvent(raw, signature, settings.webhookSecret);
  } catch {
    return messageResponse('premium:webhook.badSignature', 400);
  }
  const outcome = await applyStripeEvent(em.fork(), event);
  return jsonResponse({ received: true, outcome });
}
