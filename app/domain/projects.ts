/** Project constants the pages need in the browser too (the rules are in projects.server.ts). */

/** Spec §9: free users keep at most 3 projects. */
export const FREE_PROJECT_LIMIT = 3;
export const PROJECTS_PAGE_SIZE = 24;
export const MAX_SEARCH_LENGTH = 200;
