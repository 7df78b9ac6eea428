import { expect, test } from './fixtures';

test.describe('Startseite', () => {
  test('shows claims, calls to action and the worked example', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const claim of ['500+', '10k+', '25 %']) await expect(page.getByText(claim, { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Kostenlos starten' }).first()).toHaveAttribute('href', '/auth?tab=register');
    await expect(page.getByRole('main').getByRole('link', { name: 'Anmelden' }).first()).toHaveAttribute('href', '/auth');
    await expect(page.getByRole('link', { name: 'Jetzt kostenlos berechnen' }).first()).toHaveAttribute('href', '/calculator');

    await page.getByRole('link', { name: 'Beispiel ansehen' }).click();
    await expect(page).toHaveURL(/#beispiel$/);
    const example = page.locator('#beispiel');
    await expect(example).toBeInViewport();
    // The spec's figures, exactly.
    for (const figure of ['0,45 €', '0,15 €', '2,50 €', '5,35 €', '1,41 €', '8,45 €', '2,11 €', '11,97 €']) {
      await expect(example.getByText(figure, { exact: true }).first()).toBeVisible();
    }
  });

  test('the FAQ has seven questions that open without scripts', async ({ page }) => {
    await page.goto('/');
    const items = page.locator('details:has(summary)').filter({ has: page.locator('summary') });
    const faq = page.getByRole('region', { name: /Häufige Fragen/i }).or(page.locator('#faq'));
    const questions = faq.first().locator('details');
    await expect(questions).toHaveCount(7);
    const first = questions.first();
    await expect(first).not.toHaveAttribute('open', '');
    await first.locator('summary').click();
    await expect(first).toHaveAttribute('open', '');
    await expect(first.locator('p').first()).toBeVisible();
    expect(await items.count()).toBeGreaterThanOrEqual(7);
  });

  test('the mobile menu opens and leads to the calculator', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/');
    await page.getByLabel('Menü').click();
    await page.getByRole('link', { name: 'Rechner' }).last().click();
    await expect(page).toHaveURL(/\/calculator$/);
  });
});

test.describe('Rechtliches', () => {
  test('privacy policy is dated and has every section', async ({ page }) => {
    await page.goto('/datenschutz');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Datenschutz');
    await expect(page.getByText('28. Januar 2025').first()).toBeVisible();
    const headings = await page.getByRole('heading', { level: 2 }).allInnerTexts();
    for (const section of ['Verantwortlich', 'Daten', 'Zweck', 'Rechtsgrundlage', 'Cookies', 'Drittanbieter', 'Speicherdauer', 'Rechte']) {
      expect(headings.some((h) => h.includes(section)), `section ${section} in ${headings.join(' | ')}`).toBe(true);
    }
    await expect(page.getByText(/30 Tage/).first()).toBeVisible();
    await expect(page.getByText(/72 Stunden/).first()).toBeVisible();
  });

  test('legal notice names the operator and has the required parts', async ({ page }) => {
    await page.goto('/impressum');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Impressum');
    const headings = (await page.getByRole('heading').allInnerTexts()).join(' | ');
    for (const part of ['Haftung', 'Urheberrecht', 'Streit']) expect(headings).toContain(part);
  });

  test('sitemap lists the public pages as XML', async ({ request, baseURL }) => {
    const response = await request.get('/sitemap.xml');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/xml');
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    for (const path of ['/', '/calculator', '/kontakt', '/datenschutz', '/impressum']) {
      expect(xml).toContain(`<loc>${new URL(path, baseURL).toString().replace(/\/$/, path === '/' ? '/' : '')}</loc>`);
    }
  });

  test('an unknown address gets the German 404 page', async ({ page }) => {
    const response = await page.goto('/gibt-es-nicht');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Zur Startseite' })).toBeVisible();
  });
});

test.describe('Technik', () => {
  test('security headers on documents and static files', async ({ request }) => {
    const response = await request.get('/calculator');
    const headers = response.headers();
    const csp = headers['content-security-policy'];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-powered-by']).toBeUndefined();
    // Every inline script carries this response's nonce.
    const nonce = csp.match(/'nonce-([^']+)'/)![1];
    const html = await response.text();
    const scripts = [...html.matchAll(/<script(?![^>]*type="application\/json")[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    const asset = html.match(/\/assets\/[^"]+\.js/)![0];
    const assetResponse = await request.get(asset);
    expect(assetResponse.headers()['x-content-type-options']).toBe('nosniff');
    expect(assetResponse.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

    // The icon: linked from every page, and /favicon.ico (asked for without a link by many clients) is a file, not the 404 page.
    expect(html).toContain('<link rel="icon" href="/favicon.ico"');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"');
    for (const [path, type] of [['/favicon.ico', 'image/x-icon'], ['/favicon.svg', 'image/svg+xml']]) {
      const icon = await request.get(path);
      expect(icon.status(), path).toBe(200);
      expect(icon.headers()['content-type'], path).toContain(type);
      expect(icon.headers()['x-content-type-options'], path).toBe('nosniff');
    }
    const ico = await (await request.get('/favicon.ico')).body();
    // An ICO header (reserved 0, type 1) with its three sizes.
    expect([...ico.subarray(0, 6)]).toEqual([0, 0, 1, 0, 3, 0]);
  });

  test('healthz answers when the database does', async ({ request }) => {
    const response = await request.get('/healthz');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
