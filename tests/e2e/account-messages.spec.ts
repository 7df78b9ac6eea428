import { expect, test } from './fixtures';
import { uniqueEmail, waitForLink } from './mailbox';

/*
 * What the account pages say must be true (issue 8 §4): the error page, the
 * alert after resending the confirmation mail, a confirmation link clicked
 * twice, an empty registration form. Both projects (`js`, `no-js`).
 */

const PASSWORD = 'Kalkulation-2025!';

async function registerThroughApi(page: import('@playwright/test').Page, prefix: string) {
  const email = uniqueEmail(prefix);
  const response = await page.request.post('/api/auth/register', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Rita', lastName: 'Richtig' },
  });
  expect(response.status()).toBe(200);
  return email;
}

test.describe('Ehrliche Meldungen', () => {
  test('an empty registration form asks for the confirmation, it does not call it a mismatch', async ({ page }) => {
    await page.goto('/auth');
    await page.getByRole('navigation', { name: 'Anmelden oder registrieren' }).getByRole('link', { name: 'Registrieren' }).click();
    await expect(page.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
    await page.getByRole('button', { name: 'Registrieren' }).click();
    const confirmation = page.getByLabel('Passwort bestätigen');
    await expect(page.getByText('Passwort bestätigen ist erforderlich')).toBeVisible();
    // The message belongs to the confirmation field (aria-describedby) ...
    const describedBy = (await confirmation.getAttribute('aria-describedby')) ?? '';
    const described = await Promise.all(
      describedBy.split(/\s+/).filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()),
    );
    expect(described.join(' ')).toContain('Passwort bestätigen ist erforderlich');
    // ... and nothing claims that two empty fields differ.
    await expect(page.getByText('Passwörter stimmen nicht überein')).toHaveCount(0);

    // A real mismatch is still reported.
    await page.getByLabel('Vorname').fill('Rita');
    await page.getByLabel('Nachname').fill('Richtig');
    await page.getByLabel('E-Mail').fill(uniqueEmail('leer'));
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await confirmation.fill(`${PASSWORD}x`);
    await page.getByRole('button', { name: 'Registrieren' }).click();
    await expect(page.getByText('Passwörter stimmen nicht überein')).toBeVisible();
  });

  test('after resending the confirmation mail nothing says the sign-in failed', async ({ page }) => {
    const email = await registerThroughApi(page, 'erneut');
    const firstLink = await waitForLink(email, '/verify-email?token=');
    await page.goto('/auth');
    await page.getByLabel('E-Mail').fill(email);
    await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
    await page.getByRole('main').getByRole('button', { name: 'Anmelden' }).click();
    const notice = page.locator('[data-email-not-verified]');
    await expect(notice).toContainText('E-Mail-Bestätigung erforderlich');
    await expect(page.getByText('Anmeldung fehlgeschlagen')).toHaveCount(0);

    await notice.getByRole('button', { name: 'Bestätigungsmail erneut senden' }).click();
    await expect(page.locator('[data-toast]')).toContainText('E-Mail versendet');
    // The stale sign-in error must not come back under the title "Anmeldung fehlgeschlagen".
    await expect(page.getByText('Anmeldung fehlgeschlagen')).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Willkommen zurück' })).toBeVisible();
    // And the mail really went out.
    await waitForLink(email, '/verify-email?token=', { exclude: [firstLink] });
  });

  test('a confirmation link used twice says the address is already confirmed', async ({ page }) => {
    const email = await registerThroughApi(page, 'doppelt');
    const link = await waitForLink(email, '/verify-email?token=');
    const first = await page.goto(link);
    expect(first?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'E-Mail bestätigt' })).toBeVisible();

    const again = await page.goto(link);
    expect(again?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'E-Mail bereits bestätigt' })).toBeVisible();
    await expect(page.getByText('Diese E-Mail-Adresse ist bereits bestätigt – Sie können sich anmelden.')).toBeVisible();
    await expect(page.getByText('ungültig oder abgelaufen')).toHaveCount(0);
    await page.getByRole('main').getByRole('link', { name: 'Zur Anmeldung' }).click();
    await expect(page).toHaveURL(/\/auth$/);

    // A link nobody was issued is still refused.
    const unknown = await page.goto('/verify-email?token=BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB');
    expect(unknown?.status()).toBe(400);
    await expect(page.getByRole('heading', { name: 'Bestätigung fehlgeschlagen' })).toBeVisible();
    await expect(page.getByText('Der Bestätigungslink ist ungültig oder abgelaufen.')).toBeVisible();
  });

  test('the error page promises nothing that does not happen', async ({ page }, testInfo) => {
    test.skip(testInfo.project.name === 'no-js', 'the server has no way to fail on purpose; with scripts a failed data request shows the same page');
    await page.goto('/');
    // The next page's data request fails as a broken server would.
    await page.route(/\/impressum\.data/, (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'kaputt' }));
    page.on('console', () => undefined);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Impressum' }).click();
    await expect(page.getByRole('heading', { name: 'Ein Fehler ist aufgetreten' })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main).not.toContainText('informiert');
    await expect(main).toContainText('Bitte laden Sie die Seite neu oder versuchen Sie es später erneut.');
    await main.getByRole('link', { name: 'Zum Kontaktformular' }).click();
    await expect(page).toHaveURL(/\/kontakt$/);
    await expect(page.getByRole('heading', { name: 'Kontakt', level: 1 })).toBeVisible();
  });
});
