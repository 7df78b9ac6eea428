import type { Page } from '@playwright/test';

/**
 * The script files the server named for this page (Remix's modulepreload links and the lazy
 * parts' ones): since issue 25 they wait in `noscript#deferred-scripts` until the first paint
 * (server/deferred-scripts.server.ts), so they are read from there, as the server wrote them.
 */
export async function preloadHints(page: Page): Promise<string[]> {
  const markup = (await page.locator('#deferred-scripts').textContent()) ?? '';
  return [...markup.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]);
}
