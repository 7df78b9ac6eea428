import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * Issue 24 §4 "Usage before the wall", in both projects (`js` and `no-js`): a free user
 * sees '2 von 3 Projekten' with the Premium link on /projects and at the calculator's
 * save button, and the count moves with a save; Premium users see no count.
 */

async function createThroughApi(page: Page, name: string) {
  const response = await page.request.post('/api/projects', { data: { name, quantity: 1, filamentWeight: 25, printTime: 2 } });
  expect(response.status()).toBe(201);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Hauptnavigation' });

test('a free user sees the usage on the list and at the save button, with the Premium link', async ({ page, signIn }) => {
  await signIn();
  await createThroughApi(page, 'Eins');
  await createThroughApi(page, 'Zwei');

  await page.goto('/');
  await nav(page).getByRole('link', { name: 'Projekte' }).click();
  const usage = page.locator('[data-project-usage]');
  await expect(usage).toHaveText('2 von 3 Projekten · Mit Premium unbegrenzt');

  await nav(page).getByRole('link', { name: 'Rechner' }).click();
  await expect(page).toHaveURL(/\/calculator$/);
  await expect(page.locator('#projekt-speichern [data-project-usage]')).toHaveText('2 von 3 Projekten · Mit Premium unbegrenzt');
  await page.getByLabel('Projektname').fill('Drei');
  await page.locator('[data-save-project]').click();
  await expect(page.locator('[data-toast]')).toContainText('Projekt gespeichert');
  await expect(page.locator('#projekt-speichern [data-project-usage]')).toHaveText('3 von 3 Projekten · Mit Premium unbegrenzt');

  await page.locator('#projekt-speichern [data-project-usage]').getByRole('link', { name: 'Mit Premium unbegrenzt' }).click();
  await expect(page).toHaveURL(/\/premium$/);
});

test('a Premium user sees no project count', async ({ page, signIn }) => {
  await signIn({ isPremium: true });
  await createThroughApi(page, 'Eins');
  await page.goto('/');
  await nav(page).getByRole('link', { name: 'Projekte' }).click();
  await expect(page.locator('[data-project-card]')).toHaveCount(1);
  await expect(page.locator('[data-project-usage]')).toHaveCount(0);
  await nav(page).getByRole('link', { name: 'Rechner' }).click();
  await expect(page.locator('[data-save-project]')).toBeVisible();
  await expect(page.locator('[data-project-usage]')).toHaveCount(0);
});
