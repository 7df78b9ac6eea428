import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { prusaGcode } from '../fixtures/slicer/make';

/*
 * Issue 24 §1 and §2 ("A seller's second week"), in both projects (`js` and `no-js`):
 * German numbers on every page a visitor and a seller with a filled library reach by
 * following links, and the small things that cost trust.
 */

const field = (page: Page, name: string) => page.locator(`#calculator-form input[name="${name}"]`);

/**
 * What a German reader would stumble over in the page's rendered text: an English decimal
 * point ("27.9", "1.24 g/cm³") or an amount of money without its two decimals ("1299,5 €",
 * "8 €"); and an input pre-filled with an English decimal point.
 * Dates (26.11.2026) and version numbers (2.7.1) are not numbers with a decimal point.
 */
async function numberProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const text = document.body.innerText;
    const around = (index: number, length: number) => text.slice(Math.max(0, index - 40), index + length + 15).replace(/\s+/g, ' ');
    for (const match of text.matchAll(/(?<![\d.,])\d+\.\d{1,2}(?![\d.])/g)) problems.push(`Dezimalpunkt „${match[0]}“: …${around(match.index, match[0].length)}…`);
    for (const match of text.matchAll(/(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+|\d+)(,\d+)?\s?€/g)) {
      if (!match[1] || match[1].length < 3) problems.push(`Betrag ohne zwei Nachkommastellen „${match[0]}“: …${around(match.index, match[0].length)}…`);
    }
    for (const input of document.querySelectorAll<HTMLInputElement>('input:not([type="hidden"])')) {
      if (/^-?\d+\.\d{1,2}$/.test(input.value)) problems.push(`Eingabe ${input.name} vorbelegt mit „${input.value}“`);
    }
    return problems;
  });
}

/** A page's address as the crawl tells pages apart: path and the names of its parameters. */
function pageKey(href: string): string {
  const url = new URL(href, 'http://x');
  return `${url.pathname}?${[...new Set(url.searchParams.keys())].sort().join('&')}`;
}

const NOT_PAGES = /^\/(api|logout|images|uploads|calculator\/export|calculator\/slicer-import)\b|\.(pdf|csv|xml|json|txt)$|\[\.pdf\]/;

/**
 * Every page reachable from `start` by following links (up to `limit`), each reached by
 * clicking its link on the page that showed it; the number problems found on each.
 */
async function crawl(page: Page, start: string, limit: number, javaScriptEnabled: boolean): Promise<{ visited: string[]; problems: string[] }> {
  await page.goto(start);
  const seen = new Set([pageKey(start)]);
  const queue: Array<{ from: string; href: string }> = [];
  const visited: string[] = [];
  const problems: string[] = [];
  const here = () => {
    const url = new URL(page.url());
    return url.pathname + url.search;
  };
  const look = async () => {
    visited.push(here());
    for (const problem of await numberProblems(page)) problems.push(`${here()}: ${problem}`);
    const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      if (!href.startsWith('/') || href.startsWith('//')) continue;
      const path = href.replace(/#.*$/, '');
      if (path === '' || NOT_PAGES.test(new URL(path, 'http://x').pathname)) continue;
      const key = pageKey(path);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ from: here(), href });
    }
  };
  await look();
  while (queue.length > 0 && visited.length < limit) {
    const { from, href } = queue.shift()!;
    if (here() !== from) await page.goto(from);
    const link = page.locator(`a[href="${href}"]`).first();
    // Links in closed menus are clicked as the element they are (a real click, with and without scripts).
    const click = () => link.evaluate((element: HTMLAnchorElement) => element.click());
    if (javaScriptEnabled) {
      // A client-side navigation: done when Remix's router is idle again (a redirect may lead back here).
      await click();
      await page.waitForTimeout(100);
      await page.waitForFunction(() => (window as unknown as { __remixRouter?: { state: { navigation: { state: string } } } }).__remixRouter?.state.navigation.state === 'idle');
      await page.waitForLoadState('load');
    } else {
      await Promise.all([page.waitForEvent('load'), click()]);
    }
    await look();
  }
  return { visited, problems };
}

test.describe('Deutsche Zahlen auf jeder Seite (issue 24 §1)', () => {
  test('a visitor meets no English decimal point and no amount without two decimals', async ({ page, javaScriptEnabled }) => {
    test.setTimeout(120_000);
    const { visited, problems } = await crawl(page, '/', 30, javaScriptEnabled);
    expect(visited).toEqual(expect.arrayContaining(['/', '/calculator', '/impressum', '/datenschutz', '/kontakt']));
    expect(problems).toEqual([]);
  });

  test('a seller with a filled library and a project meets none either', async ({ page, signIn, javaScriptEnabled }) => {
    test.setTimeout(180_000);
    await signIn();
    const post = async (path: string, data: Record<string, unknown>) => expect((await page.request.post(path, { data })).status()).toBe(201);
    // The values the issue found written raw: 1299,5 €, 27,9, 0,8 and 6000 h.
    await post('/api/printers', { name: 'Bambu X1', wattage: 350, cost: 1299.5, lifetimeHours: 6000, electricityRate: 0.32 });
    await post('/api/filaments', { name: 'PLA Schwarz', material: 'PLA', pricePerKg: 27.9 });
    await post('/api/packaging', { name: 'Karton S', type: 'box', cost: 0.8, description: 'Karton 20 × 15 × 10 cm für 1,5 kg' });
    await post('/api/shipping-providers', { name: 'DHL 2 kg', baseCost: 6.19 });
    await post('/api/marketplaces', { name: 'Etsy', percentageFee: 0.065, fixedFee: 0.2 });
    await post('/api/projects', { name: 'Drache', quantity: 2, filamentWeight: 42.5, printTime: 2.5, targetPrice: 29.9 });

    const { visited, problems } = await crawl(page, '/calculator', 45, javaScriptEnabled);
    expect(visited).toEqual(expect.arrayContaining(['/projects', '/printers', '/filaments', '/packaging', '/shipping', '/marketplaces', '/profile']));
    expect(visited.some((address) => address.startsWith('/calculator?project='))).toBe(true);
    expect(problems).toEqual([]);

    // The pickers' 'Automatisch übernommen' boxes, all five taken over.
    await page.goto('/projects');
    await page.getByRole('banner').getByRole('link', { name: 'Rechner', exact: true }).click();
    await expect(page).toHaveURL(/\/calculator$/);
    const pickers: Array<[string, string, string]> = [
      ['Drucker auswählen', 'Bambu X1', 'Drucker übernehmen'],
      ['Filament auswählen', 'PLA Schwarz', 'Filament übernehmen'],
      ['Verpackung auswählen', 'Karton S', 'Verpackung übernehmen'],
      ['Versanddienstleister auswählen', 'DHL 2 kg', 'Versanddienstleister übernehmen'],
      ['Marktplatz auswählen', 'Etsy', 'Marktplatz übernehmen'],
    ];
    for (const [label, item, apply] of pickers) {
      await page.getByLabel(label).selectOption({ label: item });
      if (!javaScriptEnabled) await page.getByRole('button', { name: apply }).click();
    }
    // Without scripts too, every picker's box stays (issue 24 §2), each written the German way.
    await expect(page.locator('[data-picker-applied]')).toHaveCount(5);
    await expect(page.locator('[data-picker="printer"] [data-picker-applied] li')).toHaveText([
      'Leistungsaufnahme: 350 W',
      'Anschaffungskosten Drucker: 1.299,50 €',
      'Lebensdauer Drucker: 6.000 h',
      'Strompreis: 0,32 €/kWh',
    ]);
    await expect(page.locator('[data-picker="filament"] [data-picker-applied] li')).toHaveText(['Filamentpreis: 27,90 €/kg']);
    await expect(page.locator('[data-picker="packaging"] [data-picker-applied] li')).toHaveText(['Verpackungskosten: 0,80 €']);
    await expect(page.locator('[data-picker="marketplace"] [data-picker-applied] li')).toHaveText(['Prozentuale Gebühr: 6,5 %', 'Fixe Gebühr: 0,20 €']);
    // The inputs take the values in the form the parser reads, money with its two decimals.
    await expect(field(page, 'printerCost')).toHaveValue('1299,50');
    await expect(field(page, 'filamentPricePerKg')).toHaveValue('27,90');
    await expect(field(page, 'packagingCost')).toHaveValue('0,80');
    expect(await numberProblems(page)).toEqual([]);
  });
});

test.describe('Ein gespeichertes Projekt, bearbeitet (issue 24 §2)', () => {
  async function openProject(page: Page) {
    await page.goto('/projects');
    await page.getByRole('link', { name: /Drache/ }).first().click();
    await expect(page).toHaveURL(/\/calculator\?project=[0-9a-f-]{36}/);
    await expect(page.getByText('Als Projekt gespeichert')).toBeVisible();
    await expect(page.locator('[data-project-unsaved]')).toHaveCount(0);
  }

  test('typing or a slicer file turns the note into "Ungespeicherte Änderungen", with and without scripts', async ({ page, signIn, javaScriptEnabled }) => {
    await signIn();
    expect((await page.request.post('/api/projects', { data: { name: 'Drache', quantity: 1, filamentWeight: 42.5, printTime: 2.5, targetPrice: 29.9 } })).status()).toBe(201);
    await openProject(page);
    // A reopened target price keeps its two decimals (issue 24 §1).
    await expect(field(page, 'targetPrice')).toHaveValue('29,90');

    await field(page, 'filamentWeight').fill('50');
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Berechnen' }).click();
    await expect(page.locator('[data-project-unsaved]')).toContainText('Ungespeicherte Änderungen');
    await expect(page.getByText('Als Projekt gespeichert')).toHaveCount(0);
    // Typed back to the saved value: nothing is unsaved any more (with scripts; without, the server compares).
    await field(page, 'filamentWeight').fill('42,5');
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Berechnen' }).click();
    await expect(page.getByText('Als Projekt gespeichert')).toBeVisible();

    // A slicer file imported into the opened project.
    await openProject(page);
    if (javaScriptEnabled) await expect(page.getByRole('button', { name: 'Übernehmen', exact: true })).toHaveCount(0);
    await page.getByLabel('Aus Slicer-Datei übernehmen').setInputFiles({
      name: 'drache.gcode',
      mimeType: 'text/x-gcode',
      buffer: Buffer.from(prusaGcode({ grams: '61.2', time: '4h 10m 0s' })),
    });
    if (!javaScriptEnabled) await page.getByRole('button', { name: 'Übernehmen', exact: true }).click();
    await expect(field(page, 'filamentWeight')).toHaveValue('61,2');
    await expect(page.locator('[data-project-unsaved]')).toContainText('Ungespeicherte Änderungen');
    await expect(page.getByText('Als Projekt gespeichert')).toHaveCount(0);
  });
});

test.describe('Mindestpreis (issue 24 §2)', () => {
  test("the caption is set like the card's text, flush with the price", async ({ page }) => {
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Rechner', exact: true }).click();
    const price = page.locator('[data-result="minimumPriceWithVat"]');
    const caption = page.locator('[data-minimum-price-caption]');
    await expect(caption).toHaveText('Mindestpreis inkl. MwSt. · für 1 Stück');
    const label = page.locator('[data-result="minimumPrice"]').locator('xpath=preceding-sibling::dt');
    const style = (locator: typeof caption) =>
      locator.evaluate((element) => {
        const computed = getComputedStyle(element);
        return { font: computed.fontFamily, size: computed.fontSize, spacing: computed.letterSpacing, weight: computed.fontWeight };
      });
    expect(await style(caption)).toEqual(await style(label));
    const left = async (locator: typeof caption) => (await locator.boundingBox())!.x;
    expect(Math.abs((await left(caption)) - (await left(price)))).toBeLessThan(1);
  });
});

test.describe('Druckhinweis ohne JavaScript (issue 24 §2)', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'with scripts the page has a print button instead');

  test('names Strg+P only where there is a keyboard, never on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await page.getByRole('link', { name: 'Jetzt kostenlos berechnen' }).first().click();
    await expect(page).toHaveURL(/\/calculator/);
    const hint = page.locator('[data-print-hint]');
    // What is shown (innerText): the phone is told no shortcut it does not have.
    await expect(hint).toBeVisible();
    expect((await hint.innerText()).trim()).toBe('Drucken Sie die Seite über das Menü Ihres Browsers, um ein Kostenblatt zu erhalten.');
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await hint.innerText()).trim()).toBe(
      'Drucken Sie die Seite über das Menü Ihres Browsers, um ein Kostenblatt zu erhalten. Am Computer: Strg+P.',
    );
  });
});

test.describe('Ungültige Eingabe auf dem Desktop (issue 24 §2)', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'without scripts there is no earlier result to keep');

  test('keeps the last valid results dimmed, the hint at the top of the column', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: 'Rechner', exact: true }).click();
    const total = page.locator('[data-result="minimumPriceWithVat"]');
    await expect(total).toHaveText('20,67 €');
    await field(page, 'quantity').fill('abc');
    await field(page, 'quantity').press('Tab');
    const hint = page.locator('[data-results-held]');
    await expect(hint).toHaveText('Bitte korrigieren Sie die markierten Eingaben, um das Ergebnis zu sehen.');
    await expect(page.locator('[data-stale] [data-result="minimumPriceWithVat"]')).toHaveText('20,67 €');
    expect(Number(await page.locator('[data-stale]').evaluate((element) => getComputedStyle(element).opacity))).toBeLessThan(1);
    // The first thing in the results column, in view without scrolling.
    expect(await page.locator('#ergebnis').evaluate((column) => column.firstElementChild?.hasAttribute('data-results-held'))).toBe(true);
    await expect(hint).toBeInViewport();
  });
});
