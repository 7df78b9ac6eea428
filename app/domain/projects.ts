/** Project constants the pages need in the browser too (the rules are in projects.server.ts). */

/** Spec §9: free users keep at most 3 projects. */
export const FREE_PROJECT_LIMIT = 3;
export const PROJECTS_PAGE_SIZE = 24;
export const MAX_SEARCH_LENGTH = 200;

/** `/projects?loeschen=<id>`: the no-JS delete confirmation; `?limit=1`: the plan's limit notice after 'Neues Projekt'. */
export const CONFIRM_DELETE_PARAM = 'loeschen';
export const LIMIT_NOTICE_PARAM = 'limit';

/** The project list's own address (search and page kept), so actions come back to where the user was. */
export function projectListHref(q: string, page: number, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  if (page > 1) params.set('page', String(page));
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `/projects?${query}` : '/projects';
}
