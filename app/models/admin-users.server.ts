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
  project_count: number | null;
};

/**
 * A search counts its matches up to this many (and at least one page past the
 * one shown): beyond, the tab says "mehr als 1.000" instead of walking every
 * match of a search as wide as "example" (300 ms among 100,000 users).
 */
export const SEARCH_COUNT_CAP = 1000;

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

/** The expression the trigram index `users_search_trgm_index` covers (user.entity.ts): keep them identical. */
export const SEARCH_MATCH = `lower(u.email || ' ' || coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) like ?`;

const COLUMNS = `u.id, u.email, u.first_name, u.last_name, u.email_verified, u.is_premium, u.is_admin, u.subscription_status, u.created_at,
  c.count as project_count`;

/**
 * Case-insensitive substring search on address, first and last name, newest
 * first (`users_created_at_id_index`), with each user's number of projects
 * (`project_counts`, kept by triggers: no counting per row).
 *
 * Unsearched: the page's ids come from the (created_at, id) index alone, then
 * 25 rows are read; the total is the cached count of all users. Searched: the
 * page comes from the trigram index (or, for a search most users match, from
 * walking the order index until the page is full); a page that is not full
 * gives the number of matches without another query, otherwise they are
 * counted up to SEARCH_COUNT_CAP (`totalExact: false` beyond).
 */
export async function listUsers(ctx: RequestContext, input: { search?: string; page?: number }): Promise<Result<AdminUserPage>> {
  const refusal = adminRefusal(ctx);
  if (refusal) return refusal;
  const search = (input.search ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, SEARCH_MAX);
  const page = Math.max(1, Math.min(100_000, Math.floor(input.page ?? 1) || 1));
  const offset = (page - 1) * USERS_PAGE_SIZE;
  let rows: Row[];
  let total: number;
  let totalExact = true;
  if (search) {
    const pattern = likePattern(search);
    rows = await ctx.em.execute<Row[]>(
      `select ${COLUMNS}
       from users u left join project_counts c on c.user_id = u.id
       where ${SEARCH_MATCH}
       order by u.created_at desc, u.id desc
       limit ? offset ?`,
      [pattern, USERS_PAGE_SIZE, offset],
    );
    if (rows.length < USERS_PAGE_SIZE && (rows.length > 0 || offset === 0)) {
      total = offset + rows.length;
    } else {
      const cap = Math.max(SEARCH_COUNT_CAP, offset + USERS_PAGE_SIZE);
      const [row] = await ctx.em.execute<{ total: string }[]>(
        `select count(*) as total from (select 1 from users u where ${SEARCH_MATCH} limit ?) m`,
        [pattern, cap + 1],
      );
      total = Math.min(Number(row?.total ?? 0), cap + 1);
      totalExact = total <= cap;
      if (!totalExact) total = cap;
    }
  } else {
    [rows, total] = await Promise.all([
      ctx.em.execute<Row[]>(
        `select ${COLUMNS}
         from (select id from users order by created_at desc, id desc limit ? offset ?) p
         join users u on u.id = p.id
         left join project_counts c on c.user_id = u.id
         order by u.created_at desc, u.id desc`,
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
        projectCount: Number(row.project_count ?? 0),
      })),
      total,
      totalExact,
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
