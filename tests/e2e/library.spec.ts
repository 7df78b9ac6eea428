import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/*
 * The five library pages, run with JavaScript (modal dialogs, reached through
 * the header) and without (the same forms on the page, `?new` / `?edit=` /
 * `?delete=`). One table of expectations per kind; the page is one
 * implementation, so one parametrised test covers all five.
 */

type Case = {
  path: string;
  api: string;
  nav: string;
  title: string;
  singular: string;
  add: string;
  empty: string;
  noResults: string;
  created: string;
  updated: string;
  deleted: string;
  /** A number field, the German text typed into it, how the card shows it and (when it differs from `typed`) how the edit form is pre-filled. */
  figure: { label: string; typed: string; shown: string; prefilled?: string };
};

const cases: Case[] = [
  {
    path: '/printers', api: '/api/printers', nav: 'Drucker', title: 'Drucker', singular: 'Drucker', add: 'Drucker hinzufügen',
    empty: 'Noch keine Drucker', noResults: 'Keine Drucker gefunden', created: 'Drucker erstellt', updated: 'Drucker aktualisiert', deleted: 'Drucker gelöscht',
    figure: { label: 'Leistung', typed: '150', shown: '150\u00A0W' },
  },
  {
    path: '/filaments', api: '/api/filaments', nav: 'Filamente', title: 'Filamente', singular: 'Filament', add: 'Filament hinzufügen',
    empty: 'Noch keine Filamente', noResults: 'Keine Filamente gefunden', created: 'Filament erstellt', updated: 'Filament aktualisiert', deleted: 'Filament gelöscht',
    figure: { label: 'Preis pro kg', typed: '22,5', shown: '22,50\u00A0€/kg', prefilled: '22,50' },
  },
  {
    path: '/packaging', api: '/api/packaging', nav: 'Verpackung', title: 'Verpackung', singular: 'Verpackung', add: 'Verpackung hinzufügen',
    empty: 'Noch keine Verpackungen', noResults: 'Keine Verpackungen gefunden', created: 'Verpackung erstellt', updated: 'Verpackung aktualisiert', deleted: 'Verpackung gelöscht',
    figure: { label: 'Kosten', typed: '0,75', shown: '0,75\u00A0€' },
  },
  {
    path: '/shipping', api: '/api/shipping-providers', nav: 'Versanddienstleister', title: 'Versanddienstleister', singular: 'Versanddienstleister', add: 'Versanddienstleister hinzufügen',
    empty: 'Noch keine Versanddienstleister', noResults: 'Keine Versanddienstleister gefunden', created: 'Versanddienstleister erstellt', updated: 'Versanddienstleister aktualisiert', deleted: 'Versanddienstleister gelöscht',
    figure: { label: 'Grundpreis', typed: '5,49', shown: '5,49\u00A0€' },
  },
  {
    path: '/marketplaces', api: '/api/marketplaces', nav: 'Marktplätze', title: 'Marktplätze', singular: 'Marktplatz', add: 'Marktplatz hinzufügen',
    empty: 'Noch keine Marktplätze', noResults: 'Keine Marktplätze gefunden', created: 'Marktplatz erstellt', updated: 'Marktplatz aktualisiert', deleted: 'Marktplatz gelöscht',
    figure: { label: 'Prozentuale Gebühr', typed: '0,065', shown: '6,5\u00A0%' },
  },
];

/** Through the header's Verwaltung menu (a <details>, so it opens without scripts too). */
async function openFromHeader(page: Page, c: Case) {
  await page.goto('/calculator');
  const management = page.getByRole('banner').locator('[data-management-menu]');
  await management.locator('summary').click();
  await management.getByRole('link', { name: c.nav, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${c.path}$`));
  await expect(page.getByRole('heading', { level: 1, name: c.title })).toBeVisible();
}

function panel(page: Page) {
  return page.locator('[data-library-panel]');
}

function card(page: Page, name: string) {
  return page.locator(`[data-library-item="${name}"]`);
}

function toast(page: Page) {
  return page.locator('[data-toast]');
}

for (const c of cases) {
  test(`${c.path}: create, edit, search, deactivate and delete`, async ({ page, javaScriptEnabled, signIn }) => {
    test.setTimeout(90_000);
    await signIn();
    await openFromHeader(page, c);
    await expect(page.getByText(c.empty, { exact: true })).toBeVisible();

    // Create (with a German decimal).
    await page.getByRole('link', { name: c.add }).click();
    const form = panel(page);
    if (javaScriptEnabled) await expect(page.getByRole('dialog')).toBeVisible();
    else await expect(page).toHaveURL(new RegExp(`${c.path}\\?new$`));
    await form.getByLabel('Name', { exact: true }).fill('Erster Eintrag');
    await form.getByLabel(c.figure.label, { exact: true }).fill(c.figure.typed);
    await form.getByRole('button', { name: 'Speichern' }).click();
    await expect(toast(page)).toContainText(c.created);
    await expect(panel(page)).toHaveCount(0);
    const first = card(page, 'Erster Eintrag');
    await expect(first).toContainText(c.figure.shown);
    await expect(first).toContainText('Aktiv');

    // A bad value is answered next to the field; nothing is saved.
    await first.getByRole('link', { name: 'Erster Eintrag bearbeiten' }).click();
    await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue('Erster Eintrag');
    // Money comes back with its two decimals (issue 24 §1).
    await expect(panel(page).getByLabel(c.figure.label, { exact: true })).toHaveValue(c.figure.prefilled ?? c.figure.typed);
    await panel(page).getByLabel(c.figure.label, { exact: true }).fill('-1');
    await panel(page).getByLabel('Name', { exact: true }).fill('Umbenannt');
    await panel(page).getByRole('button', { name: 'Speichern' }).click();
    await expect(panel(page).getByText(/mindestens|zwischen 0 und 1/)).toBeVisible();
    // Without scripts the server answered: the form says it was not saved (spec §8).
    if (!javaScriptEnabled) await expect(panel(page).getByRole('alert')).toContainText('konnte nicht gespeichert werden');
    await expect(card(page, 'Erster Eintrag')).toHaveCount(1);

    // Edit.
    await panel(page).getByLabel(c.figure.label, { exact: true }).fill(c.figure.typed);
    await panel(page).getByRole('button', { name: 'Speichern' }).click();
    await expect(toast(page)).toContainText(c.updated);
    await expect(card(page, 'Umbenannt')).toContainText(c.figure.shown);

    // Search (case-insensitive substring).
    const second = await page.request.post(c.api, { data: { name: 'Zweites Teil' } });
    expect(second.status()).toBe(201);
    await page.reload();
    await page.getByRole('searchbox', { name: 'Suche' }).fill('ZWEITES');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page).toHaveURL(/q=ZWEITES/);
    await expect(card(page, 'Zweites Teil')).toBeVisible();
    await expect(card(page, 'Umbenannt')).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Suche' }).fill('nichts davon');
    await page.getByRole('button', { name: 'Suchen' }).click();
    await expect(page.getByText(c.noResults, { exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Suche zurücksetzen' }).click();
    await expect(card(page, 'Umbenannt')).toBeVisible();

    // Deactivate: the printer form has the switch, the others a card action.
    const renamed = card(page, 'Umbenannt');
    if (c.path === '/printers') {
      await renamed.getByRole('link', { name: 'Umbenannt bearbeiten' }).click();
      await panel(page).getByRole('checkbox', { name: 'Aktiv (im Rechner auswählbar)' }).uncheck();
      await panel(page).getByRole('button', { name: 'Speichern' }).click();
      await expect(toast(page)).toContainText(c.updated);
    } else {
      await renamed.getByRole('button', { name: 'Umbenannt deaktivieren' }).click();
      await expect(toast(page)).toContainText(`${c.singular} deaktiviert`);
      await expect(card(page, 'Umbenannt').getByRole('button', { name: 'Umbenannt aktivieren' })).toBeVisible();
    }
    await expect(card(page, 'Umbenannt')).toContainText('Inaktiv');
    const stored = await (await page.request.get(c.api)).json();
    expect(stored.find((entry: { name: string }) => entry.name === 'Umbenannt').isActive).toBe(0);

    // Delete, after a confirmation that says it cannot be undone.
    await card(page, 'Umbenannt').getByRole('link', { name: 'Umbenannt löschen' }).click();
    if (javaScriptEnabled) await expect(page.getByRole('alertdialog')).toBeVisible();
    await expect(panel(page)).toContainText('nicht rückgängig');
    await panel(page).getByRole('button', { name: 'Endgültig löschen' }).click();
    await expect(toast(page)).toContainText(c.deleted);
    await expect(card(page, 'Umbenannt')).toHaveCount(0);
    await expect(card(page, 'Zweites Teil')).toBeVisible();
  });
}

test('presets: marketplace fees and a parcel price go into the library with one click', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/marketplaces');
  await page.getByRole('button', { name: 'Etsy (Verkäufer in Deutschland) in meine Bibliothek übernehmen' }).click();
  await expect(toast(page)).toContainText('Marktplatz erstellt');
  // The new item opens for editing, prefilled with the table's figures.
  await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue('Etsy');
  await expect(panel(page).getByLabel('Prozentuale Gebühr', { exact: true })).toHaveValue('0,105');
  await expect(panel(page).locator('[data-percent-meaning]')).toHaveText('= 10,5\u00A0%');
  await expect(panel(page).getByLabel('Fixe Gebühr', { exact: true })).toHaveValue('0,30');
  await panel(page).getByRole('link', { name: 'Abbrechen' }).click();
  await expect(card(page, 'Etsy')).toContainText('10,5\u00A0%');
  await expect(card(page, 'Etsy')).toContainText('0,30\u00A0€');
  // Pressed again: no second, identical Etsy; the one taken over opens with a note.
  await page.getByRole('button', { name: 'Etsy (Verkäufer in Deutschland) in meine Bibliothek übernehmen' }).click();
  await expect(toast(page)).toContainText('Bereits in Ihrer Bibliothek');
  await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue('Etsy');
  await panel(page).getByRole('link', { name: 'Abbrechen' }).click();
  await expect(page.locator('[data-library-item="Etsy"]')).toHaveCount(1);
  // Its description (the fee's parts) is on the card.
  await expect(card(page, 'Etsy').locator('[data-library-description]')).toContainText('6,5 % Transaktionsgebühr');
  // amazon.de's rate, not the US one; its 0,30 € minimum is said in words, not added as a fee.
  await page.getByRole('button', { name: 'Amazon Handmade in meine Bibliothek übernehmen' }).click();
  await expect(panel(page).getByLabel('Prozentuale Gebühr', { exact: true })).toHaveValue('0,12');
  await expect(panel(page).getByLabel('Fixe Gebühr', { exact: true })).toHaveValue('0,00');
  await panel(page).getByRole('link', { name: 'Abbrechen' }).click();
  await expect(card(page, 'Amazon Handmade')).toContainText('mindestens 0,30 €');

  await page.goto('/shipping');
  await page.getByRole('button', { name: 'DHL Paket bis 2 kg in meine Bibliothek übernehmen' }).click();
  await expect(toast(page)).toContainText('Versanddienstleister erstellt');
  await expect(panel(page).getByLabel('Grundpreis', { exact: true })).toHaveValue('6,19');
  await panel(page).getByRole('link', { name: 'Abbrechen' }).click();
  await expect(card(page, 'DHL Paket 2 kg')).toContainText('6,19\u00A0€');
  // Each parcel keeps its own name: in the calculator's picker they must be told apart.
  await page.getByRole('button', { name: 'DHL Päckchen S in meine Bibliothek übernehmen' }).click();
  await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue('DHL Päckchen S');
  await panel(page).getByRole('link', { name: 'Abbrechen' }).click();
  await expect(card(page, 'DHL Päckchen S')).toContainText('4,19\u00A0€');
  await expect(page.getByText('Stand: 1. Januar 2025')).toBeVisible();
});

test('the fee fraction shows its meaning as a percentage, live with JS and after a server render', async ({ page, javaScriptEnabled, signIn }) => {
  await signIn();
  await page.goto('/marketplaces?new');
  const meaning = panel(page).locator('[data-percent-meaning]');
  await expect(meaning).toHaveText('= 5\u00A0%');
  await panel(page).getByLabel('Name', { exact: true }).fill('Eigener Shop');
  await panel(page).getByLabel('Prozentuale Gebühr', { exact: true }).fill('0,065');
  if (javaScriptEnabled) await expect(meaning).toHaveText('= 6,5\u00A0%');
  // An invalid fraction is refused with the German range message; the typed value comes back with its meaning.
  await panel(page).getByLabel('Prozentuale Gebühr', { exact: true }).fill('1,5');
  await panel(page).getByRole('button', { name: 'Speichern' }).click();
  await expect(panel(page).getByText('Die Gebühr muss zwischen 0 und 1 liegen')).toBeVisible();
});

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'modal dialog behaviour and axe need scripts');

  test('the dialog is modal: focus moves in, Escape closes it and focus returns to the opener', async ({ page, signIn }) => {
    await signIn();
    await openFromHeader(page, cases[0]);
    const add = page.getByRole('link', { name: 'Drucker hinzufügen' });
    await add.click();
    const dialog = page.getByRole('dialog', { name: 'Neuer Drucker' });
    await expect(dialog).toBeVisible();
    // Defaults from spec §9.
    await expect(dialog.getByLabel('Leistung')).toHaveValue('200');
    await expect(dialog.getByLabel('Anschaffungskosten')).toHaveValue('300,00');
    await expect(dialog.getByLabel('Lebensdauer')).toHaveValue('3000');
    await expect(dialog.getByLabel('Strompreis')).toHaveValue('0,32');
    await expect(dialog.getByRole('checkbox', { name: 'Aktiv (im Rechner auswählbar)' })).toBeChecked();
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
    // The page behind is inert while the dialog is open.
    expect(await page.evaluate(() => document.querySelector('dialog')?.matches(':modal'))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page).toHaveURL(/\/printers$/);
    await expect(add).toBeFocused();
  });

  test('axe: no serious or critical violations on a library page with the dialog open', async ({ page, signIn }) => {
    await signIn();
    await page.request.post('/api/filaments', { data: { name: 'PLA Schwarz', material: 'PLA' } });
    await page.goto('/filaments');
    await page.getByRole('link', { name: 'Filament hinzufügen' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const severe = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(severe.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test('a 320 px phone shows the library without sideways scrolling', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signIn();
  await page.request.post('/api/marketplaces', { data: { name: 'Ein Marktplatz mit einem recht langen Namen' } });
  // On a phone the library pages are reached through the user menu (a client-side navigation with scripts).
  await page.goto('/calculator');
  await page.locator('[data-user-menu] > summary').click();
  await page.locator('[data-user-menu]').getByRole('link', { name: 'Marktplätze' }).click();
  await expect(page).toHaveURL(/\/marketplaces$/);
  await expect(card(page, 'Ein Marktplatz mit einem recht langen Namen')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  // The fee overview is wider than the phone: its box scrolls sideways, says so, and takes keyboard focus.
  const fees = page.getByRole('region', { name: 'Tabelle: Gebühren von Marktplätzen und Shopsystemen' });
  await fees.scrollIntoViewIfNeeded();
  expect(await fees.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
  await expect(page.locator('[data-scroll-hint]').last()).toBeVisible();
  await fees.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => fees.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);

  // On a wide screen the hint is not needed.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.locator('[data-scroll-hint]').last()).toBeHidden();
});

test("another user's item is not found", async ({ page, signIn }) => {
  await signIn();
  const created = await (await page.request.post('/api/printers', { data: { name: 'Fremd' } })).json();
  await page.context().clearCookies();
  await signIn();
  const response = await page.goto(`/printers?edit=${created.id}`);
  expect(response?.status()).toBe(404);
});

test('picking stored items in the calculator fills the fields and changes the figures', async ({ page, signIn, javaScriptEnabled }) => {
  await signIn();
  await page.request.post('/api/printers', { data: { name: 'Stromfresser', wattage: 1200, cost: 2000, lifetimeHours: 1000, electricityRate: 0.5 } });
  await page.request.post('/api/printers', { data: { name: 'Ruhend', isActive: 0 } });
  await page.request.post('/api/marketplaces', { data: { name: 'Etsy', percentageFee: 0.105, fixedFee: 0.3 } });
  await page.goto('/printers');
  await page.getByRole('banner').getByRole('link', { name: 'Rechner', exact: true }).click();
  await expect(page).toHaveURL(/\/calculator$/);
  const total = page.locator('[data-result="totalCosts"]');
  const before = await total.textContent();

  // Only active items are offered.
  const printerSelect = page.getByLabel('Drucker auswählen');
  await expect(printerSelect.locator('option')).toHaveText(['Manuell eingeben', 'Stromfresser']);
  await printerSelect.selectOption({ label: 'Stromfresser' });
  if (!javaScriptEnabled) {
    await page.getByRole('button', { name: 'Drucker übernehmen' }).click();
    // The address holds the filled values: a shareable calculation; the page is back at the picker, not at the results.
    await expect(page).toHaveURL(/printerWattage=1200.*#auswahl-printer$/);
    await expect(page.locator('[data-picker="printer"]')).toBeInViewport();
  }
  await expect(page.getByLabel('Leistungsaufnahme', { exact: true })).toHaveValue('1200');
  await expect(page.getByLabel('Anschaffungskosten Drucker', { exact: true })).toHaveValue('2000,00');
  await expect(page.locator('[data-picker="printer"] [data-picker-applied]')).toContainText('Automatisch übernommen');
  // Each value taken over, by its field's label and with its unit.
  // Written the pages' way (issue 24 §1): thousands dot, money with two decimals.
  await expect(page.locator('[data-picker="printer"] [data-picker-applied] li')).toHaveText([
    'Leistungsaufnahme: 1.200\u00A0W',
    'Anschaffungskosten Drucker: 2.000,00\u00A0€',
    'Lebensdauer Drucker: 1.000\u00A0h',
    'Strompreis: 0,50\u00A0€/kWh',
  ]);
  await expect(total).not.toHaveText(before!);

  await page.getByLabel('Marktplatz auswählen').selectOption({ label: 'Etsy' });
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Marktplatz übernehmen' }).click();
  await expect(page.getByLabel('Prozentuale Gebühr', { exact: true })).toHaveValue('10,5');
  // The printer taken over before is kept, and so is its box (without scripts too: issue 24 §2).
  await expect(page.getByLabel('Leistungsaufnahme', { exact: true })).toHaveValue('1200');
  await expect(page.locator('[data-picker="printer"] [data-picker-applied]')).toContainText('Aus „Stromfresser“');
  await expect(page.locator('[data-picker="marketplace"] [data-picker-applied] li')).toHaveText(['Prozentuale Gebühr: 10,5\u00A0%', 'Fixe Gebühr: 0,30\u00A0€']);

  // An empty library points to where items are added.
  await expect(page.getByText('Keine aktiven Filamente verfügbar')).toBeVisible();
  await expect(page.locator('[data-picker-empty="filament"]').getByRole('link', { name: 'Filament hinzufügen' })).toHaveAttribute('href', '/filaments?new');
});
