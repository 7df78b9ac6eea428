import type { LoaderFunctionArgs } from '@remix-run/node';
import { toPublicUser } from '~/models/users.server';
import { getEm } from '~/services/db.server';
import { jsonResponse } from '~/utils/api.server';
import { requireApiUser } from '~/utils/auth.server';

/** GET /api/auth/user: the signed-in user, or 401 for visitors (spec §7). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireApiUser(request, await getEm());
  return jsonResponse(toPublicUser(user));
}
