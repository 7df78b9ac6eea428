import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * The /profile forms whose answer opens at their own card (#geschaeftsdaten, #standardwerte,
 * #passwort): the confirmation is on screen where the seller lands, in both projects. Without
 * scripts the browser scrolls to the card, out of sight of a toast at the top, so the card shows
 * it (role="status") and the toast stays hidden; with scripts the toast shows as before and the
 * card's copy stays hidden. Either way the message is there once.
 */

const SCREENS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** The one visible confirmation titled `title`: in viewport, inside `card` without scripts, the toast with them. */
async function expectConfirmation(page: Page, card: Locator, title: string, javaScriptEnabled: boolean) {
  const inCard = card.locator('[data-section-status]');
  const toast = page.locator('[data-toast]');
  if (javaScriptEnabled) {
    await expect(toast).toContainText(title, { timeout: 15_000 });
    await expect(toast).toBeInViewport();
    await expect(inCard).toBeHidden();
  } else {
    await expect(inCard).toContainText(title, { timeout: 15_000 });
    await expect(inCard).toHaveAttribute('role', 'status');
    await expect(inCard).toBeInViewport();
    await expect(toast).toBeHidden();
  }
  await expect(page.getByText(title, { exact: true }).filter({ visible: true })).toHaveCount(1);
}

test('the profile cards that open at their anchor show their confirmation on screen', async ({ page, signIn, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  let { password } = await signIn();
  for (const [index, screen] of SCREENS.entries()) {
    await page.setViewportSize(screen);
    await page.goto('/profile');

    const business = page.locator('#geschaeftsdaten');
    await business.getByLabel('Firmen- oder Geschäftsname').fill(`Müllers 3D-Druckerei ${index}`);
    await business.getByLabel('Anschrift').fill('Werkstraße 5\n80331 München');
    await business.getByLabel('Mailadresse für Kunden').fill('angebote@mueller-3d.example');
    await business.getByRole('button', { name: 'Geschäftsdaten speichern' }).click();
    await expect(page).toHaveURL(/\/profile#geschaeftsdaten$/);
    await expectConfirmation(page, business, 'Geschäftsdaten gespeichert', javaScriptEnabled);

    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 300, height: 100, channels: 4, background: { r: 20, g: 110, b: 100, alpha: 1 } } }).png().toBuffer();
    await business.getByLabel(/Logo-Datei wählen|Anderes Logo wählen/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await business.getByRole('button', { name: 'Logo hochladen' }).click();
    await expectConfirmation(page, business, 'Logo gespeichert', javaScriptEnabled);

    const defaults = page.locator('#standardwerte');
    await defaults.getByLabel('Stundensatz (€/h)').fill(`2${index},50`);
    await defaults.getByRole('button', { name: 'Standardwerte speichern' }).click();
    await expect(page).toHaveURL(/\/profile#standardwerte$/);
    await expectConfirmation(page, defaults, 'Standardwerte gespeichert', javaScriptEnabled);

    const next = `Sektion-${2026 + index}!`;
    const passwordCard = page.locator('#passwort');
    await passwordCard.getByLabel('Aktuelles Passwort').fill(password);
    await passwordCard.getByLabel('Neues Passwort').fill(next);
    await passwordCard.getByLabel('Passwort bestätigen').fill(next);
    await passwordCard.getByRole('button', { name: 'Passwort ändern' }).click();
    await expectConfirmation(page, passwordCard, 'Passwort geändert', javaScriptEnabled);
    password = next;

    // A message that belongs to no card (the profile itself, at the top) stays the toast, without scripts too.
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await expect(page.locator('[data-toast]')).toContainText('Profil aktualisiert', { timeout: 15_000 });
    await expect(page.locator('[data-toast]')).toBeInViewport();
    await expect(page.locator('[data-section-status]')).toHaveCount(0);
  }
});
