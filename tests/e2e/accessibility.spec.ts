import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

test.describe('Barrierefreiheit', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'axe runs as a script in the page');

  for (const path of ['/', '/calculator', '/calculator?marketplaceFeePercent=150', '/datenschutz']) {
    test(`no serious or critical axe violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(severe.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }

  test('the consent dialog itself passes axe', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('dialog')).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[data-cookie-consent]').analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await context.close();
  });
});
