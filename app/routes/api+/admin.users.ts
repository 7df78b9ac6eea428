import type { LoaderFunctionArgs } from '@remix-run/node';
import { listUsers } from '~/models/admin-users.server';
import { getRequestContext } from '~/services/auth.server';
import { jsonResponse } from '~/web/api.server';
import { apiResult } from '~/web/result-response.server';

/**
 * GET /api/admin/users?search=text&page=n (spec §7): the users as an array
 * (newest first, 25 a page), the total in X-Total-Count; a search counts its
 * matches only up to a cap, and beyond it X-Total-Count is the cap and
 * X-Total-Count-Exact is false.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await getRequestContext(args);
  const url = new URL(args.request.url);
  const page = Number(url.searchParams.get('page') ?? '1');
  const result = await listUsers(ctx, { search: url.searchParams.get('search') ?? '', page: Number.isFinite(page) ? page : 1 });
  return apiResult(result, (list) =>
    jsonResponse(list.users, {
      headers: {
        'X-Total-Count': String(list.total),
        'X-Total-Count-Exact': String(list.totalExact),
        'X-Page': String(list.page),
        'X-Page-Size': String(list.pageSize),
      },
    }),
  );
}
