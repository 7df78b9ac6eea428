import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { preloadHints } from './page-scripts';

/*
 * Issue 21 §4: an ad slot reserves its space on the server, so an ad that
 * fills it late moves nothing: layout shift 0, measured the way the browser
 * reports it (PerformanceObserver 'layout-shift', every entry since the page
 * began, those right after an input included). Ads run in test mode here
 * (placeholder cards, playwright.config.ts); a real ad is stood in for by a
 * tall block put into each slot, as AdSense puts its frame into its <ins>.
 */

type Shift = { value: number; sources: string[]; hadRecentInput?: boolean; startTime?: number };

/** Every layout shift of the page so far (the browser buffers them from the start of the page). */
function layoutShifts(page: Page): Promise<Shift[]> {
  return page.evaluate(
    () =>
      new Promise<Shift[]>((resolve) => {
        const shifts: Shift[] = [];
        type LayoutShift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }> };
        const describe = (node: Node | null | undefined) =>
          node instanceof Element ? `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.getAttribute('data-ad-slot') ? `[data-ad-slot=${node.getAttribute('data-ad-slot')}]` : ''}` : String(node?.nodeName);
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as LayoutShift[]) shifts.push({
            value: entry.value,
            hadRecentInput: entry.hadRecentInput,
            startTime: Math.round(entry.startTime),
            sources: (entry.sources ?? []).map((source) => `${describe(source.node)} ${JSON.stringify(source.previousRect)} -> ${JSON.stringify(source.currentRect)} ${source.node instanceof Element ? source.node.textContent?.slice(0, 40) : ''}`),
          });
        }).observe({ type: 'layout-shift', buffered: true });
        // Buffered entries arrive in a task of their own; two frames later every shift so far is in.
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => resolve(shifts), 50)));
      }),
  );
}

/**
 * Hydrated, so what hydration changes (the calculator's no-JS 'Berechnen' button goes) happened while the
 * screen was still at the top, where a real visitor is: on a busy machine it could otherwise land after the
 * scroll below and count against the slots.
 */
async function hydrated(page: Page, path: string) {
  if (path === '/calculator') await expect(page.getByRole('button', { name: 'Berechnen' })).toHaveCount(0);
  await page.waitForFunction(() => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
  await page.waitForLoadState('networkidle');
}

const total = (shifts: Shift[]) => shifts.reduce((sum, shift) => sum + shift.value, 0);

/**
 * Scrolls the slot to the middle of the screen (shifts off screen are not reported, and with the slot at the
 * top the browser's scroll anchoring would hide a growing slot), then fills it as a late ad would.
 */
async function fillLate(page: Page, slot: string) {
  await page.locator(`[data-ad-slot="${slot}"]`).evaluate((box) => box.scrollIntoView({ block: 'center' }));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.locator(`[data-ad-slot="${slot}"]`).evaluate((box) => {
    const ad = document.createElement('div');
    ad.setAttribute('data-late-ad', '');
    // CSSOM, not a style attribute: the CSP allows no inline styles in markup.
    ad.style.height = '600px';
    ad.style.width = '100%';
    box.append(ad);
  });
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

test.describe('Ad slots: layout shift 0', () => {
  // The observer and the late fill are scripts; without JavaScript nothing on the page changes after it is drawn.
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'measured with scripts');

  for (const { path, slots } of [
    { path: '/', slots: ['landing'] },
    { path: '/calculator', slots: ['calculator-left', 'calculator-sidebar', 'calculator-below'] },
  ]) {
    test(`${path}: loading, hydrating and a late ad in every slot move nothing (consent given)`, async ({ page }) => {
      await page.goto(path);
      for (const slot of slots) await expect(page.locator(`[data-ad-slot="${slot}"] [data-ad-placeholder]`)).toBeVisible();
      await hydrated(page, path);
      for (const slot of slots) await fillLate(page, slot);
      const shifts = await layoutShifts(page);
      expect(total(shifts), JSON.stringify(shifts)).toBe(0);

      // The measurement itself works: a block that reserves nothing, after the slot on screen, does move the page.
      await page.locator(`[data-ad-slot="${slots.at(-1)}"]`).evaluate((box) => {
        const unreserved = document.createElement('div');
        unreserved.style.height = '200px';
        box.after(unreserved);
      });
      await expect.poll(async () => total(await layoutShifts(page))).toBeGreaterThan(0);
    });
  }

  test.describe('before the cookie answer', () => {
    test.use({ withConsent: false });
    test('/calculator: answering the cookie dialog fills the slots without moving anything', async ({ page }) => {
      await page.goto('/calculator');
      await expect(page.locator('[data-ad-slot] [data-ad-placeholder]')).toHaveCount(0);
      // Nothing of the slots' content before the answer, not even a preload hint.
      expect((await preloadHints(page)).filter((href) => href.includes('/ad-content'))).toEqual([]);
      await hydrated(page, '/calculator');
      await page.locator('[data-ad-slot="calculator-left"]').evaluate((box) => box.scrollIntoView({ block: 'center' }));
      await page.getByRole('dialog', { name: 'Ihre Cookie-Einstellungen' }).getByRole('button', { name: 'Nur notwendige' }).click();
      await expect(page.locator('[data-ad-slot] [data-ad-placeholder]')).toHaveCount(3);
      const shifts = await layoutShifts(page);
      expect(total(shifts), JSON.stringify(shifts)).toBe(0);
    });
  });
});
