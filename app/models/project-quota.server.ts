import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../entities';
import { isPremium } from '../domain/permissions';
import { FREE_PROJECT_LIMIT, type ProjectUsage } from '../domain/projects';
import { forbidden } from '../domain/result';
import { plainRowTable } from '../services/plain-rows.server';
import { queryPrepared, type PreparedRead } from '../services/prepared-query.server';
import type { UserContext } from '../services/request-context.server';

/**
 * The project quota (spec §9): a free user keeps at most FREE_PROJECT_LIMIT
 * projects, a Premium user any number. Every check asks `projectLimit`: the
 * create and copy operations (`withinProjectLimit`, in their transaction), the
 * "Neues Projekt" button (`canCreateProject`) and the usage the project list
 * and the save button show (`projectUsage`).
 */

export const PROJECT_LIMIT_CODE = 'PROJECT_LIMIT_EXCEEDED';

/** How many projects the user may keep now; null: no limit. */
export function projectLimit(ctx: UserContext): number | null {
  return isPremium(ctx.user, ctx.now) ? null : FREE_PROJECT_LIMIT;
}

export function limitReached(): ReturnType<typeof forbidden> {
  return forbidden('projects:errors.limitReached', { code: PROJECT_LIMIT_CODE });
}

/**
 * Inside the transaction that creates a project: whether one more fits. The
 * user's row is locked for the transaction, so parallel creates of one user run
 * one after another and each sees the others' rows: never more than the limit.
 */
export async function withinProjectLimit(ctx: UserContext, em: EntityManager): Promise<boolean> {
  const limit = projectLimit(ctx);
  if (limit === null) return true;
  await em.execute('select 1 from "users" where "id" = ? for update', [ctx.user.id]);
  return (await em.count(Project, { user: ctx.user.id })) < limit;
}

/** Whether the user may create another project now ('Neues Projekt' asks before leaving the list). */
export async function canCreateProject(ctx: UserContext): Promise<boolean> {
  const limit = projectLimit(ctx);
  if (limit === null) return true;
  // At most `limit` rows are read, however many projects there are (a lapsed Premium user may have thousands).
  const table = plainRowTable(ctx.em, Project);
  const some = await table.select(['id'], `where ${table.column('user')} = ? limit ?`, [ctx.user.id, limit]);
  return some.length < limit;
}

/**
 * Issue 24 §4: '2 von 3 Projekten' on the list and at the save button, so a free user
 * sees the wall before hitting it; null for Premium (no limit).
 */
export async function projectUsage(ctx: UserContext): Promise<ProjectUsage | null> {
  const read = projectUsageRead(ctx);
  return read && read.read(await queryPrepared<Record<string, unknown>>(ctx.em, read.sql, read.params));
}

/**
 * `projectUsage` as a prepared read (not em.count(): the save button asks on every signed-in
 * '/calculator', in one statement with the pickers); null for Premium, which needs no read.
 */
export function projectUsageRead(ctx: UserContext): PreparedRead<ProjectUsage> | null {
  const limit = projectLimit(ctx);
  if (limit === null) return null;
  const table = plainRowTable(ctx.em, Project);
  return {
    sql: `select count(*)::int as "used" from ${table.table} where ${table.column('user')} = ?`,
    params: [ctx.user.id],
    read: ([row]) => ({ used: Number(row.used), limit }),
  };
}

/** Whether a new project fits within a usage ('Neues Projekt' on the list). */
export function usageAllowsNew(usage: ProjectUsage | null): boolean {
  return usage === null || usage.used < usage.limit;
}
