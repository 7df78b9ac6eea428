import { describe, expect, it } from 'vitest';
import { storeMissingProjectPrices } from '../../app/models/project-prices.server';
import { loader as projectsPageLoader } from '../../app/routes/_account+/projects';
import { loader as csvLoader } from '../../app/routes/_account+/projects[.]csv';
import { action as createAction } from '../../app/routes/api+/projects';
import { apiRequest, call, projectPayload, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/**
 * Security review: a Premium library of thousands of projects must not stall the process (the
 * prices are stored with each project: tests/integration/project-prices.test.ts).
 */
const app = useAuthTestApp('project_list_large');

const payload = projectPayload({ name: 'Vorlage' });

describe('a library of 5,000 projects', () => {
  it('sorts by price correctly and caps CSV exports per user with a German 429', async () => {
    const seller = await signedInUser(app.orm, { premium: true });
    const created = await call(createAction as Handler, apiRequest('/api/projects', 'POST', payload, { cookie: seller.cookie }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // 4,999 copies by SQL, filament weight 1..4999 g: the 1-g copy is the cheapest.
    await app.orm.em.fork().getConnection().execute(
      `insert into projects (user_id, name, quantity, filament_weight, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
         preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, marketplace_fee_fixed,
         profit_margin, target_price, printer_cost, printer_lifetime_hours, updated_at)
       select user_id, 'Kopie ' || g, quantity, g, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
         preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, marketplace_fee_fixed,
         profit_margin, target_price, printer_cost, printer_lifetime_hours, now() - make_interval(secs => g)
       from projects, generate_series(1, 4999) g where id = ?`,
      [id],
    );
    // Rows inserted by SQL have no stored prices until the start's backfill prices them.
    expect(await storeMissingProjectPrices(app.em())).toBe(4_999);
    const page = (async (sort: string) =>
      (await (projectsPageLoader as unknown as Handler)({ request: apiRequest(`/projects?sort=${sort}`, 'GET', undefined, { cookie: seller.cookie }), params: {}, context: {} })) as {
        projects: Array<{ name: string }>;
      });
    expect((await page('price')).projects.slice(0, 3).map((p) => p.name)).toEqual(['Kopie 1', 'Kopie 2', 'Kopie 3']);
    expect((await page('price-desc')).projects.slice(0, 2).map((p) => p.name)).toEqual(['Kopie 4999', 'Kopie 4998']);

    const first = await call(csvLoader as Handler, apiRequest('/projects.csv', 'GET', undefined, { cookie: seller.cookie }));
    expect(first.status).toBe(200);
    expect((await first.text()).split('\r\n').filter(Boolean)).toHaveLength(5_001);
    for (let i = 1; i < 10; i += 1) expect((await call(csvLoader as Handler, apiRequest('/projects.csv', 'GET', undefined, { cookie: seller.cookie }))).status).toBe(200);
    const capped = await call(csvLoader as Handler, apiRequest('/projects.csv', 'GET', undefined, { cookie: seller.cookie }));
    expect(capped.status).toBe(429);
    expect(capped.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(JSON.stringify(await capped.json())).toMatch(/Anfragen|versuche|später/i);
  }, 120_000);
});
