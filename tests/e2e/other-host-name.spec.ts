import { expect, test } from './fixtures';

/*
 * The site reached under another host name than APP_URL (a LAN address, a
 * second domain): the profile picture upload must still work. With scripts
 * the browser PUTs the file to the upload address itself, and the CSP allows
 * only its own origin (connect-src 'self'), so that address must be on the
 * page's own origin, not APP_URL's (issue 8 §4).
 */

const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

test('profile picture upload works when the app is reached under another host name than APP_URL', async ({ page, baseURL, signIn }, testInfo) => {
  // playwright.config.ts: APP_URL is baseURL (localhost); the server listens on 127.0.0.1, reachable under both names.
  const appUrl = new URL(baseURL!);
  const other = new URL(baseURL!);
  other.hostname = appUrl.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  const origin = other.origin;
  expect(origin).not.toBe(appUrl.origin);

  const blocked: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') blocked.push(message.text());
  });

  // A confirmed account (the fixture's own session is for APP_URL's host), signed in under the
  // other host name: cookies belong to the host.
  const { email, password } = await signIn({ firstName: 'Hosti' });
  expect((await page.request.post(`${origin}/api/auth/login`, { data: { email, password } })).status()).toBe(200);

  await page.goto(`${origin}/profile`);
  await expect(page.getByRole('img', { name: 'Kein Profilbild' })).toBeVisible();
  if (testInfo.project.name === 'js') await expect(page.getByRole('button', { name: 'Profilbild ändern' })).toBeVisible();
  await page.locator('input[type=file][name=image]').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG_PIXEL });
  if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Bild hochladen' }).click();

  await expect(page.locator('[data-toast]')).toContainText('Profilbild aktualisiert');
  const picture = page.locator('img[data-profile-picture]');
  await expect(picture).toBeVisible();
  // Visible before its bytes arrive: wait for the image to load, then it must have loaded.
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete)).toBe(true);
  expect(await picture.evaluate((image: HTMLImageElement) => image.naturalWidth > 0)).toBe(true);
  // Everything stayed on the host the visitor used.
  expect(new URL(page.url()).origin).toBe(origin);
  expect(blocked.filter((text) => /Content Security Policy|Failed to fetch/i.test(text))).toEqual([]);
});
