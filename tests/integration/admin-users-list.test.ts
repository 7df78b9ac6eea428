import { describe, expect, it } from 'vitest';
import { Project, User } from '../../app/entities';
import { SEARCH_COUNT_CAP, SEARCH_MATCH } from '../../app/models/admin-users.server';
import { loader as usersLoader } from '../../app/routes/api+/admin.users';
import { loader as adminLoader } from '../../app/routes/_admin+/admin';
import { apiRequest, call, createUser, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/**
 * The users tab with many accounts (issue 20): project counts kept by
 * triggers, the newest page and a search read through their indexes, a wide
 * search counted only up to a cap. No timings: the plans and the numbers.
 */
const app = useAuthTestApp('adminusers');

async function signedInAdmin() {
  const admin = await signedInUser(app.orm);
  await app.em().nativeUpdate(User, { id: admin.user.id }, { isAdmin: 1 });
  return admin;
}

async function sql<T = Record<string, unknown>>(query: string, params: unknown[] = []): Promise<T[]> {
  return app.em().getConnection().execute(query, params);
}

async function insertProjects(userId: string, count: number) {
  await sql(
    `insert into projects (user_id, name, quantity, filament_weight, filament_price_per_kg, print_time, printer_wattage, electricity_rate,
       preparation_time, post_processing_time, hourly_rate, packaging_cost, shipping_cost, marketplace_fee_percentage, profit_margin, target_price)
     select ?, 'Vase ' || g, 1, 25, 25, 3.5, 200, 0.32, 15, 10, 15, 0.5, 4.95, 5, 25, 0 from generate_series(1, ?::int) g`,
    [userId, count],
  );
}

async function projectCount(userId: string): Promise<number> {
  const [row] = await sql<{ count: number }>(`select count from project_counts where user_id = ?`, [userId]);
  return row?.count ?? 0;
}

/** The plan, with sequential scans priced out: whether an index can serve the query (a test table is too small to need one). */
async function planOf(query: string, params: unknown[]): Promise<string> {
  const rows = await app.em().transactional(async (em) => {
    await em.execute('set local enable_seqscan = off');
    return em.execute<{ 'QUERY PLAN': string }[]>(`explain ${query}`, params);
  });
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

describe('project counts', () => {
  it('follow every insert, delete and change of owner, and show on the users list', async () => {
    const admin = await signedInAdmin();
    const { user: owner, email } = await createUser(app.orm, { firstName: 'Zähler' });
    const { user: other } = await createUser(app.orm);
    await insertProjects(owner.id, 120);
    expect(await projectCount(owner.id)).toBe(120);

    // Through the ORM, as the app saves a project.
    const em = app.em();
    em.create(Project, {
      user: em.getReference(User, owner.id),
      name: 'Einzeln',
      quantity: 1,
      filamentWeight: 10,
      filamentPricePerKg: 20,
      printTime: 1,
      printerWattage: 100,
      electricityRate: 0.3,
      preparationTime: 0,
      postProcessingTime: 0,
      hourlyRate: 0,
      packagingCost: 0,
      shippingCost: 0,
      marketplaceFeePercentage: 0,
      profitMargin: 0,
      targetPrice: 0,
    });
    await em.flush();
    expect(await projectCount(owner.id)).toBe(121);

    await sql(`delete from projects where id in (select id from projects where user_id = ? limit 20)`, [owner.id]);
    expect(await projectCount(owner.id)).toBe(101);
    await sql(`update projects set user_id = ? where id in (select id from projects where user_id = ? limit 1)`, [other.id, owner.id]);
    expect(await projectCount(owner.id)).toBe(100);
    expect(await projectCount(other.id)).toBe(1);
    // Updates that keep the owner change nothing.
    await sql(`update projects set name = name || '!' where user_id = ?`, [owner.id]);
    expect(await projectCount(owner.id)).toBe(100);

    const response = await call(usersLoader as Handler, apiRequest(`/api/admin/users?search=${encodeURIComponent(email)}`, 'GET', undefined, { cookie: admin.cookie }));
    expect(await response.json()).toEqual([expect.objectContaining({ email, projectCount: 100 })]);

    // Deleting the account takes its projects and its count.
    await sql(`delete from users where id = ?`, [owner.id]);
    expect(await sql(`select 1 from project_counts where user_id = ?`, [owner.id])).toEqual([]);
  });
});

describe('many users', () => {
  it('reads the newest page and a narrow search through their indexes, counts a wide search only up to the cap', async () => {
    const admin = await signedInAdmin();
    const tag = `viele${Date.now()}`;
    await sql(
      `insert into users (email, password, email_verified, first_name, last_name, created_at, updated_at)
       select ? || '.' || g || '@example.de', 'x', true, 'Vorname' || g, 'Nachname', now() - g * interval '1 minute', now() - g * interval '1 minute'
       from generate_series(1, 5000) g`,
      [tag],
    );
    await sql('analyze users');

    // The newest page: its ids from the (created_at, id) index alone, no sort over the users.
    const newest = await planOf(`select id from users order by created_at desc, id desc limit 25 offset 0`, []);
    expect(newest).toMatch(/Index Only Scan using users_created_at_id_index/);
    expect(newest).not.toMatch(/Sort/);
    // A search: the trigram index serves its expression (SEARCH_MATCH: the text listUsers uses).
    const narrow = await planOf(
      `select id from users u where ${SEARCH_MATCH}`,
      [`%${tag}.4711@%`],
    );
    expect(narrow).toMatch(/users_search_trgm_index/);

    const list = async (query: string) => {
      const response = await call(usersLoader as Handler, apiRequest(`/api/admin/users?${query}`, 'GET', undefined, { cookie: admin.cookie }));
      expect(response.status).toBe(200);
      return { headers: response.headers, users: (await response.json()) as { email: string }[] };
    };
    const one = await list(`search=${tag}.4711@`);
    expect(one.users.map((user) => user.email)).toEqual([`${tag}.4711@example.de`]);
    expect(one.headers.get('X-Total-Count')).toBe('1');

    // 5,000 match: the first page newest first, the total counted up to the cap and said to be a lower bound.
    const wide = await list(`search=${tag}`);
    expect(wide.users.slice(0, 2).map((user) => user.email)).toEqual([`${tag}.1@example.de`, `${tag}.2@example.de`]);
    expect(wide.headers.get('X-Total-Count')).toBe(String(SEARCH_COUNT_CAP));
    expect(wide.headers.get('X-Total-Count-Exact')).toBe('false');
    // Paging on past the cap still works, and the count reaches one page further.
    const deep = await list(`search=${tag}&page=60`);
    expect(deep.users[0].email).toBe(`${tag}.1476@example.de`);
    expect(Number(deep.headers.get('X-Total-Count'))).toBe(60 * 25);
    // A narrower search counted exactly: 'viele….12' matches 12, 120–129 and 1200–1299 (111 users).
    const exact = await list(`search=${tag}.12`);
    expect(exact.headers.get('X-Total-Count')).toBe('111');
    expect(exact.headers.get('X-Total-Count-Exact')).toBe('true');

    // The tab says so in German, with German digit grouping.
    const page = (await adminLoader({ request: apiRequest(`/admin?tab=users&q=${tag}`, 'GET', undefined, { cookie: admin.cookie }), params: {}, context: {} })) as {
      users: { total: number; totalExact: boolean };
    };
    expect(page.users).toMatchObject({ total: SEARCH_COUNT_CAP, totalExact: false });
  });
});
