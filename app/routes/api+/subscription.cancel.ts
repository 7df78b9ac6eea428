import type { ActionFunctionArgs } from '@remix-run/node';
import { getServerT } from '~/i18n.server';
import { setCancelAtPeriodEnd } from '~/models/premium.server';
import { requireApiUserContext } from '~/services/auth.server';
import { methodNotAllowed } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

export const allowedMethods = ['POST'] as const;

/**
 * POST /api/subscription/cancel (empty body): cancels at the end of the paid
 * period → { message, isPremium, status, currentPeriodEnd, cancelAtPeriodEnd }.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'POST') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const result = await setCancelAtPeriodEnd(ctx, true);
  const t = await getServerT('premium');
  return apiResult(result, (status) => ({ message: t('toasts.cancelledText'), ...status, cancelAtPeriodEnd: true }));
}
