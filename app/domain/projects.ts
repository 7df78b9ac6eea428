/** Project constants the pages need in the browser too (the rules are in projects.server.ts). */

/** Spec §9: free users keep at most 3 projects. */
export const FREE_PROJECT_LIMIT = 3;
export const PROJECTS_PAGE_SIZE = 24;

/** Issue 24 §4: how many of the free plan's projects a user has (shown before the limit is hit); null for Premium. */
export type ProjectUsage = { used: number; limit: number };
export const MAX_SEARCH_LENGTH = 200;

/** `/projects?loeschen=<id>`: the no-JS delete confirmation; `?limit=1`: the plan's limit notice after 'Neues Projekt'. */
export const CONFIRM_DELETE_PARAM = 'loeschen';
export const LIMIT_NOTICE_PARAM = 'limit';

/**
 * Issue 24 §4: the list's orders, in the address as `?sort=` (the first is the default
 * and stays out of it): last change (newest first), name (A–Z), minimum price (lowest
 * or highest first).
 */
export const PROJECT_SORTS = ['changed', 'name', 'price', 'price-desc'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];
export const DEFAULT_PROJECT_SORT: ProjectSort = 'changed';
export const SORT_PARAM = 'sort';

/** An address's or a form's sort value; anything unknown is the default. */
export function readProjectSort(value: unknown): ProjectSort {
  return (PROJECT_SORTS as readonly unknown[]).includes(value) ? (value as ProjectSort) : DEFAULT_PROJECT_SORT;
}

/** The project list's own address (search, order and page kept), so actions come back to where the user was. */
export function projectListHref(q: string, page: number, extra: Record<string, string> = {}, sort: ProjectSort = DEFAULT_PROJECT_SORT): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (sort !== DEFAULT_PROJECT_SORT) params.set(SORT_PARAM, sort);
  if (page > 1) params.set('page', String(page));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `/projects?${query}` : '/projects';
}
