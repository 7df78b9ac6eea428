import type { LoaderFunctionArgs } from '@remix-run/node';
import { subscriptionStatusOf } from '~/models/premium.server';
import { requireApiUserContext } from '~/services/auth.server';
import { jsonResponse } from '~/web/api.server';

/** GET /api/subscription/status → { isPremium, status, currentPeriodEnd (Unix seconds) }; 401 for visitors. */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  return jsonResponse(subscriptionStatusOf(ctx.user, ctx.now));
}
