import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Issue 24 §3, at 320 px, over every page (from the route manifest, as small-screens.spec.ts),
 * for visitors and signed-in users, with and without scripts: no German word breaks in the
 * middle (a soft hyphen is a proper break), no text is cut off by its box, no select or
 * placeholder shows a cut-off text, and on the calculator the save button sits in the price
 * bar, never over the page's figures.
 */

const PHONE = { width: 320, height: 568 };
const EXTRA_PATHS = ['/auth?tab=register', '/gibt-es-nicht'];

type ManifestRoute = { id: string; parentId?: string; path?: string };

async function pagePaths(page: Page): Promise<string[]> {
  const html = await (await page.request.get('/impressum')).text();
  const manifestUrl = /\/assets\/manifest-[\w-]+\.js/.exec(html)?.[0];
  expect(manifestUrl).toBeTruthy();
  const source = await (await page.request.get(manifestUrl!)).text();
  const { routes } = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as { routes: Record<string, ManifestRoute> };
  const fullPath = (route: ManifestRoute): string => {
    const parent = route.parentId ? routes[route.parentId] : undefined;
    return [parent ? fullPath(parent) : '', route.path ?? ''].filter(Boolean).join('/');
  };
  const candidates = new Set<string>();
  for (const route of Object.values(routes)) {
    if (route.id === 'root') continue;
    const path = `/${fullPath(route)}`;
    if (!/[:*]/.test(path) && !path.startsWith('/api/')) candidates.add(path);
  }
  const pages: string[] = [];
  for (const path of [...[...candidates].sort(), ...EXTRA_PATHS]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    if (response.status() >= 300 && response.status() < 400) continue;
    if (!(response.headers()['content-type'] ?? '').startsWith('text/html')) continue;
    pages.push(path);
  }
  return pages;
}

/** What is wrong with the text on the page as shown now (empty: nothing). */
async function textProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const visible = (element: Element) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 0 && box.height > 0 && !element.closest('[aria-hidden="true"], .sr-only, dialog:not([open])');
    };
    // 1. A word broken across lines (no hyphen or soft hyphen where it broke).
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, svg, option, select, textarea') || !visible(parent)) continue;
      const text = node.textContent ?? '';
      for (const match of text.matchAll(/[A-Za-zÄÖÜäöüß\u00ad]{4,}/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1 && !match[0].includes('\u00ad')) problems.push(`word broken: "${match[0]}"`);
      }
      // 2. Text cut off by a box that hides its overflow.
      const style = getComputedStyle(parent);
      // An ellipsis with the whole text in the title (the user menu's long e-mail address) is on purpose.
      const shortened = style.textOverflow === 'ellipsis' && parent.title === text.trim();
      if (!shortened && style.overflowX !== 'visible' && style.overflowX !== 'auto' && style.overflowX !== 'scroll' && parent.scrollWidth > parent.clientWidth + 1) {
        problems.push(`text cut off: "${text.trim().slice(0, 40)}"`);
      }
    }
    // 3. Selects and placeholders too narrow for their text.
    const canvas = document.createElement('canvas').getContext('2d')!;
    const textWidth = (element: HTMLElement, value: string) => {
      const style = getComputedStyle(element);
      canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return canvas.measureText(value).width;
    };
    const room = (element: HTMLElement) => {
      const style = getComputedStyle(element);
      return element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    };
    for (const select of document.querySelectorAll('select')) {
      if (!visible(select)) continue;
      const shown = select.selectedOptions[0]?.textContent ?? '';
      // The arrow takes about 16 px of the content box.
      if (textWidth(select, shown) > room(select) - 16) problems.push(`select cut off: "${shown}"`);
    }
    for (const input of document.querySelectorAll<HTMLInputElement>('input[placeholder]')) {
      if (!visible(input) || input.value) continue;
      if (textWidth(input, input.placeholder) > room(input)) problems.push(`placeholder cut off: "${input.placeholder}"`);
    }
    return problems;
  });
}

async function checkEveryPage(page: Page) {
  await page.setViewportSize(PHONE);
  const found: string[] = [];
  for (const path of await pagePaths(page)) {
    await page.goto(path);
    for (const problem of await textProblems(page)) found.push(`${path}: ${problem}`);
    // Nor does the page itself scroll sideways (a signed-in calculator once grew to its widest card).
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > PHONE.width) found.push(`${path}: ${width} px wide`);
  }
  expect(found).toEqual([]);
}

test.describe('320 px: text fits its box', () => {
  test('visitor pages', async ({ page }) => {
    test.setTimeout(120_000);
    await checkEveryPage(page);
  });

  test('signed-in pages, with library items and a project', async ({ page, signIn }) => {
    test.setTimeout(150_000);
    await signIn();
    await page.request.post('/api/printers', { data: { name: 'Bambu Lab X1 Carbon' } });
    await page.request.post('/api/filaments', { data: { name: 'PLA Basic Schwarz' } });
    await page.request.post('/api/marketplaces', { data: { name: 'Etsy' } });
    await page.request.post('/api/projects', { data: { name: 'Drache', quantity: 1, filamentWeight: 25, printTime: 2 } });
    await checkEveryPage(page);
  });

  test('the save button sits in the price bar and covers no figure', async ({ page, signIn }) => {
    await signIn();
    await page.setViewportSize(PHONE);
    await page.goto('/calculator');
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    const seen: string[] = [];
    for (let y = 0; y < height; y += 120) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      const problem = await page.evaluate(() => {
        const button = document.querySelector('[data-save-project-floating]');
        if (!button) return null;
        const b = button.getBoundingClientRect();
        if (b.width === 0 || b.bottom < 0 || b.top > window.innerHeight) return null;
        const bar = document.querySelector('[data-sticky-summary]')!.getBoundingClientRect();
        if (b.top < bar.top - 1 || b.bottom > bar.bottom + 1) return `button outside the price bar at ${Math.round(window.scrollY)}`;
        // Nothing else shares the button's place except what the bar covers as a whole.
        for (const figure of document.querySelectorAll('[data-result], [data-unit], label, dt, dd')) {
          const r = figure.getBoundingClientRect();
          if (r.width === 0 || figure.closest('[data-sticky-bar]')) continue;
          const overlaps = r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
          const underBar = r.top < bar.bottom && r.bottom > bar.top;
          if (overlaps && !underBar) return `covers "${figure.textContent?.trim().slice(0, 30)}"`;
        }
        return null;
      });
      if (problem) seen.push(problem);
    }
    expect(seen).toEqual([]);
    await expect(page.locator('[data-save-project-floating]')).toHaveCount(1);
  });
});
