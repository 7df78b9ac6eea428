import AxeBuilder from '@axe-core/playwright';
import type { APIResponse, Page } from '@playwright/test';
import { consentCookieValue, expect, signInDirectly, test } from './fixtures';
import { E2E_PORT } from './server-env';
import { uniqueEmail, waitForLink, waitForMail } from './mailbox';
import { ensureOperatorAndContact } from './operator-settings';

/*
 * Accounts, profile and contact, run in both projects (`js` and `no-js`).
 * Mails are read from the .eml files the server writes (tests/e2e/mailbox.ts).
 * Every test uses its own addresses: the database is shared by a run.
 */

const PASSWORD = 'Kalkulation-2025!';
const NEW_PASSWORD = 'Neues-Passwort-42';
// 1×1 PNG, red pixel.
const PNG_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

function toast(page: Page) {
  return page.locator('[data-toast]');
}

/**
 * A confirmed account, signed in in this page's browser context: created with its
 * session directly in the database (fixtures.ts). Registration, confirmation and
 * sign-in have their own tests below.
 */
async function signedInUser(page: Page, firstName = 'Erika') {
  const { email } = await signInDirectly(page.context(), `http://localhost:${E2E_PORT}`, { firstName, password: PASSWORD });
  return { email, firstName };
}

async function openUserMenu(page: Page) {
  await page.locator('[data-user-menu] > summary').click();
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel('Passwort', { exact: true }).fill(password);
  await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
}

test.describe('Konto', () => {
  test('register, confirm, sign in, edit profile, change password, sign out, reset the password', async ({ page }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('konto');

    // Register.
    await page.goto('/auth?tab=register');
    await expect(page.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
    await page.getByLabel('Vorname').fill('Jana');
    await page.getByLabel('Nachname').fill('Beispiel');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Passwort bestätigen').fill('etwas-anderes');
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await expect(page.getByText('Passwörter stimmen nicht überein')).toBeVisible();

    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Passwort bestätigen').fill(PASSWORD);
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await expect(toast(page)).toContainText('Registrierung erfolgreich');
    await expect(toast(page)).toContainText('Bitte bestätigen Sie Ihre E-Mail-Adresse');
    // The title is not repeated in the text below it.
    expect((await toast(page).textContent())!.match(/Registrierung erfolgreich/g)).toHaveLength(1);
    await expect(page.getByRole('heading', { name: 'Willkommen zurück' })).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);

    const firstVerifyLink = await waitForLink(email, '/verify-email?token=');

    // Not confirmed yet: 403 with the spec's message and a resend button.
    await signInThroughForm(page, email, PASSWORD);
    await expect(page.getByText('E-Mail-Bestätigung erforderlich')).toBeVisible();
    await expect(page.getByText('Bitte überprüfen Sie Ihre E-Mails und klicken Sie auf den Bestätigungslink.')).toBeVisible();
    // Resend: a new link replaces the first one.
    await page.getByRole('button', { name: 'Bestätigungsmail erneut senden' }).click();
    await expect(toast(page)).toContainText('E-Mail versendet');

    // Confirm through the link in the new mail.
    const verifyLink = await waitForLink(email, '/verify-email?token=', { exclude: [firstVerifyLink] });
    await page.goto(verifyLink);
    await expect(page.getByRole('heading', { name: 'E-Mail bestätigt' })).toBeVisible();
    await page.getByRole('link', { name: 'Zur Anmeldung' }).click();
    await expect(page).toHaveURL(/\/auth$/);

    // Wrong password first, then the right one.
    await signInThroughForm(page, email, 'falsch-falsch');
    await expect(page.getByText('E-Mail oder Passwort ungültig.')).toBeVisible();
    await signInThroughForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(toast(page)).toContainText('Anmeldung erfolgreich');
    // The very first sign-in is no return (issue 24 §2).
    await expect(toast(page)).toContainText('Willkommen bei Druckpreis, Jana!');
    await expect(toast(page)).not.toContainText('zurück');
    await expect(page.locator('[data-user-menu] > summary')).toContainText('Jana');

    // Signed-in users do not see /auth.
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/calculator$/);

    // Edit the profile.
    await openUserMenu(page);
    await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('link', { name: 'Zurück zum Rechner' })).toBeVisible();
    await expect(page.getByLabel('E-Mail')).toHaveValue(email);
    await page.getByLabel('Vorname').fill('');
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await expect(page.getByText('Vorname ist erforderlich')).toBeVisible();
    await page.getByLabel('Vorname').fill('Janina');
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await expect(toast(page)).toContainText('Profil aktualisiert');
    await expect(page.getByLabel('Vorname')).toHaveValue('Janina');
    await expect(page.locator('[data-user-menu] > summary')).toContainText('Janina');

    // Change the password on a phone: a wrong current password is reported next to the field, and the
    // answer (a new page without scripts) opens at the password card, not at the top of the profile.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Aktuelles Passwort').fill('nicht-mein-passwort');
    await page.getByLabel('Neues Passwort').fill(NEW_PASSWORD);
    await page.getByLabel('Passwort bestätigen').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(page.getByText('Das aktuelle Passwort ist falsch.')).toBeVisible();
    await expect(page.getByText('Das aktuelle Passwort ist falsch.')).toBeInViewport();
    await page.getByLabel('Aktuelles Passwort').fill(PASSWORD);
    await page.getByLabel('Neues Passwort').fill(NEW_PASSWORD);
    await page.getByLabel('Passwort bestätigen').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(toast(page)).toContainText('Passwort geändert');
    await expect(page.getByLabel('Aktuelles Passwort')).toHaveValue('');

    // Sign out (a POST form in the user menu).
    await openUserMenu(page);
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Anmelden' })).toBeVisible();
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);

    // Forgot password → mail → reset.
    await page.goto('/auth');
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    const beforeReset = Date.now() - 1000;
    await page.getByLabel('E-Mail').fill(email);
    await page.getByRole('button', { name: 'Link senden' }).click();
    await expect(page.getByRole('heading', { name: 'E-Mail versendet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Erneut senden' })).toHaveAttribute('href', '/forgot-password');

    const resetLink = await waitForLink(email, '/reset-password?token=', { since: beforeReset });
    await page.goto(resetLink);
    await expect(page.getByRole('heading', { name: 'Neues Passwort festlegen' })).toBeVisible();
    const finalPassword = `${NEW_PASSWORD}-zurueck`;
    await page.getByLabel('Neues Passwort').fill(finalPassword);
    await page.getByLabel('Passwort bestätigen').fill(finalPassword);
    await page.getByRole('button', { name: 'Passwort zurücksetzen' }).click();
    await expect(page.getByRole('heading', { name: 'Passwort zurückgesetzt' })).toBeVisible();
    // The 3-second redirect to /auth (meta refresh without JS).
    await expect(page).toHaveURL(/\/auth$/, { timeout: 10_000 });

    // The link works once: opened again, it says so at once instead of offering the form.
    await page.goto(resetLink);
    await expect(page.getByRole('heading', { name: 'Ungültiger Link' })).toBeVisible();
    await expect(page.getByText('Der Reset-Link ist ungültig oder abgelaufen.')).toBeVisible();
    await expect(page.getByLabel('Neues Passwort')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Neuen Link anfordern' })).toHaveAttribute('href', '/forgot-password');

    // Old password refused, new one works.
    await signInThroughForm(page, email, NEW_PASSWORD);
    await expect(page.getByText('E-Mail oder Passwort ungültig.')).toBeVisible();
    await signInThroughForm(page, email, finalPassword);
    await expect(page).toHaveURL(/\/calculator$/);
    await expect(toast(page)).toContainText('Willkommen zurück, Janina!');
    await expect(page.locator('[data-user-menu] > summary')).toContainText('Janina');
  });

  test('an e-mail change waits for its confirmation: the old address keeps working and the change can be cancelled', async ({ page }) => {
    const { email } = await signedInUser(page, 'Paula');
    await page.goto('/calculator');
    await openUserMenu(page);
    await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil' }).click();
    await expect(page).toHaveURL(/\/profile$/);

    const newEmail = uniqueEmail('umzug');
    await page.getByLabel('E-Mail').fill(newEmail);
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await expect(toast(page)).toContainText('Profil aktualisiert');
    const pending = page.getByTestId('pending-email');
    await expect(pending).toContainText(`Neue Adresse ${newEmail} wartet auf Bestätigung`);
    await expect(page.getByLabel('E-Mail')).toHaveValue(email);
    // The current address is told and still signs in.
    const notice = await waitForMail(email, { match: (mail) => mail.subject === 'Änderung Ihrer E-Mail-Adresse angefordert' });
    expect(notice.text).toContain(newEmail);
    const link = await waitForLink(newEmail, '/verify-email?token=');
    expect((await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } })).status()).toBe(200);

    await pending.getByRole('button', { name: 'Änderung abbrechen' }).click();
    await expect(toast(page)).toContainText('Änderung abgebrochen');
    await expect(page.getByTestId('pending-email')).toHaveCount(0);
    // The link sent to the new address no longer works.
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Bestätigung fehlgeschlagen' })).toBeVisible();
  });

  test('an address change is confirmed with its own mail and page, signed in', async ({ page }) => {
    const { email } = await signedInUser(page);
    await page.goto('/calculator');
    await openUserMenu(page);
    await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil' }).click();
    const newEmail = uniqueEmail('umgezogen');
    await page.getByLabel('E-Mail').fill(newEmail);
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await expect(toast(page)).toContainText('Profil aktualisiert');
    const mail = await waitForMail(newEmail, { match: (m) => m.subject === 'Neue E-Mail-Adresse bestätigen' });
    expect(mail.text).not.toContain('Registrierung');
    const link = await waitForLink(newEmail, '/verify-email?token=');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Neue E-Mail-Adresse bestätigt' })).toBeVisible();
    await expect(page.getByText('Ab jetzt melden Sie sich mit ihr an.')).toBeVisible();
    await expect(page.getByText('Sie können sich jetzt anmelden')).toHaveCount(0);
    await page.getByRole('link', { name: 'Zum Profil' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByLabel('E-Mail')).toHaveValue(newEmail);
    expect(email).not.toBe(newEmail);
  });

  test('sign-in goes back to the page that asked for it', async ({ page }) => {
    const { email } = await signedInUser(page);
    await page.context().clearCookies({ name: '__session' });
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fprofile$/);
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    // Only local paths are followed.
    await page.context().clearCookies({ name: '__session' });
    await page.goto('/auth?redirectTo=https%3A%2F%2Fevil.example%2F');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/calculator$/);
  });

  test('the e-mail confirmation page without a token, and with a used one', async ({ page }) => {
    await page.goto('/verify-email');
    await expect(page.getByText('Kein Verifizierungs-Token gefunden.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Zur Startseite' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Zur Anmeldung' })).toBeVisible();
    await page.goto('/verify-email?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    await expect(page.getByRole('heading', { name: 'Bestätigung fehlgeschlagen' })).toBeVisible();
  });

  test('the reset page without a token says the link is invalid and goes to /auth', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(page.getByRole('heading', { name: 'Ungültiger Link' })).toBeVisible();
    await expect(page.getByText('Der Reset-Link ist ungültig oder abgelaufen.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/, { timeout: 10_000 });
  });

  test('forgot password answers the same for an unknown address', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByLabel('E-Mail').fill(uniqueEmail('unbekannt'));
    await page.getByRole('button', { name: 'Link senden' }).click();
    await expect(page.getByRole('heading', { name: 'E-Mail versendet' })).toBeVisible();
    await page.getByRole('link', { name: 'Erneut senden' }).click();
    await expect(page.getByRole('button', { name: 'Link senden' })).toBeVisible();
  });

  test('registration switches to the login tab and tabs are links', async ({ page }) => {
    await page.goto('/auth');
    await expect(page.getByRole('link', { name: 'Passwort vergessen?' })).toHaveAttribute('href', '/forgot-password');
    await page.getByRole('navigation', { name: 'Anmelden oder registrieren' }).getByRole('link', { name: 'Registrieren' }).click();
    await expect(page).toHaveURL(/tab=register/);
    await expect(page.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await expect(page.getByText('Vorname ist erforderlich')).toBeVisible();
    await expect(page.getByText('Passwort muss mindestens 6 Zeichen lang sein')).toBeVisible();
  });
});

test.describe('Profilbild', () => {
  test('uploads a PNG, which is stored as JPEG and shown in the header', async ({ page }, testInfo) => {
    await signedInUser(page, 'Bildtest');
    await page.goto('/profile');
    await expect(page.getByRole('img', { name: 'Kein Profilbild' })).toBeVisible();
    // With JavaScript the picker belongs to the 'Profilbild ändern' button, which appears once the page is hydrated.
    if (testInfo.project.name === 'js') await expect(page.getByRole('button', { name: 'Profilbild ändern' })).toBeVisible();

    // Not an image.
    await page.locator('input[type=file][name=image]').setInputFiles({ name: 'notiz.txt', mimeType: 'text/plain', buffer: Buffer.from('kein Bild') });
    if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Bild hochladen' }).click();
    await expect(page.getByRole('main').getByText('Bitte wählen Sie eine Bilddatei aus.')).toBeVisible();

    await page.locator('input[type=file][name=image]').setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG_PIXEL });
    if (testInfo.project.name === 'no-js') await page.getByRole('button', { name: 'Bild hochladen' }).click();
    await expect(toast(page)).toContainText('Profilbild aktualisiert');
    const picture = page.locator('img[data-profile-picture]');
    await expect(picture).toBeVisible();
    const src = await picture.getAttribute('src');
    expect(src).toMatch(/^\/images\/profile\//);
    const image = await page.request.get(src!);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/jpeg');
    expect((await image.body()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    await expect(page.locator('[data-user-menu] > summary img')).toHaveAttribute('src', src!);
  });
});

test.describe('Kopfzeile und geschützte Seiten', () => {
  test('visitors see the sign-in card on library pages; admin sends them to sign in', async ({ page }) => {
    for (const path of ['/projects', '/printers', '/filaments', '/packaging', '/shipping', '/marketplaces', '/premium']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Anmeldung erforderlich' })).toBeVisible();
      await expect(page.getByRole('main').getByRole('link', { name: 'Anmelden' })).toHaveAttribute('href', /^\/api\/login/);
    }
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('signed-in header: navigation, Verwaltung, user menu; non-admins are refused /admin', async ({ page }) => {
    await signedInUser(page, 'Kopf');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/calculator');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Rechner' })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Projekte' })).toBeVisible();
    const management = header.locator('[data-management-menu]');
    await management.locator('summary').click();
    for (const name of ['Filamente', 'Drucker', 'Verpackung', 'Marktplätze', 'Versanddienstleister']) {
      await expect(management.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await management.getByRole('link', { name: 'Drucker', exact: true }).click();
    await expect(page).toHaveURL(/\/printers$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Drucker' })).toBeVisible();
    await expect(page.getByText('Noch keine Drucker', { exact: true })).toBeVisible();

    await openUserMenu(page);
    const menu = page.locator('[data-user-menu]');
    await expect(menu.getByRole('link', { name: 'Premium' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Profil' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await expect(menu.getByRole('button', { name: 'Abmelden' })).toBeVisible();

    // The landing page is for visitors; signed-in users start in the calculator.
    await page.goto('/');
    await expect(page).toHaveURL(/\/calculator$/);

    const response = await page.goto('/admin');
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Zugriff verweigert' })).toBeVisible();
    await expect(page.getByRole('main').getByText('Sie haben keine Berechtigung für diese Seite.')).toBeVisible();
    await expect(toast(page)).toContainText('Zugriff verweigert');
  });

  test('on small screens every link sits in the user menu', async ({ page }) => {
    await signedInUser(page, 'Klein');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/calculator');
    await openUserMenu(page);
    const menu = page.locator('[data-user-menu]');
    for (const name of ['Rechner', 'Projekte', 'Filamente', 'Drucker', 'Verpackung', 'Marktplätze', 'Versanddienstleister', 'Premium', 'Profil']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await menu.getByRole('link', { name: 'Projekte' }).click();
    await expect(page).toHaveURL(/\/projects$/);
  });
});

test.describe('Seiten-Cache für Besucher', () => {
  test.use({ withConsent: false });

  test('visitors get cached pages with a fresh nonce; consent choices and signed-in users are never mixed up', async ({ page, baseURL }) => {
    // A shared link nobody opened before: the first answer renders, later ones come from the cache
    // (each server process keeps its own, so a repeat may land in the other one first).
    const link = `/calculator?projectName=Cache-${Date.now()}&quantity=3`;
    const answers: APIResponse[] = [];
    for (let index = 0; index < 4; index++) answers.push(await page.request.get(link));
    expect(answers[0].headers()['x-cache']).toBeUndefined();
    // The route says the page may be shared, and it varies on the cookies the root loader reads. The
    // calculator shows ad slots: shared copies live 30 s, so an ads setting shows within a minute.
    for (const answer of answers) {
      expect(answer.headers()['cache-control']).toBe('public, max-age=30');
      expect(answer.headers()['vary']).toMatch(/^Cookie\b/);
    }
    const hit = answers.find((answer) => answer.headers()['x-cache'] === 'hit');
    expect(hit).toBeDefined();
    const nonceOf = (answer: APIResponse) => answer.headers()['content-security-policy'].match(/'nonce-([^']+)'/)![1];
    expect(new Set(answers.map(nonceOf)).size).toBe(answers.length);
    const html = await hit!.text();
    expect(html).toContain(`nonce="${nonceOf(hit!)}"`);
    expect(html).toContain('data-cookie-consent');

    // With a consent choice the same address is another page: no dialog.
    await page.context().addCookies([{ name: 'cookie_consent', value: consentCookieValue(), url: baseURL! }]);
    for (let index = 0; index < 3; index++) expect(await (await page.request.get(link)).text()).not.toContain('data-cookie-consent');
    await page.goto(link);
    await expect(page.getByRole('button', { name: 'Alle akzeptieren' })).toHaveCount(0);
    await expect(page.getByLabel('Projektname')).toHaveValue(/^Cache-/);
    await page.goto('/');

    // Signed in, the visitors' pages are never used: the header shows the account, / leads on.
    await signedInUser(page, 'Cacheprobe');
    for (let index = 0; index < 3; index++) {
      const signedIn = await page.request.get(link);
      expect(signedIn.headers()['x-cache']).toBeUndefined();
      expect(signedIn.headers()['cache-control']).toBe('private, no-store');
      expect(await signedIn.text()).toContain('Cacheprobe');
    }
    // Everything rendered for the session is private, single-fetch data included.
    for (const path of ['/calculator', '/calculator.data', '/profile', '/profile.data', '/kontakt', '/kontakt.data']) {
      const answer = await page.request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBeLessThan(400);
      expect(answer.headers()['cache-control'], path).toBe('private, no-store');
    }
    await page.goto(link);
    await expect(page.locator('[data-user-menu]')).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(/\/calculator$/);
  });
});

test.describe('Kontakt', () => {
  test('shows the contact details and sends a message', async ({ page }) => {
    // The operator's details and the contact address come from the admin settings (issue 20).
    await ensureOperatorAndContact();
    await page.goto('/kontakt');
    await expect(page.getByRole('heading', { name: 'Kontakt', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'support@druckpreis.de' })).toBeVisible();
    await expect(page.getByText('Montag bis Freitag, 9:00–17:00 Uhr')).toBeVisible();
    await expect(page.getByText(/innerhalb von 24 Stunden/)).toBeVisible();

    // The honeypot is there for bots only.
    const honeypot = page.locator('input[name=website]');
    await expect(honeypot).toHaveAttribute('tabindex', '-1');
    await expect(honeypot).toHaveAttribute('autocomplete', 'off');
    await expect(page.locator('div[aria-hidden=true]:has(input[name=website])')).toHaveCount(1);

    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(page.getByText('Name ist erforderlich')).toBeVisible();
    await expect(page.getByText('Nachricht ist erforderlich')).toBeVisible();

    const email = uniqueEmail('kontakt');
    await page.getByLabel('Name').fill('Max Kunde');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Betreff').fill('Frage zum Rechner');
    await page.getByLabel('Nachricht', { exact: true }).fill('Wie rechne ich den Verschleiß meiner Düse ein?');
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(toast(page)).toContainText('Nachricht gesendet');
    await expect(toast(page)).toContainText('Vielen Dank für Ihre Nachricht! Sie erhalten eine Bestätigungsmail.');
    await expect(page.getByLabel('Name')).toHaveValue('');
    await expect(page.getByLabel('Betreff')).toHaveValue('');

    // The auto-reply reaches the sender.
    const reply = await waitForMail(email);
    expect(reply.text.length).toBeGreaterThan(0);
  });

  test('a lost connection shows the connection error (JavaScript only)', async ({ page, context }, testInfo) => {
    test.skip(testInfo.project.name === 'no-js', 'without JavaScript the browser shows its own offline page');
    await page.goto('/kontakt');
    await page.waitForLoadState('networkidle');
    await page.getByLabel('Name').fill('Offline Otto');
    await page.getByLabel('E-Mail').fill(uniqueEmail('offline'));
    await page.getByLabel('Betreff').fill('Kein Netz');
    await page.getByLabel('Nachricht', { exact: true }).fill('Hallo?');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(toast(page)).toContainText('Verbindungsfehler');
    await expect(toast(page)).toContainText('Bitte überprüfen Sie Ihre Internetverbindung');
    await context.setOffline(false);
    // Nothing was lost: the form still holds the message.
    await expect(page.getByLabel('Nachricht', { exact: true })).toHaveValue('Hallo?');
  });
});

test.describe('Barrierefreiheit der Kontoseiten', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'axe runs as a script in the page');

  async function expectNoSevereViolations(page: Page) {
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(severe.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  test('visitor pages', async ({ page }) => {
    for (const path of ['/auth', '/auth?tab=register', '/forgot-password', '/kontakt', '/projects']) {
      await page.goto(path);
      await expectNoSevereViolations(page);
    }
  });

  test('signed-in pages with the user menu open', async ({ page }) => {
    await signedInUser(page, 'Axel');
    await page.goto('/profile');
    await expect(page.getByRole('button', { name: 'Profilbild ändern' })).toBeVisible();
    await openUserMenu(page);
    await expectNoSevereViolations(page);
  });
});
