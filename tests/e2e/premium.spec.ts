import type { Page } from '@playwright/test';
import pg from 'pg';
import { consentCookieValue, expect, test } from './fixtures';
import { E2E_DATABASE_URL } from './server-env';

/**
 * Premium by card against the fake Stripe API (tests/e2e/fake-stripe-server.ts),
 * with and without JavaScript (issue 21), and the ad slots in test mode.
 */

const PAYMENT_CONSENT = { essential: true, analytics: false, marketing: false, payment: true };

async function allowPayments(page: Page, baseURL: string) {
  await page.context().addCookies([{ name: 'cookie_consent', value: consentCookieValue(PAYMENT_CONSENT), url: baseURL }]);
}

const statusCard = (page: Page) => page.locator('[data-premium-status]');

/**
 * To /premium the way a seller gets there: the header's user menu, from the
 * calculator. With scripts that link navigates in the browser, which keeps the
 * calculator's CSP (no Stripe hosts): the page must still load Stripe.js.
 */
async function openPremiumFromHeader(page: Page) {
  await page.goto('/calculator');
  const menu = page.locator('[data-user-menu]');
  await menu.locator('summary').click();
  await menu.getByRole('link', { name: 'Premium', exact: true }).click();
  await expect(page).toHaveURL(/\/premium$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** The Payment Element path up to a usable form: Stripe.js loaded under the page's CSP, the element ready. */
async function openPaymentElement(page: Page) {
  // Rendered once scripts run (before that the button of the same name is the Checkout form's); hydration
  // waits for the page's translations (issue 25), so wait for the router before clicking.
  await page.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter));
  await page.locator('[data-upgrade-button]').click();
  const pay = page.getByRole('button', { name: /3,99 € monatlich bezahlen|Zahlungsformular wird noch geladen/ });
  // Until the element reports ready the button says it is loading and is disabled (with the local stub
  // that may be too short to observe); then it pays.
  await expect(pay).toBeVisible();
  if ((await pay.textContent())?.includes('geladen')) await expect(pay).toBeDisabled();
  await expect(page.getByRole('button', { name: '3,99 € monatlich bezahlen' })).toBeEnabled();
  return pay;
}

test('without payment-cookie consent a notice replaces the upgrade button and leads to the cookie settings', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/premium');
  await expect(page.locator('[data-premium-price]')).toHaveText('3,99 € / Monat');
  // Quotes (issue 26): the free plan's carry a Druckpreis line, Premium's do not.
  await expect(page.getByText('Angebote mit dem Hinweis „Erstellt mit Druckpreis“')).toBeVisible();
  await expect(page.getByText('Angebote ohne Druckpreis-Hinweis')).toBeVisible();
  const notice = page.locator('[data-payment-consent-notice]');
  await expect(notice).toContainText('Zustimmung zu Zahlungs-Cookies erforderlich');
  await expect(page.getByRole('button', { name: 'Jetzt Premium werden' })).toHaveCount(0);
  await notice.getByRole('button', { name: 'Cookie-Einstellungen öffnen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ihre Cookie-Einstellungen' });
  await dialog.getByRole('button', { name: 'Alle akzeptieren' }).click();
  await expect(page).toHaveURL(/\/premium/);
  await expect(notice).toHaveCount(0);
  await expect(page.locator('[data-checkout-form] button')).toBeVisible();
});

test('upgrade through Stripe Checkout, status card, cancel and undo, the gold crown', async ({ page, signIn, baseURL }) => {
  await signIn();
  await allowPayments(page, baseURL!);
  await openPremiumFromHeader(page);
  await expect(page.locator('[data-premium-crown]')).toHaveCount(0);
  // Without scripts this is the upgrade button; with scripts the Payment Element leads and Checkout is the alternative.
  await page.locator('[data-checkout-form] button').click();
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await expect(page.locator('[data-amount]')).toHaveText('399 eur');
  await page.getByRole('button', { name: 'Bezahlen' }).click();

  await expect(page).toHaveURL(/\/premium$/);
  await expect(statusCard(page).locator('[data-premium-status-name]')).toHaveText('Aktiv');
  await expect(statusCard(page).locator('[data-premium-period-end]')).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
  await expect(page.getByText('Premium ist aktiv')).toBeVisible();
  await expect(page.locator('[data-premium-crown]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Jetzt Premium werden' })).toHaveCount(0);

  await statusCard(page).getByRole('link', { name: 'Abo kündigen' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Abo wirklich kündigen?' });
  await expect(confirm).toContainText('Bis dahin bleibt Premium aktiv.');
  await confirm.getByRole('button', { name: 'Ja, Abo kündigen' }).click();
  await expect(page.getByText('Abo gekündigt', { exact: true })).toBeVisible();
  await expect(statusCard(page)).toContainText('Endet am');
  await expect(page.locator('[data-premium-crown]')).toBeVisible();

  await statusCard(page).getByRole('button', { name: 'Kündigung zurücknehmen' }).click();
  await expect(page.getByText('Kündigung zurückgenommen', { exact: true })).toBeVisible();
  await expect(statusCard(page)).toContainText('Nächste Verlängerung');

  await statusCard(page).getByRole('button', { name: 'Zahlungsdaten und Rechnungen' }).click();
  await expect(page.getByRole('heading', { name: 'Fake Stripe Kundenportal' })).toBeVisible();
  await page.getByRole('link', { name: 'Zurück' }).click();
  await expect(statusCard(page)).toBeVisible();
});

test('with JavaScript: the Payment Element path (stub Stripe.js), a declined card, then Premium', async ({ page, signIn, baseURL, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'the Payment Element needs scripts');
  await signIn();
  await allowPayments(page, baseURL!);
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
  const cspViolations: string[] = [];
  page.on('console', (message) => message.text().includes('Content Security Policy') && cspViolations.push(message.text()));
  await openPremiumFromHeader(page);
  const pay = await openPaymentElement(page);
  expect(scripts.some((url) => url.endsWith('/stripe.js'))).toBe(true);
  expect(cspViolations).toEqual([]);

  await page.getByLabel('Kartennummer').fill('4000 0000 0000 0002');
  await pay.click();
  await expect(page.locator('[data-payment-message="error"]')).toContainText('Zahlung fehlgeschlagen');
  await expect(page.locator('[data-payment-message="error"]')).toContainText('Ihre Karte wurde abgelehnt.');

  await page.getByLabel('Kartennummer').fill('4242 4242 4242 4242');
  await pay.click();
  await expect(statusCard(page).locator('[data-premium-status-name]')).toHaveText('Aktiv');
  await expect(page.locator('[data-premium-crown]')).toBeVisible();
});

test('Stripe.js is loaded on /premium only, and only after payment consent', async ({ page, signIn, baseURL, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, 'scripts only');
  await signIn();
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
  await page.goto('/premium');
  await expect(page.locator('[data-payment-consent-notice]')).toBeVisible();
  await allowPayments(page, baseURL!);
  await page.goto('/calculator');
  await expect(page.locator('[data-ad-slot]').first()).toBeVisible();
  expect(scripts.filter((url) => url.includes('stripe'))).toEqual([]);
  const csp = (await page.request.get('/calculator')).headers()['content-security-policy'];
  expect(csp).not.toContain('stripe');
  const premiumResponse = await page.request.get('/premium');
  expect(premiumResponse.headers()['content-security-policy']).toContain('https://js.stripe.com');
  // The internal header that asked for it never reaches the browser.
  expect(premiumResponse.headers()['x-druckpreis-csp']).toBeUndefined();
});

test('the limit notice’s Premium link leads to an upgrade that works, with and without JavaScript', async ({ page, signIn, baseURL, javaScriptEnabled }) => {
  await signIn();
  await allowPayments(page, baseURL!);
  for (const name of ['Eins', 'Zwei', 'Drei']) {
    expect((await page.request.post('/api/projects', { data: { name, quantity: 1, filamentWeight: 25, printTime: 2 } })).status()).toBe(201);
  }
  await page.goto('/projects');
  await page.locator('[data-new-project]').click();
  // With scripts a toast, without them a notice on the page (projects.spec.ts covers the refusal itself).
  const notice = javaScriptEnabled ? page.locator('[data-toast]') : page.locator('[data-limit-notice]');
  await expect(notice).toContainText('Projektlimit erreicht');
  await notice.getByRole('link', { name: 'Premium upgraden' }).click();
  await expect(page).toHaveURL(/\/premium$/);
  await expect(page.locator('[data-premium-price]')).toHaveText('3,99 € / Monat');
  if (!javaScriptEnabled) {
    await expect(page.getByRole('button', { name: 'Jetzt Premium werden' })).toBeVisible();
    return;
  }
  const pay = await openPaymentElement(page);
  await page.getByLabel('Kartennummer').fill('4242 4242 4242 4242');
  await pay.click();
  await expect(statusCard(page).locator('[data-premium-status-name]')).toHaveText('Aktiv');
});

test('past_due: Premium stays, and every page asks for a new card', async ({ page, signIn }) => {
  const user = await signIn({ isPremium: true });
  const client = new pg.Client({ connectionString: E2E_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`update users set subscription_status = 'past_due' where id = $1`, [user.id]);
  } finally {
    await client.end();
  }
  for (const path of ['/calculator', '/projects', '/profile']) {
    await page.goto(path);
    const banner = page.locator('[data-past-due-banner]');
    await expect(banner).toContainText('Ihre letzte Premium-Zahlung ist fehlgeschlagen.');
    await expect(banner.getByRole('link', { name: 'Zahlungsdaten aktualisieren' })).toHaveAttribute('href', '/premium');
    await expect(page.locator('[data-premium-crown]')).toBeVisible();
  }
  await page.goto('/premium');
  await expect(statusCard(page).locator('[data-premium-status-name]')).toHaveText('Zahlung überfällig');
});

test.describe('ads', () => {
  const SLOTS = ['calculator-left', 'calculator-sidebar', 'calculator-below'];

  test('free users see placeholders in every calculator slot, with their space reserved; none in print', async ({ page, signIn }) => {
    await signIn();
    await page.goto('/calculator');
    for (const slot of SLOTS) {
      const box = page.locator(`[data-ad-slot="${slot}"]`);
      await expect(box.locator('[data-ad-placeholder]')).toContainText('Hier erscheint Werbung');
      expect((await box.boundingBox())?.height).toBe(slot === 'calculator-sidebar' ? 250 : 120);
    }
    await page.emulateMedia({ media: 'print' });
    for (const slot of SLOTS) await expect(page.locator(`[data-ad-slot="${slot}"]`)).toBeHidden();
  });

  test('Premium users see no ad slot', async ({ page, signIn }) => {
    await signIn({ isPremium: true });
    await page.goto('/calculator');
    await expect(page.locator('[data-premium-crown]')).toBeVisible();
    await expect(page.locator('[data-ad-slot]')).toHaveCount(0);
  });

  test.describe('before the cookie answer', () => {
    test.use({ withConsent: false });
    test('visitors get the reserved space only; answering fills it without moving anything', async ({ page }) => {
      await page.goto('/');
      const slot = page.locator('[data-ad-slot="landing"]');
      await expect(slot).toHaveCount(1);
      await expect(slot.locator('[data-ad-placeholder]')).toHaveCount(0);
      const before = await slot.boundingBox();
      expect(before?.height).toBe(120);
      await page.getByRole('dialog', { name: 'Ihre Cookie-Einstellungen' }).getByRole('button', { name: 'Nur notwendige' }).click();
      await expect(slot.locator('[data-ad-placeholder]')).toBeVisible();
      expect((await slot.boundingBox())?.height).toBe(120);
    });
  });
});
