import type { ActionFunctionArgs } from '@remix-run/node';
import { cancelOwnEmailChange } from '~/models/profile.server';
import { toPublicUser } from '~/models/users.server';
import { getServerT } from '~/i18n.server';
import { requireApiUserContext } from '~/services/auth.server';
import { methodNotAllowed } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/** The only method here; every other one is 405 with this Allow (also GET, database-outage.server.ts). */
export const allowedMethods = ['DELETE'] as const;

/** DELETE /api/profile/email → { message, user }: withdraws a pending address change. */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'DELETE') return methodNotAllowed(allowedMethods);
  const ctx = await requireApiUserContext(args);
  const result = await cancelOwnEmailChange(ctx);
  const t = await getServerT('auth');
  return apiResult(result, ({ user }) => ({ message: t('auth:messages.emailChangeCancelled'), user: toPublicUser(user) }));
}
