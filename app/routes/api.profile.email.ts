import type { ActionFunctionArgs } from '@remix-run/node';
import { cancelEmailChange, toPublicUser } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { jsonResponse, methodNotAllowed } from '~/utils/api.server';
import { requireApiUser } from '~/utils/auth.server';
import { getServerT } from '~/i18n.server';

/** DELETE /api/profile/email → { message, user }: withdraws a pending address change. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'DELETE') return methodNotAllowed(['DELETE']);
  const em = await getEm();
  const user = await requireApiUser(request, em);
  const result = await cancelEmailChange(em, user);
  const t = await getServerT('auth');
  return jsonResponse({ message: t('auth:messages.emailChangeCancelled'), user: toPublicUser(result.user) });
}
