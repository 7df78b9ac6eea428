import { describe, expect, it } from 'vitest';
import { libraryEntities } from '../../app/models/library.server';
import { LIBRARY_KINDS, libraryDefinitions, type LibraryKind, type NumberFieldDef } from '../../app/domain/library-definitions';
import * as filaments from '../../app/routes/api+/filaments';
import * as filamentsItem from '../../app/routes/api+/filaments.$id';
import * as marketplaces from '../../app/routes/api+/marketplaces';
import * as marketplacesItem from '../../app/routes/api+/marketplaces.$id';
import * as packaging from '../../app/routes/api+/packaging';
import * as packagingItem from '../../app/routes/api+/packaging.$id';
import * as printers from '../../app/routes/api+/printers';
import * as printersItem from '../../app/routes/api+/printers.$id';
import * as shipping from '../../app/routes/api+/shipping-providers';
import * as shippingItem from '../../app/routes/api+/shipping-providers.$id';
import { libraryLoader } from '../../app/web/library-route.server';
import { APP_URL, call, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

const app = useAuthTestApp('libraryapi');

type Route = { loader: (args: never) => Promise<Response>; action: (args: never) => Promise<Response> };
const routes: Record<LibraryKind, { collection: Route; item: Route }> = {
  printers: { collection: printers, item: printersItem },
  filaments: { collection: filaments, item: filamentsItem },
  packaging: { collection: packaging, item: packagingItem },
  shipping: { collection: shipping, item: shippingItem },
  marketplaces: { collection: marketplaces, item: marketplacesItem },
};

/** A valid body per kind, with every §7 field. */
const samples: Record<LibraryKind, Record<string, unknown>> = {
  printers: { name: 'Prusa MK4', brand: 'Prusa', model: 'MK4', wattage: 120, cost: 899, lifetimeHours: 5000, electricityRate: 0.35, isActive: 1 },
  filaments: { name: 'Galaxy Black', brand: 'Prusament', material: 'PETG', color: 'Schwarz', pricePerKg: 29.99, isActive: 1 },
  packaging: { name: 'Karton S', type: 'bubble_mailer', cost: 0.8, description: 'klein', isActive: 1 },
  shipping: { name: 'DHL', service: 'Paket 2 kg', baseCost: 6.19, description: 'online', isActive: 1 },
  marketplaces: { name: 'Etsy', percentageFee: 0.105, fixedFee: 0.3, description: 'DE', isActive: 1 },
};

async function signedIn(): Promise<{ cookie: string; userId: string }> {
  const { user, cookie } = await signedInUser(app.orm);
  return { cookie, userId: user.id };
}

function request(path: string, method: string, cookie: string | null, body?: unknown): Request {
  const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1' });
  if (cookie) headers.set('Cookie', cookie);
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  return new Request(`${APP_URL}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
}

const run = (handler: Route['loader'], req: Request, params: Record<string, string> = {}) => call(handler as unknown as Handler, req, params);

describe.each(LIBRARY_KINDS)('JSON API /api/%s', (kind) => {
  const { apiPath } = libraryDefinitions[kind];
  const base = `/api/${apiPath}`;
  const { collection, item } = routes[kind];
  const numberField = libraryDefinitions[kind].fields.find((field) => field.type === 'number') as NumberFieldDef;

  const list = (cookie: string | null, query = '') => run(collection.loader, request(`${base}${query}`, 'GET', cookie));
  const create = (cookie: string | null, body: unknown) => run(collection.action, request(base, 'POST', cookie, body));
  const get = (cookie: string | null, id: string) => run(item.loader, request(`${base}/${id}`, 'GET', cookie), { id });
  const update = (cookie: string | null, id: string, body: unknown) => run(item.action, request(`${base}/${id}`, 'PUT', cookie, body), { id });
  const remove = (cookie: string | null, id: string) => run(item.action, request(`${base}/${id}`, 'DELETE', cookie), { id });

  it('answers visitors 401 for every method', async () => {
    const someId = crypto.randomUUID();
    for (const response of [await list(null), await create(null, samples[kind]), await get(null, someId), await update(null, someId, samples[kind]), await remove(null, someId)]) {
      expect(response.status).toBe(401);
      expect((await response.json()).message).toBe('Bitte melden Sie sich an.');
    }
  });

  it('creates (201 with id and the §7 fields), lists newest first, updates and deletes', async () => {
    const { cookie, userId } = await signedIn();
    const created = await create(cookie, samples[kind]);
    expect(created.status).toBe(201);
    const first = await created.json();
    expect(first).toMatchObject({ ...samples[kind], userId, isActive: 1 });
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);

    const second = await (await create(cookie, { ...samples[kind], name: 'Zweiter Eintrag' })).json();
    const listed = await list(cookie);
    expect(listed.status).toBe(200);
    expect((await listed.json()).map((entry: { id: string }) => entry.id)).toEqual([second.id, first.id]);

    // A German decimal string; the fee fraction only goes up to 1.
    const [typed, stored] = numberField.max >= 12.5 ? ['12,5', 12.5] : ['0,065', 0.065];
    const changed = await update(cookie, first.id, { ...samples[kind], name: 'Umbenannt', [numberField.name]: typed, isActive: 'false' });
    expect(changed.status).toBe(200);
    const updated = await changed.json();
    expect(updated).toMatchObject({ id: first.id, name: 'Umbenannt', [numberField.name]: stored, isActive: 0 });
    expect((await (await get(cookie, first.id)).json()).isActive).toBe(0);
    expect((await (await update(cookie, first.id, { isActive: true })).json()).isActive).toBe(1);
    expect((await (await update(cookie, first.id, { isActive: 0 })).json()).isActive).toBe(0);

    const deleted = await remove(cookie, first.id);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await get(cookie, first.id)).status).toBe(404);
    expect(await app.em().count(libraryEntities[kind] as never, { id: first.id } as never)).toBe(0);
  });

  it('fills the §9 form defaults when only a name is sent', async () => {
    const { cookie } = await signedIn();
    const response = await create(cookie, { name: 'Nur Name' });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.isActive).toBe(1);
    for (const field of libraryDefinitions[kind].fields) {
      if (field.type === 'number' || field.type === 'select') expect(body[field.name]).toBe(field.default);
    }
  });

  it("answers 404 for another user's id on GET, PUT and DELETE and leaves the item alone", async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const created = await (await create(owner.cookie, samples[kind])).json();
    expect((await get(other.cookie, created.id)).status).toBe(404);
    const put = await update(other.cookie, created.id, { name: 'gekapert' });
    expect(put.status).toBe(404);
    expect((await put.json()).message).toBe('Eintrag nicht gefunden.');
    expect((await remove(other.cookie, created.id)).status).toBe(404);
    expect((await list(other.cookie)).status).toBe(200);
    expect(await (await list(other.cookie)).json()).toEqual([]);
    expect((await (await get(owner.cookie, created.id)).json()).name).toBe(samples[kind].name);
    // A malformed id is simply not found, never a database error.
    expect((await get(owner.cookie, 'kein-uuid')).status).toBe(404);
  });

  it('refuses invalid bodies with 400 and German messages per field, never 500', async () => {
    const { cookie } = await signedIn();
    const created = await (await create(cookie, samples[kind])).json();
    const cases: Array<{ body: unknown; field: string; message: RegExp }> = [
      { body: '{"name": ', field: '', message: /JSON-Objekt/ },
      { body: '[1,2]', field: '', message: /JSON-Objekt/ },
      { body: { ...samples[kind], name: '' }, field: 'name', message: /^Name ist erforderlich$/ },
      { body: { ...samples[kind], name: 42 }, field: 'name', message: /Text/ },
      { body: { ...samples[kind], name: 'a\u0000b' }, field: 'name', message: /Steuerzeichen/ },
      { body: { ...samples[kind], name: 'x'.repeat(101) }, field: 'name', message: /Höchstens 100 Zeichen/ },
      { body: { ...samples[kind], [numberField.name]: 'NaN' }, field: numberField.name, message: /gültige Zahl/ },
      { body: { ...samples[kind], [numberField.name]: 'abc' }, field: numberField.name, message: /gültige Zahl/ },
      { body: `{"name":"x","${numberField.name}":1e309}`, field: numberField.name, message: /gültige Zahl/ },
      { body: { ...samples[kind], [numberField.name]: [1] }, field: numberField.name, message: /gültige Zahl/ },
      { body: { ...samples[kind], [numberField.name]: '' }, field: numberField.name, message: /Wert/ },
      { body: { ...samples[kind], [numberField.name]: -1 }, field: numberField.name, message: numberField.rangeMessage ? /zwischen 0 und 1/ : /mindestens/ },
      { body: { ...samples[kind], isActive: 'ja' }, field: 'isActive', message: /1, 0, true oder false/ },
    ];
    for (const { body, field, message } of cases) {
      for (const response of [await create(cookie, body), await update(cookie, created.id, body)]) {
        expect(response.status, JSON.stringify(body)).toBe(400);
        const answer = await response.json();
        if (field === '') expect(answer.message).toMatch(message);
        else {
          expect(answer.message).toBe('Bitte überprüfen Sie Ihre Eingaben.');
          expect(answer.errors[field]?.[0], JSON.stringify(body)).toMatch(message);
        }
      }
    }
    // Nothing was changed by the refused updates.
    expect((await (await get(cookie, created.id)).json()).name).toBe(samples[kind].name);
  });

  it('searches case-insensitively in the kind’s search fields (?q=)', async () => {
    const { cookie } = await signedIn();
    await create(cookie, { ...samples[kind], name: 'Alpha Eins' });
    await create(cookie, { ...samples[kind], name: 'Beta 100%_x' });
    const names = async (q: string) => (await (await list(cookie, `?q=${encodeURIComponent(q)}`)).json()).map((entry: { name: string }) => entry.name);
    expect(await names('ALPHA')).toEqual(['Alpha Eins']);
    expect(await names('ta 1')).toEqual(['Beta 100%_x']);
    // LIKE wildcards are searched for literally.
    expect(await names('%')).toEqual(['Beta 100%_x']);
    expect(await names('nichts')).toEqual([]);
  });
});

describe('search beyond the name', () => {
  it('finds printers by brand and filaments by brand, material and colour', async () => {
    const { cookie } = await signedIn();
    const post = (route: Route, path: string, body: unknown) => run(route.action, request(path, 'POST', cookie, body));
    await post(printers, '/api/printers', { name: 'Werkstatt', brand: 'Bambu Lab' });
    await post(printers, '/api/printers', { name: 'Keller', brand: 'Prusa' });
    await post(filaments, '/api/filaments', { name: 'Rolle 1', brand: 'Extrudr', material: 'PETG', color: 'Feuerrot' });
    await post(filaments, '/api/filaments', { name: 'Rolle 2', brand: 'Prusament', material: 'PLA', color: 'Weiß' });
    const search = async (route: Route, path: string, q: string) =>
      (await (await run(route.loader, request(`${path}?q=${encodeURIComponent(q)}`, 'GET', cookie))).json()).map((entry: { name: string }) => entry.name);
    expect(await search(printers, '/api/printers', 'bambu')).toEqual(['Werkstatt']);
    expect(await search(filaments, '/api/filaments', 'extrudr')).toEqual(['Rolle 1']);
    expect(await search(filaments, '/api/filaments', 'petg')).toEqual(['Rolle 1']);
    expect(await search(filaments, '/api/filaments', 'weiß')).toEqual(['Rolle 2']);
    // Packaging searches the name only.
    await post(packaging, '/api/packaging', { name: 'Schachtel', description: 'bambu' });
    expect(await search(packaging, '/api/packaging', 'bambu')).toEqual([]);
  });
});

describe('the library page lists in pages', () => {
  it('shows 48 items per page, newest first, with the search kept across pages; the API still lists all', async () => {
    const { cookie, userId } = await signedIn();
    const em = app.orm.em.fork();
    // 50 printers created a minute apart: 'Drucker 50' is the newest.
    await em.getConnection().execute(
      `insert into printers (user_id, name, brand, wattage, cost, lifetime_hours, electricity_rate, created_at, updated_at)
       select ?, 'Drucker ' || g, case when g % 2 = 0 then 'Gerade' else 'Ungerade' end, 100 + g, 299.5, 3000, 0.32,
              now() - (100 - g) * interval '1 minute', now() - (100 - g) * interval '1 minute'
       from generate_series(1, 50) g`,
      [userId],
    );
    const page = async (query: string) => {
      const data = (await libraryLoader('printers', { request: request(`/printers${query}`, 'GET', cookie), params: {}, context: {} })) as unknown as {
        items: Array<{ name: string; wattage: number; cost: number; isActive: number; userId: string }>;
        page: number;
        hasNext: boolean;
      };
      return data;
    };
    const first = await page('');
    expect(first.items).toHaveLength(48);
    expect(first.items[0]).toMatchObject({ name: 'Drucker 50', wattage: 150, cost: 299.5, isActive: 1, userId });
    expect([first.page, first.hasNext]).toEqual([1, true]);
    const second = await page('?page=2');
    expect(second.items.map((item) => item.name)).toEqual(['Drucker 2', 'Drucker 1']);
    expect([second.page, second.hasNext]).toEqual([2, false]);
    // Nonsense page numbers read as the first page.
    expect((await page('?page=-3')).items[0].name).toBe('Drucker 50');
    // The search (brand, case-insensitive) filters before paging: the 25 odd ones fit on one page.
    const odd = await page('?q=UNGERADE');
    expect(odd.items.map((item) => Number(item.name.split(' ')[1]) % 2)).toEqual(Array(25).fill(1));
    expect(odd.hasNext).toBe(false);
    // The JSON API (spec §7) has no paging.
    expect(await (await run(printers.loader, request('/api/printers', 'GET', cookie))).json()).toHaveLength(50);
  });
});
