import type { Page } from '@playwright/test';
import { expect, signInDirectly, test } from './fixtures';

/*
 * Projects (issue 12), in both projects (`js` and `no-js`): save from the
 * calculator, reopen by address, update, copy, delete, search, the free limit
 * and a Premium user's 4th project.
 */

// 1×1 PNG, red pixel.
const PNG_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

async function createThroughApi(page: Page, name: string, extra: Record<string, unknown> = {}) {
  const response = await page.request.post('/api/projects', { data: { name, quantity: 1, filamentWeight: 25, printTime: 2, ...extra } });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}

function toast(page: Page) {
  return page.locator('[data-toast]');
}

function saveButton(page: Page) {
  return page.locator('[data-save-project]');
}

async function gotoProjects(page: Page, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    // With JavaScript the list is reached by the header link.
    await page.goto('/calculator');
    await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Projekte' }).click();
    await expect(page).toHaveURL(/\/projects$/);
  } else {
    await page.goto('/projects');
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Projekte' })).toBeVisible();
}

test.describe('Projekte', () => {
  test('save from the calculator, reopen by address, update, unsaved changes, reset', async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    await page.goto('/calculator');
    await expect(saveButton(page)).toHaveText('Projekt speichern');

    // A blank name is refused next to the field, nothing is stored: with JavaScript the toast says why, without it
    // the box at the save button, where the new page opens (never both).
    await saveButton(page).click();
    const refusal = javaScriptEnabled ? toast(page) : page.locator('[data-save-error]');
    await expect(refusal).toContainText('Projektname erforderlich');
    await expect(refusal).toContainText('Bitte geben Sie einen Projektnamen ein.');
    await expect(page.locator('#field-projectName-error')).toHaveText('Projektname ist erforderlich');
    if (javaScriptEnabled) await expect(page.locator('[data-save-error]')).toHaveCount(0);
    else {
      await expect(page).toHaveURL(/#projekt-speichern$/);
      await expect(page.locator('[data-save-error]')).toBeInViewport();
    }
    expect(await (await page.request.get('/api/projects')).json()).toEqual([]);

    await page.getByLabel('Projektname').fill('Vase Design #1');
    await page.getByLabel('Filamentgewicht').fill('42,5');
    await page.getByLabel('Mehrwertsteuer').fill('7');
    await saveButton(page).click();
    await expect(page).toHaveURL(/\/calculator\?project=[0-9a-f-]{36}(#projekt-speichern)?$/);
    await expect(toast(page)).toContainText('Projekt gespeichert');
    await expect(toast(page)).toContainText('„Vase Design #1“ wurde erfolgreich gespeichert.');
    await expect(saveButton(page)).toHaveText('Projekt aktualisieren');
    await expect(page.getByText('Als Projekt gespeichert')).toBeVisible();
    // Without JavaScript the page opened at the save panel (#projekt-speichern).
    const address = page.url().replace(/#.*$/, '');
    const atAddress = new RegExp(`^${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(#projekt-speichern)?$`);

    // Reopen by address: the saved values (VAT included) come back.
    await page.goto('/calculator');
    await page.goto(address);
    await expect(page.getByLabel('Projektname')).toHaveValue('Vase Design #1');
    await expect(page.getByLabel('Filamentgewicht')).toHaveValue('42,5');
    await expect(page.getByLabel('Mehrwertsteuer')).toHaveValue('7');

    // Update.
    await page.getByLabel('Projektname').fill('Vase Design #1 groß');
    await saveButton(page).click();
    await expect(toast(page)).toContainText('Projekt aktualisiert');
    await expect(toast(page)).toContainText('„Vase Design #1 groß“ wurde erfolgreich aktualisiert.');
    await expect(page).toHaveURL(atAddress);
    const [stored] = await (await page.request.get('/api/projects')).json();
    expect(stored).toMatchObject({ name: 'Vase Design #1 groß', filamentWeight: 42.5, vatPercent: 7 });

    // Values in the address win over the saved ones and the page says so.
    await page.goto(`${address}&filamentWeight=99`);
    await expect(page.getByLabel('Filamentgewicht')).toHaveValue('99');
    await expect(page.locator('[data-project-unsaved]')).toBeVisible();

    // Reset: defaults and no project.
    await page.getByRole('link', { name: 'Zurücksetzen' }).click();
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(page.getByLabel('Projektname')).toHaveValue('');
    await expect(saveButton(page)).toHaveText('Projekt speichern');
  });

  test('another user’s, a deleted or a malformed id shows a German message and the defaults', async ({ page, browser, baseURL, signIn }) => {
    const ownerContext = await browser.newContext();
    const owner = await ownerContext.newPage();
    await signInDirectly(ownerContext, baseURL!);
    const foreign = await createThroughApi(owner, 'Geheimprojekt', { filamentWeight: 77 });
    await ownerContext.close();

    await signIn();
    for (const id of [foreign.id, 'kaputt', '00000000-0000-4000-8000-000000000000']) {
      await page.goto(`/calculator?project=${id}`);
      await expect(page.locator('[data-project-not-found]')).toContainText('Dieses Projekt wurde nicht gefunden.');
      await expect(page.getByLabel('Projektname')).toHaveValue('');
      await expect(page.getByLabel('Filamentgewicht')).toHaveValue('25');
      await expect(page.getByText('Geheimprojekt')).toHaveCount(0);
    }
  });

  test('visitors are asked to sign in and come back to their calculation', async ({ page }) => {
    await page.goto('/calculator?filamentWeight=33');
    await expect(saveButton(page)).toHaveCount(0);
    await expect(page.getByText('Melden Sie sich an, um Projekte zu speichern.')).toBeVisible();
    const href = await page.locator('[data-sign-in="save"]').getAttribute('href');
    expect(decodeURIComponent(href!)).toContain('redirectTo=/calculator?');
    expect(decodeURIComponent(href!)).toContain('filamentWeight=33');
  });

  test('list, search, copy and delete', async ({ page, javaScriptEnabled, signIn }) => {
    await signIn({ isPremium: true });
    await createThroughApi(page, 'Schlüsselanhänger');
    await createThroughApi(page, 'Vase klein');
    await createThroughApi(page, 'Vase groß');

    await gotoProjects(page, javaScriptEnabled);
    const cards = page.locator('[data-project-card]');
    await expect(cards).toHaveCount(3);
    // Newest first, with the engine's minimum price and a German date.
    await expect(cards.first()).toContainText('Vase groß');
    await expect(cards.first().locator('[data-min-price]')).toHaveText(/^\d+,\d{2}\s€$/);
    await expect(cards.first()).toContainText(/Geändert am \d{2}\.\d{2}\.\d{4}/);
    await expect(cards.first().locator('[data-image-placeholder]')).toBeVisible();

    // Search (case-insensitive substring).
    await page.getByLabel('Projekte durchsuchen').fill('VASE');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page).toHaveURL(/q=VASE/);
    await expect(cards).toHaveCount(2);
    await page.getByLabel('Projekte durchsuchen').fill('Gibt es nicht');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page.getByText('Keine Projekte gefunden')).toBeVisible();
    await page.goto('/projects');

    // Copy.
    await page.getByRole('button', { name: 'Vase klein kopieren' }).click();
    await expect(toast(page)).toContainText('Projekt kopiert');
    await expect(cards).toHaveCount(4);
    await expect(cards.first()).toContainText('Vase klein (Kopie)');

    // Delete: confirmation (dialog with JS, a view without) says it cannot be undone.
    await page.getByRole('link', { name: 'Vase klein (Kopie) löschen' }).click();
    const confirmation = page.getByRole('alertdialog');
    await expect(confirmation).toContainText('kann nicht rückgängig gemacht werden');
    await confirmation.getByRole('button', { name: 'Abbrechen' }).or(confirmation.getByRole('link', { name: 'Abbrechen' })).click();
    await expect(cards).toHaveCount(4);
    await page.getByRole('link', { name: 'Vase klein (Kopie) löschen' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Endgültig löschen' }).click();
    await expect(toast(page)).toContainText('Projekt gelöscht');
    await expect(cards).toHaveCount(3);
    await expect(page.locator('[data-project-list]').getByText('Vase klein (Kopie)')).toHaveCount(0);

    // Open goes to the calculator with the project.
    await page.getByRole('link', { name: 'Vase klein öffnen' }).click();
    await expect(page).toHaveURL(/\/calculator\?project=/);
    await expect(page.getByLabel('Projektname')).toHaveValue('Vase klein');
  });

  test('on a 320 px phone: from the list through the user menu to the calculator, save, and open it from its card', async ({ page, signIn, javaScriptEnabled }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await signIn();
    await page.goto('/projects');
    await expect(page.getByText('Noch keine Projekte')).toBeVisible();
    // On a phone every page link is in the user menu (a <details>: it opens without scripts too).
    const menu = page.locator('[data-user-menu]');
    await menu.locator('summary').click();
    await menu.getByRole('link', { name: 'Rechner' }).click();
    await expect(page).toHaveURL(/\/calculator$/);

    await page.getByLabel('Projektname').fill('Handyhalter');
    await page.getByLabel('Filamentgewicht').fill('18,5');
    const save = saveButton(page);
    await save.scrollIntoViewIfNeeded();
    const box = await save.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    await save.click();
    await expect(toast(page)).toContainText('Projekt gespeichert');
    await expect(page).toHaveURL(/\/calculator\?project=/);
    // The page stays at the save button (it does not jump back to the top of the long form).
    await expect(save).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    // On a phone the toast sits over the header (never over a field), so the menu is free once it is
    // closed (with scripts) or has faded by itself after 5 s (without).
    if (javaScriptEnabled) await toast(page).getByRole('button', { name: 'Benachrichtigung schließen' }).click();
    await expect(toast(page)).toBeHidden({ timeout: 8_000 });

    await menu.locator('summary').click();
    await menu.getByRole('link', { name: 'Projekte' }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.locator('[data-project-card]')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await page.getByRole('link', { name: 'Handyhalter öffnen' }).click();
    await expect(page).toHaveURL(/\/calculator\?project=/);
    await expect(page.getByLabel('Filamentgewicht')).toHaveValue('18,5');
  });

  test('an empty list says so', async ({ page, javaScriptEnabled, signIn }) => {
    await signIn();
    await gotoProjects(page, javaScriptEnabled);
    await expect(page.getByText('Noch keine Projekte')).toBeVisible();
  });

  test('the free limit: a 4th save and copy are refused with the Premium toast, Neues Projekt stays on the list', async ({ page, javaScriptEnabled, signIn }) => {
    await signIn();
    for (const name of ['Eins', 'Zwei', 'Drei']) await createThroughApi(page, name);

    await page.goto('/calculator');
    await page.getByLabel('Projektname').fill('Vier');
    await saveButton(page).click();
    const refusal = javaScriptEnabled ? toast(page) : page.locator('[data-save-error]');
    await expect(page.locator('[data-save-error]')).toHaveCount(javaScriptEnabled ? 0 : 1);
    await expect(refusal).toContainText('Projektlimit erreicht');
    await expect(refusal).toContainText('Kostenlose Nutzer können maximal 3 Projekte erstellen.');
    await expect(refusal.getByRole('link', { name: 'Premium upgraden' })).toHaveAttribute('href', '/premium');
    // Nothing typed is lost.
    await expect(page.getByLabel('Projektname')).toHaveValue('Vier');

    await gotoProjects(page, javaScriptEnabled);
    await page.getByRole('button', { name: 'Eins kopieren' }).click();
    await expect(toast(page)).toContainText('Projektlimit erreicht');
    await expect(page.locator('[data-project-card]')).toHaveCount(3);

    await page.locator('[data-new-project]').click();
    await expect(page).toHaveURL(/\/projects/);
    const notice = javaScriptEnabled ? toast(page) : page.locator('[data-limit-notice]');
    await expect(notice).toContainText('Projektlimit erreicht');
    await expect(notice.getByRole('link', { name: 'Premium upgraden' })).toHaveAttribute('href', '/premium');
    expect((await (await page.request.get('/api/projects')).json()).length).toBe(3);
  });

  test('a Premium user saves a 4th project', async ({ page, signIn }) => {
    await signIn({ isPremium: true });
    for (const name of ['Eins', 'Zwei', 'Drei']) await createThroughApi(page, name);
    await page.goto('/calculator');
    await page.getByLabel('Projektname').fill('Vier');
    await saveButton(page).click();
    await expect(toast(page)).toContainText('Projekt gespeichert');
    expect((await (await page.request.get('/api/projects')).json()).length).toBe(4);
  });

  test('product image: upload, save with the project, reopen, remove', async ({ page, javaScriptEnabled, signIn }) => {
    await signIn();
    await page.goto('/calculator');
    await page.getByLabel('Projektname').fill('Figur mit Bild');
    const fileInput = page.locator('input[type=file][name=image]');
    const uploadButton = page.getByRole('button', { name: 'Bild hochladen' });

    // HTML with a .png name is refused by its bytes.
    await fileInput.setInputFiles({ name: 'bild.png', mimeType: 'image/png', buffer: Buffer.from('<html><body>kein Bild</body></html>') });
    if (!javaScriptEnabled) await uploadButton.click();
    await expect(page.locator('[data-image-error]')).toHaveText('Nur JPG und PNG Dateien sind erlaubt.');

    await fileInput.setInputFiles({ name: 'figur.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    if (!javaScriptEnabled) await uploadButton.click();
    const preview = page.locator('[data-product-image-preview]');
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    // Every other input survives the (no-JS) upload.
    await expect(page.getByLabel('Projektname')).toHaveValue('Figur mit Bild');

    await saveButton(page).click();
    await expect(toast(page)).toContainText('Projekt gespeichert');
    const [saved] = await (await page.request.get('/api/projects')).json();
    expect(saved.productImagePath).toMatch(/^\/images\/product\//);
    await expect(page.locator('[data-product-image-preview]')).toHaveAttribute('src', saved.productImagePath);

    // Remove and save: the path is cleared and the stored file is gone.
    await page.getByRole('button', { name: 'Bild entfernen' }).click();
    await expect(page.locator('[data-product-image-preview]')).toHaveCount(0);
    await saveButton(page).click();
    await expect(toast(page)).toContainText('Projekt aktualisiert');
    const [updated] = await (await page.request.get('/api/projects')).json();
    expect(updated.productImagePath).toBeNull();
    expect((await page.request.get(saved.productImagePath)).status()).toBe(404);
  });
});

