import type { LoaderFunctionArgs } from '@remix-run/node';
import { toPublicUser } from '~/models/users.server';
import { jsonResponse } from '~/web/api.server';
import { requireApiUserContext } from '~/services/auth.server';

/** GET /api/auth/user: the signed-in user, or 401 for visitors (spec §7). */
export async function loader(args: LoaderFunctionArgs) {
  const { user } = await requireApiUserContext(args);
  return jsonResponse(toPublicUser(user));
}
