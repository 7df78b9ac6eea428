import type { Project } from '@playwright/test';

/**
 * Every browser test runs twice: once as a visitor with scripts, once without
 * (low-end phones, script blockers), because every flow must work both ways.
 */
export const browserProjects: Project[] = [
  { name: 'js', use: { javaScriptEnabled: true } },
  { name: 'no-js', use: { javaScriptEnabled: false } },
];
