import type { EntityManager } from '@mikro-orm/postgresql';
import { Project } from '../entities';
import { isPremium } from '../domain/permissions';
import { FREE_PROJECT_LIMIT } from '../domain/projects';
import { forbidden } from '../domain/result';
import { plainRowTable } from '../services/plain-rows.server';
import type { UserContext } from '../services/request-context.server';

/**
 * The project quota (spec §9): a free user keeps at most FREE_PROJECT_LIMIT
 * projects, a Premium user any number. Every check asks `projectLimit`: the
 * create and copy operations (`withinProjectLimit`, in their transaction), the
 * "Neues Projekt" button (`canCreateProject`) and the project list
 * (`canCreateProjectGiven`).
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
 * Whether the user may create a project, answered from a list page when it
 * already tells: the first page of the unfiltered list holds the newest
 * min(count, PROJECTS_PAGE_SIZE ≥ FREE_PROJECT_LIMIT) projects, so fewer than
 * the limit on it means fewer than the limit in all. Otherwise one query.
 */
export async function canCreateProjectGiven(ctx: UserContext, list: { q: string; page: number; items: readonly unknown[] }): Promise<boolean> {
  const limit = projectLimit(ctx);
  if (limit === null) return true;
  if (list.q === '' && list.page === 1) return list.items.length < limit;
  // A search's hits, or a later page with cards on it (the pages before were full), are some of the
  // user's projects: as many as the limit among them means at least the limit in all.
  if (list.items.length >= limit || (list.page > 1 && list.items.length > 0)) return false;
  return canCreateProject(ctx);
}
