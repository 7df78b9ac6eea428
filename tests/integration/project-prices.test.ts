import { describe, expect, it } from 'vitest';
import { Project } from '../../app/entities';
import { calculate } from '../../app/calculator/engine';
import { csvMoney } from '../../app/lib/csv';
import { formatEuro } from '../../app/lib/number';
import { asNumericColumn } from '../../app/lib/numeric-column';
import { exportProjectsCsv } from '../../app/models/project-csv.server';
import { storeMissingProjectPrices } from '../../app/models/project-prices.server';
import { PROJECT_CHOICES_LIMIT, PROJECTS_PAGE_SIZE, projectEngineInput } from '../../app/models/projects.server';
import { action as projectsPageAction, loader as projectsPageLoader } from '../../app/routes/_account+/projects';
import { loader as newQuoteLoader } from '../../app/routes/_account+/angebote.neu';
import { action as calculatorAction } from '../../app/routes/_calculator+/calculator';
import { action as apiCreate, loader as apiList } from '../../app/routes/api+/projects';
import { action as apiOne } from '../../app/routes/api+/projects.$id';
import type { UserContext } from '../../app/services/request-context.server';
import { runMigrations } from '../../scripts/lib/migrate';
import { APP_URL, apiRequest, call, projectPayload, randomIp, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/**
 * Security review (HIGH): `/projects?sort=price` and `/projects.csv` priced every project of the
 * account per request. Each project now stores the engine's figures with every save; the price
 * order is an SQL page and the CSV streams keyset batches.
 */
const app = useAuthTestApp('project_prices');

async function create(cookie: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await call(apiCreate as Handler, apiRequest('/api/projects', 'POST', projectPayload(overrides), { cookie }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The stored figures of a project next to the engine's of its saved inputs. */
async function storedAndEngine(id: string) {
  const project = await app.em().findOneOrFail(Project, { id });
  const outcome = calculate(projectEngineInput(project));
  return {
    stored: { pricesStored: project.pricesStored, totalCosts: project.totalCosts, minimumPrice: project.minimumPrice, minimumPriceWithVat: project.minimumPriceWithVat },
    engine: outcome.ok
      ? { pricesStored: true, totalCosts: outcome.result.totalCosts, minimumPrice: outcome.result.minimumPrice, minimumPriceWithVat: outcome.result.minimumPriceWithVat }
      : { pricesStored: true, totalCosts: null, minimumPrice: null, minimumPriceWithVat: null },
  };
}

async function expectEngineFigures(id: string) {
  const { stored, engine } = await storedAndEngine(id);
  // Exactly the engine's doubles, so the card and the CSV show the same cents as before.
  expect(stored).toEqual(engine);
  return stored;
}

/**
 * `count` copies of a project by SQL (as the bench and old rows: no stored figures), the g-th with
 * the name `<prefix> g`, filament weight `weight(g)` and, unless `sameTime`, one second older each.
 */
async function insertCopies(id: string, count: number, { prefix = 'Kopie', weight = 'g', sameTime = false } = {}) {
  await app.em().getConnection().execute(
    `insert into projects (user_id, name, quantity, filament_weight, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
       preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, marketplace_fee_fixed,
       profit_margin, target_price, printer_cost, printer_lifetime_hours, extra_inputs, filaments, updated_at)
     select user_id, '${prefix} ' || g, quantity, ${weight}, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
       preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, marketplace_fee_fixed,
       profit_margin, target_price, printer_cost, printer_lifetime_hours, extra_inputs, filaments,
       ${sameTime ? 'now()' : 'now() - make_interval(secs => g)'}
     from projects, generate_series(1, ${count}) g where id = ?`,
    [id],
  );
}

const formHeaders = (cookie: string) => new Headers({ 'x-druckpreis-client-ip': '127.0.0.1', 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie });

describe('stored figures', () => {
  it('every save stores the engine’s figures: API create and update, lines, the calculator form (new and edit), a copy; no price possible is stored as none', async () => {
    const { cookie, user } = await signedInUser(app.orm, { premium: true });
    const viaApi = await create(cookie, { vatPercent: 7, smallBusiness: true, failureRate: 5 });
    const first = await expectEngineFigures(viaApi);
    expect(first.minimumPriceWithVat).toBeGreaterThan(0);

    const put = await call(apiOne as Handler, apiRequest(`/api/projects/${viaApi}`, 'PUT', projectPayload({ filamentWeight: 400, printTime: 9 }), { cookie }), { id: viaApi });
    expect(put.status).toBe(200);
    const edited = await expectEngineFigures(viaApi);
    expect(edited.minimumPriceWithVat).toBeGreaterThan(first.minimumPriceWithVat!);

    const lines = await create(cookie, { filaments: [{ grams: 30, pricePerKg: 20 }, { grams: 10.5, pricePerKg: 60 }] });
    await expectEngineFigures(lines);

    const impossible = await create(cookie, { marketplaceFeePercentage: 100 });
    expect(await expectEngineFigures(impossible)).toEqual({ pricesStored: true, totalCosts: null, minimumPrice: null, minimumPriceWithVat: null });

    const form = { intent: 'save', projectName: 'Drache', quantity: '3', filamentWeight: '30', filamentPricePerKg: '20', printTimeHours: '4', printTimeMinutes: '20' };
    const saved = await call(calculatorAction as Handler, new Request(`${APP_URL}/calculator`, { method: 'POST', headers: formHeaders(cookie), body: new URLSearchParams(form) }));
    expect(saved.status).toBe(302);
    const formId = /project=([0-9a-f-]{36})$/.exec(saved.headers.get('Location') ?? '')![1];
    const fromForm = await expectEngineFigures(formId);
    const resaved = await call(
      calculatorAction as Handler,
      new Request(`${APP_URL}/calculator?project=${formId}`, { method: 'POST', headers: formHeaders(cookie), body: new URLSearchParams({ ...form, project: formId, filamentWeight: '90' }) }),
    );
    expect(resaved.status).toBe(302);
    expect((await expectEngineFigures(formId)).minimumPriceWithVat).toBeGreaterThan(fromForm.minimumPriceWithVat!);

    const copied = await call(projectsPageAction as Handler, new Request(`${APP_URL}/projects`, { method: 'POST', headers: formHeaders(cookie), body: new URLSearchParams({ intent: 'copy', id: lines }) }));
    expect(copied.status).toBe(302);
    const copy = await app.em().findOneOrFail(Project, { user: user.id, name: 'Vase (Kopie)' });
    expect(await expectEngineFigures(copy.id)).toEqual(await expectEngineFigures(lines));
  });

  it('rows without stored figures get the engine’s at start (after the migrations), in batches, with their last change kept', async () => {
    const { cookie, user } = await signedInUser(app.orm, { premium: true });
    const id = await create(cookie, { filaments: [{ grams: 12, pricePerKg: 25 }, { grams: 3, pricePerKg: 80 }] });
    await insertCopies(id, 1_050, { weight: '(g % 97) + 1' });
    // A row from before the columns: figures missing and not marked stored.
    await app.em().getConnection().execute(`update projects set prices_stored = false, total_costs = null, minimum_price = null, minimum_price_with_vat = null where id = ?`, [id]);
    const before = await app.em().getConnection().execute(`select id, updated_at::text as at from projects where user_id = ? order by id`, [user.id]);
    expect(await app.em().count(Project, { user: user.id, pricesStored: false })).toBe(1_051);

    // What `npm start` runs: the migrations (none pending here), then the backfill.
    expect(await runMigrations(process.env.DATABASE_URL!)).toEqual([]);
    expect(await app.em().count(Project, { pricesStored: false })).toBe(0);
    for (const project of await app.em().find(Project, { user: user.id })) {
      const outcome = calculate(projectEngineInput(project));
      expect(outcome.ok).toBe(true);
      if (outcome.ok) expect([project.totalCosts, project.minimumPrice, project.minimumPriceWithVat]).toEqual([outcome.result.totalCosts, outcome.result.minimumPrice, outcome.result.minimumPriceWithVat]);
    }
    expect(await app.em().getConnection().execute(`select id, updated_at::text as at from projects where user_id = ? order by id`, [user.id])).toEqual(before);

    // In batches of the given size; nothing left means one empty read.
    await insertCopies(id, 250, { prefix: 'Neu' });
    // A row the engine refuses (edited by hand) is stored without a price instead of stopping the start.
    await app.em().getConnection().execute(`update projects set extra_inputs = '{"failureRate": "viel"}' where user_id = ? and name = 'Neu 7'`, [user.id]);
    const sizes: number[] = [];
    expect(await storeMissingProjectPrices(app.em(), { batchSize: 100, onBatch: (size) => sizes.push(size) })).toBe(250);
    expect(sizes).toEqual([100, 100, 50]);
    const broken = await app.em().findOneOrFail(Project, { user: user.id, name: 'Neu 7' });
    expect([broken.pricesStored, broken.totalCosts, broken.minimumPrice, broken.minimumPriceWithVat]).toEqual([true, null, null, null]);
    expect(await storeMissingProjectPrices(app.em())).toBe(0);
  }, 60_000);
});

describe('asNumericColumn', () => {
  it('rounds a number as a numeric column of PostgreSQL keeps it', async () => {
    const values = [30.37037037037037, 1.00005, 2.5e-7, 5e-7, -2.345, 0.1 + 0.2, 19.99, 1 / 3, 2 / 3, 123456.78905, -0.00004, 1e-12, 0.123456789];
    for (let i = 0; i < 200; i += 1) values.push(Math.round(Math.random() * 1e9) / 10 ** (5 + (i % 5)));
    for (const scale of [2, 4, 6]) {
      const rows = (await app.em().getConnection().execute(
        // As the driver sends a number: its text, read by the column's type.
        `select v::numeric(20, ${scale})::text as kept from unnest(?::text[]) with ordinality as t(v, n) order by n`,
        [`{${values.map(String).join(',')}}`],
      )) as Array<{ kept: string }>;
      expect(values.map((value) => asNumericColumn(value, scale))).toEqual(rows.map((row) => Number(row.kept)));
    }
  });
});

type PageData = { projects: Array<{ id: string; name: string; minimumPrice: string | null }>; hasNext: boolean };
const listPage = async (cookie: string, query: string) =>
  (await (projectsPageLoader as unknown as Handler)({ request: apiRequest(`/projects?${query}`, 'GET', undefined, { cookie }), params: {}, context: {} })) as PageData;

describe('sort=price', () => {
  it('orders by the stored price across pages, equal prices by id, no price last, in both directions; shown figures are the engine’s', async () => {
    const { cookie, user } = await signedInUser(app.orm, { premium: true });
    const id = await create(cookie, { name: 'Vorlage' });
    // 20 distinct weights three times each: ties on every price.
    await insertCopies(id, 60, { weight: '(g % 20) + 1', sameTime: true });
    await create(cookie, { name: 'Unmöglich A', marketplaceFeePercentage: 100 });
    await create(cookie, { name: 'Unmöglich B', marketplaceFeePercentage: 100, filamentWeight: 3 });
    await storeMissingProjectPrices(app.em());

    const projects = await app.em().find(Project, { user: user.id });
    expect(projects).toHaveLength(63);
    const enginePrice = new Map(projects.map((p) => [p.id, calculate(projectEngineInput(p))]));
    const price = (pid: string) => {
      const outcome = enginePrice.get(pid)!;
      return outcome.ok ? outcome.result.minimumPriceWithVat : null;
    };
    const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = (direction: 1 | -1) =>
      projects
        .map((p) => p.id)
        .sort((a, b) => {
          const [pa, pb] = [price(a), price(b)];
          if (pa === null || pb === null) return pa === pb ? byId(a, b) : pa === null ? 1 : -1;
          return pa === pb ? byId(a, b) : (pa - pb) * direction;
        });

    for (const [sort, direction] of [['price', 1], ['price-desc', -1]] as const) {
      const seen: PageData['projects'] = [];
      for (let page = 1; ; page += 1) {
        const data = await listPage(cookie, `sort=${sort}&page=${page}`);
        expect(data.projects.length).toBeLessThanOrEqual(PROJECTS_PAGE_SIZE);
        seen.push(...data.projects);
        if (!data.hasNext) break;
      }
      expect(seen.map((p) => p.id)).toEqual(expected(direction));
      // The card's figure is the engine's, formatted.
      for (const card of seen) {
        const p = price(card.id);
        expect(card.minimumPrice).toBe(p === null ? null : formatEuro(p));
      }
    }
    expect(new Set((await listPage(cookie, 'sort=price')).projects.map((p) => p.id)).size).toBe(PROJECTS_PAGE_SIZE);
  });

  it('is read from an index in the order of each direction (no sort of the account’s rows)', async () => {
    const { user } = await signedInUser(app.orm, { premium: true });
    for (const order of ['"minimum_price_with_vat" asc nulls last, "id" asc', '"minimum_price_with_vat" desc nulls last, "id" asc']) {
      const plan = await app.em().transactional(async (em) => {
        // An almost empty table: the planner would rather sort a few rows. Without that choice it must
        // find an index that already has the order (and sorts only when none has).
        for (const setting of ['enable_seqscan', 'enable_bitmapscan', 'enable_sort']) await em.getConnection().execute(`set local ${setting} = off`, [], 'run', em.getTransactionContext());
        return em
          .getConnection()
          .execute(`explain select "id" from "projects" where "user_id" = ? order by ${order} limit 25 offset 24`, [user.id], 'all', em.getTransactionContext());
      });
      const text = (plan as Array<Record<string, string>>).map((row) => Object.values(row)[0]).join('\n');
      expect(text).toMatch(/Index (Only )?Scan using projects_user_id_price(_desc)?_index/);
      expect(text).not.toMatch(/Sort/);
    }
  });
});

describe('GET /projects.csv with many projects', () => {
  it('is complete and correct, newest first, and is read in keyset batches only as the download is taken', async () => {
    const { cookie, user } = await signedInUser(app.orm, { premium: true });
    const id = await create(cookie, { name: 'Vorlage', printTime: 2.3333333 });
    // One statement: all 1,233 copies share one last change, so the batches' cursor must use the id too.
    await insertCopies(id, 1_233, { weight: '(g % 50) + 1', sameTime: true });
    await storeMissingProjectPrices(app.em());

    const sizes: number[] = [];
    const ctx = { em: app.em(), user, ip: randomIp(), now: new Date() } as unknown as UserContext;
    const result = await exportProjectsCsv(ctx, { batchSize: 100, onBatch: (size) => sizes.push(size) });
    if (result.kind !== 'ok') throw new Error('expected the file');
    const reader = result.value.body.getReader();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = '';
    const read = async () => {
      const chunk = await reader.read();
      if (!chunk.done) text += decoder.decode(chunk.value, { stream: true });
      return chunk.done;
    };
    await read();
    await read();
    // The header and the first batch are out; the rest of the account is not read yet.
    expect(sizes.length).toBeLessThanOrEqual(2);
    while (!(await read()));
    expect(sizes).toEqual([...Array(12).fill(100), 34]);

    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.pop()).toBe('');
    const header = lines.shift()!.split(';');
    expect(lines).toHaveLength(1_234);
    const col = (line: string, name: string) => line.split(';')[header.indexOf(name)];
    const projects = await app.em().find(Project, { user: user.id }, { orderBy: { updatedAt: 'desc', id: 'desc' } });
    expect(lines.map((line) => line.split(';')[0])).toEqual(projects.map((p) => p.name));
    for (const [i, project] of projects.entries()) {
      const outcome = calculate(projectEngineInput(project));
      if (!outcome.ok) throw new Error('expected a price');
      expect(col(lines[i], 'Mindestpreis inkl. MwSt. (€)')).toBe(csvMoney(outcome.result.minimumPriceWithVat));
      expect(col(lines[i], 'Mindestpreis netto (€)')).toBe(csvMoney(outcome.result.minimumPrice));
      expect(col(lines[i], 'Gesamtkosten (€)')).toBe(csvMoney(outcome.result.totalCosts));
      expect(col(lines[i], 'Zuletzt geändert')).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    }
    // German hours with at most two decimals.
    expect(col(lines[0], 'Druckzeit (h)')).toBe('2,33');
  }, 60_000);
});

describe('/angebote/neu and GET /api/projects', () => {
  it('offers the 200 newest projects, a search for the others and the project of the address; the API stays unpaged', async () => {
    const { cookie, user } = await signedInUser(app.orm, { premium: true });
    const id = await create(cookie, { name: 'Vorlage' });
    await insertCopies(id, 230);
    const load = async (query: string) =>
      (await (newQuoteLoader as unknown as Handler)({ request: apiRequest(`/angebote/neu${query}`, 'GET', undefined, { cookie }), params: {}, context: {} })) as {
        projects: Array<{ id: string; name: string }>;
        capped: boolean;
        selected: string;
      };
    const all = await load('');
    expect(all.projects).toHaveLength(PROJECT_CHOICES_LIMIT);
    expect(all.capped).toBe(true);
    expect(all.projects.slice(0, 2).map((p) => p.name)).toEqual(['Vorlage', 'Kopie 1']);
    expect(all.selected).toBe(all.projects[0].id);

    const found = await load('?q=kopie%2022');
    expect(found.capped).toBe(false);
    expect(found.projects.map((p) => p.name)).toEqual(['Kopie 22', ...Array.from({ length: 10 }, (_, i) => `Kopie ${220 + i}`)]);

    const oldest = await app.em().findOneOrFail(Project, { name: 'Kopie 230', user: user.id });
    const linked = await load(`?project=${oldest.id}`);
    expect(linked.selected).toBe(oldest.id);
    expect(linked.projects[0]).toEqual({ id: oldest.id, name: 'Kopie 230' });

    const response = await call(apiList as Handler, apiRequest('/api/projects', 'GET', undefined, { cookie }));
    expect(response.status).toBe(200);
    expect((await response.json()) as unknown[]).toHaveLength(231);
  });
});
