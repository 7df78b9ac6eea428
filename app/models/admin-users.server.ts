import { User } from '../entities';
import type { AdminUserPage } from '../domain/admin-views';
import { isAdmin } from '../domain/permissions';
import type { RequestContext } from '../services/request-context.server';
import { deleteAccount, type AccountDeletionDeps, type DeletedAccount } from './account-deletion.server';
import { adminRefusal } from './admin.server';
import { forbidden, notFound, type Result } from '../domain/result';

/** The users tab and `GET /api/admin/users` (spec §7): search, a page of users, the total. */
export const USERS_PAGE_SIZE = 25;
const SEARCH_MAX = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;


export type { AdminUserPage, AdminUserRow } from '../domain/admin-views';

type Row = {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_verified: boolean;
  is_premium: number;
  is_admin: number;
  subscription_status: string | null;
  created_at: Date;
  project_count: string;
};

/**
 * The number of all users (the unsearched list) is counted at most every 10 s
 * per process: counting 100,000 rows costs more than the whole page. A
 * deletion here forgets it; one on another instance shows within 10 s.
 */
const TOTAL_TTL_MS = 10_000;
let cachedTotal: { value: number; at: number } | null = null;

async function countAllUsers(ctx: RequestContext): Promise<number> {
  if (cachedTotal && Date.now() - cachedTotal.at < TOTAL_TTL_MS) return cachedTotal.value;
  const [row] = await ctx.em.execute<{ total: string }[]>(`select count(*) as total from users`);
  cachedTotal = { value: Number(row?.total ?? 0), at: Date.now() };
  return cachedTotal.value;
}

/** LIKE pattern for a substring, with LIKE's own characters taken literally. */
function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Case-insensitive substring search on address, first and last name (the
 * expression the trigram index `users_search_trgm_index` covers), newest
 * first, with each user's number of projects.
 */
export async function listUsers(ctx: RequestContext, input: { search?: string; page?: number }): Promise<Result<AdminUserPage>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const search = (input.search ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, SEARCH_MAX);
  const page = Math.max(1, Math.min(100_000, Math.floor(input.page ?? 1) || 1));
  const where = search ? `where lower(u.email || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like ?` : '';
  const params = search ? [likePattern(search)] : [];
  const offset = (page - 1) * USERS_PAGE_SIZE;
  let rows: (Row & { total?: string })[];
  let total: number;
  if (search) {
    // One pass of the trigram index gives the page and the number of matches (count over the matches, before the limit).
    rows = await ctx.em.execute<(Row & { total: string })[]>(
      `select u.id, u.email, u.first_name, u.last_name, u.email_verified, u.is_premium, u.is_admin, u.subscription_status, u.created_at,
              (select count(*) from projects p where p.user_id = u.id) as project_count, m.total
       from (select id, created_at, count(*) over () as total from users u ${where}
             order by created_at desc, id desc limit ? offset ?) m
       join users u on u.id = m.id
       order by m.created_at desc, m.id desc`,
      [...params, USERS_PAGE_SIZE, offset],
    );
    total = rows.length
      ? Number(rows[0].total)
      : Number((await ctx.em.execute<{ total: string }[]>(`select count(*) as total from users u ${where}`, params))[0]?.total ?? 0);
  } else {
    [rows, total] = await Promise.all([
      ctx.em.execute<Row[]>(
        `select u.id, u.email, u.first_name, u.last_name, u.email_verified, u.is_premium, u.is_admin, u.subscription_status, u.created_at,
                (select count(*) from projects p where p.user_id = u.id) as project_count
         from users u
         order by u.created_at desc, u.id desc
         limit ? offset ?`,
        [USERS_PAGE_SIZE, offset],
      ),
      countAllUsers(ctx),
    ]);
  }
  return {
    kind: 'ok',
    value: {
      users: rows.map((row) => ({
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        emailVerified: Boolean(row.email_verified),
        isPremium: Number(row.is_premium),
        isAdmin: Number(row.is_admin),
        subscriptionStatus: row.subscription_status,
        createdAt: new Date(row.created_at).toISOString(),
        projectCount: Number(row.project_count),
      })),
      total,
      page,
      pageSize: USERS_PAGE_SIZE,
      search,
    },
  };
}

/**
 * An admin deletes an account (deleteAccount): never their own here (that is
 * /profile, with the password), and never the last admin.
 */
export async function deleteUserAsAdmin(ctx: RequestContext, input: { id: string }, deps: AccountDeletionDeps = {}): Promise<Result<DeletedAccount>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  if (!UUID.test(input.id)) return notFound();
  if (input.id === ctx.user?.id) return forbidden('admin:users.cannotDeleteSelf');
  const target = await ctx.em.fork().findOne(User, { id: input.id }, { fields: ['id', 'isAdmin'] });
  if (!target) return notFound();
  if (isAdmin(target)) {
    // Locks the admins while counting, so two admins deleting each other at once cannot remove both.
    const admins = await ctx.em.execute<{ id: string }[]>(`select id from users where is_admin = 1 for update`);
    if (admins.length <= 1) return forbidden('admin:users.lastAdmin');
  }
  const result = await deleteAccount(ctx, { userId: input.id, by: 'admin' }, deps);
  if (result.kind === 'ok') cachedTotal = null;
  return result;
}
