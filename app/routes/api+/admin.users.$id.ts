import type { ActionFunctionArgs } from '@remix-run/node';
import { deleteUserAsAdmin } from '~/models/admin-users.server';
import { getServerT } from '~/i18n.server';
import { getRequestContext } from '~/services/auth.server';
import { methodNotAllowed } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

export const allowedMethods = ['DELETE'] as const;

/**
 * DELETE /api/admin/users/<id> (spec §7): the account and everything it owns
 * (app/models/account-deletion.server.ts). Not oneself (403), not the last
 * admin (403), unknown id 404, Stripe unreachable 400 with nothing deleted.
 */
export async function action(args: ActionFunctionArgs) {
  if (args.request.method !== 'DELETE') return methodNotAllowed(allowedMethods);
  const ctx = await getRequestContext(args);
  const result = await deleteUserAsAdmin(ctx, { id: args.params.id ?? '' });
  const t = await getServerT('admin');
  return apiResult(result, ({ email }) => ({ message: t('users.deleted', { email }) }));
}
