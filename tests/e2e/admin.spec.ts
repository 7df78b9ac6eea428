import fs from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import net from 'node:net';
import type { Page } from '@playwright/test';
import { expect, FIXTURE_PASSWORD, test } from './fixtures';
import { uniqueEmail, waitForMail } from './mailbox';
import { E2E_CONTACT_EMAIL, E2E_OPERATOR, insertUser } from './operator-settings';

/** Every tab of /admin: its link's name and its address's `tab`. */
const ADMIN_TABS = [
  ['Zahlung (Stripe)', 'stripe'],
  ['Google Ads', 'google-ads'],
  ['E-Mail', 'email'],
  ['Kontakt', 'contact'],
  ['Betreiber', 'operator'],
  ['Benutzer', 'users'],
  ['Übersicht', 'status'],
] as const;

/**
 * The admin area and the owner's own account (issue 20), in both projects (`js` and `no-js`),
 * reached as people do: the header's user menu, the tab links, the footer (addresses are typed
 * only where the address is the point: a non-admin's refusal, the axe pass over every tab).
 * Only the settings groups whose values every test shares are saved here (Betreiber, Kontakt:
 * the values of operator-settings.ts); the e-mail tab is exercised without saving, since a
 * saved SMTP host would reroute the mails of the tests running alongside (its saving is
 * covered by tests/integration/admin.test.ts).
 */

function toast(page: Page) {
  return page.locator('[data-toast]');
}

/** From the start page to /admin the way an admin goes: the user menu in the header, then 'Admin'. */
async function openAdminFromHeader(page: Page) {
  await page.goto('/');
  await page.locator('[data-user-menu] > summary').click();
  await page.locator('[data-user-menu]').getByRole('link', { name: 'Admin', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
}

/** A tab reached by its link: the address names it, the link is marked current, the tab's heading shows. */
async function openTab(page: Page, name: string, tab: string) {
  const tabs = page.getByRole('navigation', { name: 'Einstellungen' });
  await tabs.getByRole('link', { name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin\\?tab=${tab}$`));
  await expect(tabs.getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test.describe('Administration', () => {
  test('an admin reaches the area from the header and every tab by its link, and saves the Betreiber and Kontakt tabs', async ({ page, signIn }) => {
    await signIn({ isAdmin: true, firstName: 'Ada' });
    await openAdminFromHeader(page);
    await expect(page.getByTestId('status-users')).toBeVisible();
    // This server takes payments and ads from the environment (playwright.config.ts): the overview says so.
    const payment = page.locator('[data-service=payment]');
    await expect(payment).toContainText('eingerichtet');
    await expect(payment).toContainText('Quelle: Umgebungsvariablen STRIPE_* – gelten, bis die Gruppe im Tab „Zahlung (Stripe)“ gespeichert wird');
    const ads = page.locator('[data-service=ads]');
    await expect(ads).toContainText('Testmodus');
    await expect(ads).toContainText('Quelle: Umgebungsvariablen GOOGLE_ADS_*');
    await expect(page.locator('[data-service=mail]')).toContainText('Quelle:');

    for (const [name, tab] of ADMIN_TABS) {
      await openTab(page, name, tab);
    }
    const header = page.getByRole('navigation', { name: 'Bereiche der Administration' });
    for (const name of ['Startseite', 'Projekte', 'Premium']) await expect(header.getByRole('link', { name })).toBeVisible();
    await expect(header.getByRole('button', { name: 'Abmelden' })).toBeVisible();

    // Betreiber: saved, then shown on the legal pages.
    await openTab(page, 'Betreiber', 'operator');
    const operator = page.locator('[data-settings-form=operator]');
    await operator.getByLabel('Name bzw. Firma').fill('');
    await operator.getByRole('button', { name: 'Speichern' }).click();
    await expect(operator.getByText('Name ist erforderlich')).toBeVisible();
    await operator.getByLabel('Name bzw. Firma').fill(E2E_OPERATOR.name);
    await operator.getByLabel('Postanschrift').fill(E2E_OPERATOR.address);
    await operator.getByLabel('Telefon').fill(E2E_OPERATOR.phone);
    await operator.getByLabel('E-Mail-Adresse').fill(E2E_OPERATOR.email);
    await operator.getByLabel(/Verantwortlich/).fill(E2E_OPERATOR.responsiblePerson);
    await operator.getByLabel(/Registereintrag/).fill(E2E_OPERATOR.register);
    await operator.getByLabel('Umsatzsteuer-ID').fill(E2E_OPERATOR.vatId);
    await operator.getByRole('button', { name: 'Speichern' }).click();
    await expect(toast(page)).toContainText('Die Betreiberangaben wurden gespeichert.');
    await expect(page).toHaveURL(/\/admin\?tab=operator$/);
    await expect(operator.getByLabel('Name bzw. Firma')).toHaveValue(E2E_OPERATOR.name);

    // Kontakt.
    await openTab(page, 'Kontakt', 'contact');
    const contact = page.locator('[data-settings-form=contact]');
    await contact.getByLabel('Empfänger der Kontaktanfragen').fill('kein-at');
    await contact.getByRole('button', { name: 'Speichern' }).click();
    await expect(contact.getByText('Bitte eine gültige E-Mail-Adresse eingeben')).toBeVisible();
    await contact.getByLabel('Empfänger der Kontaktanfragen').fill(E2E_CONTACT_EMAIL);
    await contact.getByLabel('Automatische Antwort senden').check();
    await contact.getByRole('button', { name: 'Speichern' }).click();
    await expect(toast(page)).toContainText('Die Kontakt-Konfiguration wurde gespeichert.');

    // Stripe: the required fields say so, nothing is saved; secrets are never filled in.
    await openTab(page, 'Zahlung (Stripe)', 'stripe');
    await expect(page.locator('[data-env-note]')).toContainText('Zurzeit gelten die Umgebungsvariablen STRIPE_*');
    const stripe = page.locator('[data-settings-form=stripe]');
    await expect(stripe.getByLabel('Secret Key')).toHaveValue('');
    await stripe.getByLabel('Public Key (Publishable Key)').fill('');
    await stripe.getByRole('button', { name: 'Speichern' }).click();
    await expect(stripe.getByText('Public Key ist erforderlich')).toBeVisible();

    const footer = page.locator('[data-site-footer]');
    await footer.getByRole('link', { name: 'Impressum' }).click();
    await expect(page).toHaveURL(/\/impressum$/);
    await expect(page.getByText('Beispielweg 5').first()).toBeVisible();
    await expect(page.getByText(/HRB 12345/)).toBeVisible();
    await footer.getByRole('link', { name: 'Kontakt' }).click();
    await expect(page).toHaveURL(/\/kontakt$/);
    await expect(page.getByRole('link', { name: E2E_OPERATOR.email })).toBeVisible();
    await expect(page.getByText(/innerhalb von 24 Stunden/)).toBeVisible();
  });

  test('the e-mail tab tests a connection and sends a test mail through the outbox', async ({ page, signIn }, testInfo) => {
    await signIn({ isAdmin: true });
    await openAdminFromHeader(page);
    await openTab(page, 'E-Mail', 'email');
    const form = page.locator('[data-settings-form=email]');
    await form.getByLabel('SMTP-Server').fill('127.0.0.1');
    await form.getByLabel('Port', { exact: true }).fill(String(await closedPort()));
    await form.getByLabel('Benutzername').fill('mailer');
    await form.getByLabel('Passwort').fill('falsch');
    await form.getByRole('button', { name: 'Verbindung testen' }).click();
    const result = page.getByTestId('smtp-test-result');
    await expect(result).toContainText('Verbindungstest fehlgeschlagen');
    await expect(result).toContainText('Der SMTP-Server hat die Verbindung abgelehnt.');
    // Nothing was saved by the test: the tab opened again shows the saved (empty) server.
    await openTab(page, 'Übersicht', 'status');
    await openTab(page, 'E-Mail', 'email');
    await expect(form.getByLabel('SMTP-Server')).toHaveValue('');

    const address = uniqueEmail('testmail');
    const send = page.getByRole('button', { name: 'Test-E-Mail senden' });
    if (testInfo.project.name === 'js') {
      await expect(send).toBeDisabled();
      await page.getByLabel('Empfänger der Test-E-Mail').fill('ohne-at');
      await expect(send).toBeDisabled();
    }
    await page.getByLabel('Empfänger der Test-E-Mail').fill(address);
    await expect(send).toBeEnabled();
    await send.click();
    await expect(page.getByTestId('test-mail-result')).toContainText(`Die Test-E-Mail an ${address} wurde versendet.`);
    const mail = await waitForMail(address);
    expect(mail.subject).toBe('Test-E-Mail von Druckpreis');
  });

  test('an admin finds and deletes a user on a 390 px phone', async ({ page, signIn }) => {
    await signIn({ isAdmin: true });
    const victim = uniqueEmail('loeschen');
    await insertUser(victim, 'Lotte');
    await page.setViewportSize({ width: 390, height: 844 });
    await openAdminFromHeader(page);
    await openTab(page, 'Benutzer', 'users');
    await page.getByLabel('Benutzer suchen').fill(victim.toUpperCase());
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page.getByTestId('user-count')).toHaveText('1 Benutzer');
    const row = page.locator(`[data-user-row="${victim}"]`);
    await expect(row).toContainText('Lotte Löschbar');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await row.getByRole('link', { name: `${victim} löschen` }).click();
    const confirm = page.getByTestId('delete-user-confirm');
    await expect(confirm).toContainText(`Das Konto ${victim} wird endgültig gelöscht`);
    await confirm.getByRole('button', { name: 'Endgültig löschen' }).click();
    await expect(toast(page)).toContainText(`Das Konto ${victim} wurde gelöscht.`);
    await expect(page.getByText('Keine Benutzer gefunden.')).toBeVisible();
  });

  test('every tab fits a 390 px and a 320 px phone: nothing scrolls sideways, each tab reached by its link', async ({ page, signIn }) => {
    await signIn({ isAdmin: true });
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 800 });
      await openAdminFromHeader(page);
      for (const [name, tab] of ADMIN_TABS) {
        await openTab(page, name, tab);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${tab} at ${width} px`).toBeLessThanOrEqual(width);
      }
    }
  });

  test('a signed-in non-admin is refused with the card and the toast', async ({ page, signIn }) => {
    await signIn();
    // No way there in the header…
    await page.goto('/');
    await page.locator('[data-user-menu] > summary').click();
    await expect(page.locator('[data-user-menu]').getByRole('link', { name: 'Profil' })).toBeVisible();
    await expect(page.locator('[data-user-menu]').getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
    // …and the address refused.
    const response = await page.goto('/admin?tab=users');
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Zugriff verweigert' })).toBeVisible();
    await expect(toast(page)).toContainText('Sie haben keine Berechtigung für diese Seite.');
    await expect(page.getByRole('table')).toHaveCount(0);
  });
});

test.describe('Barrierefreiheit der Administration', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'axe runs as a script in the page');

  test('every tab passes axe', async ({ page, signIn }) => {
    await signIn({ isAdmin: true });
    for (const tab of ['status', 'stripe', 'google-ads', 'email', 'contact', 'operator', 'users']) {
      await page.goto(`/admin?tab=${tab}`);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(severe.map((v) => `${tab} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });
});

test.describe('Eigenes Konto', () => {
  test('the owner downloads their data and deletes the account with the current password', async ({ page, signIn }) => {
    const user = await signIn({ firstName: 'Olga' });
    await page.goto('/');
    await page.locator('[data-user-menu] > summary').click();
    await page.locator('[data-user-menu]').getByRole('link', { name: 'Profil' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Meine Daten herunterladen' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^druckpreis-daten-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(await fs.readFile((await download.path())!, 'utf8'));
    expect(exported.account).toMatchObject({ email: user.email, firstName: 'Olga' });
    expect(JSON.stringify(exported)).not.toContain('$2');

    await page.goto('/profile');
    await page.locator('#konto-loeschen summary').click();
    await page.getByLabel('Ihr Passwort zur Bestätigung').fill('falsch-falsch');
    await page.getByRole('button', { name: 'Konto endgültig löschen' }).click();
    await expect(page.getByText('Das aktuelle Passwort ist falsch.')).toBeVisible();
    await page.getByLabel('Ihr Passwort zur Bestätigung').fill(FIXTURE_PASSWORD);
    await page.getByRole('button', { name: 'Konto endgültig löschen' }).click();
    await expect(page).toHaveURL(/:\d+\/(#.*)?$/);
    await expect(toast(page)).toContainText('Ihr Konto und Ihre Daten wurden gelöscht.');
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth/);
  });
});
