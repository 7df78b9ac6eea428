import { describe, expect, it } from 'vitest';
import { Filament, Marketplace, Packaging, Printer, Project, ShippingProvider } from '../../app/entities';
import { FREE_PROJECT_LIMIT } from '../../app/domain/projects';
import { projectMinimumPriceWithVat } from '../../app/models/projects.server';
import { loader as listLoader, action as listAction } from '../../app/routes/api+/projects';
import { loader as projectsPageLoader } from '../../app/routes/_account+/projects';
import { loader as oneLoader, action as oneAction } from '../../app/routes/api+/projects.$id';
import { action as uploadAction } from '../../app/routes/api+/images.upload';
import { action as calculatorAction } from '../../app/routes/_calculator+/calculator';
import { action as slicerImportAction } from '../../app/routes/_calculator+/calculator.slicer-import';
import { loader as imageLoader } from '../../app/routes/_resources+/images.$';
import { getFileStore } from '../../app/services/storage.server';
import { apiRequest, call, projectPayload, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

const app = useAuthTestApp('projects');

const payload = (overrides: Record<string, unknown> = {}) => projectPayload({ name: 'Vase Design #1', quantity: 2, ...overrides });

const api = {
  list: (cookie: string | null) => call(listLoader as Handler, apiRequest('/api/projects', 'GET', undefined, { cookie })),
  create: (cookie: string | null, body: unknown) => call(listAction as Handler, apiRequest('/api/projects', 'POST', body, { cookie })),
  get: (cookie: string | null, id: string) => call(oneLoader as Handler, apiRequest(`/api/projects/${id}`, 'GET', undefined, { cookie }), { id }),
  put: (cookie: string | null, id: string, body: unknown) =>
    call(oneAction as Handler, apiRequest(`/api/projects/${id}`, 'PUT', body, { cookie }), { id }),
  delete: (cookie: string | null, id: string) =>
    call(oneAction as Handler, apiRequest(`/api/projects/${id}`, 'DELETE', undefined, { cookie }), { id }),
};

describe('JSON API /api/projects (spec §7)', () => {
  it('creates (201), reads, lists, updates (200) and deletes (204) a project', async () => {
    const { cookie } = await signedInUser(app.orm);
    const created = await api.create(cookie, payload());
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body).toMatchObject({ ...payload(), vatPercent: 19 });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);

    const read = await api.get(cookie, body.id);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: body.id, marketplaceFeePercentage: 6.5, selectedPrinterId: null });

    const updated = await api.put(cookie, body.id, payload({ name: 'Vase Design #2', vatPercent: 7 }));
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ id: body.id, name: 'Vase Design #2', vatPercent: 7 });

    const list = await api.list(cookie);
    expect(list.status).toBe(200);
    expect((await list.json()).map((p: { id: string }) => p.id)).toEqual([body.id]);

    const deleted = await api.delete(cookie, body.id);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await api.get(cookie, body.id)).status).toBe(404);
  });

  it('accepts both spellings of the fee and of the library references and reads them back under the stored names', async () => {
    const { user, cookie } = await signedInUser(app.orm);
    const em = app.em();
    const printer = em.create(Printer, { user, name: 'Prusa', wattage: 120, cost: 799, lifetimeHours: 5000 });
    const filament = em.create(Filament, { user, name: 'PLA', material: 'PLA', pricePerKg: 20 });
    const packaging = em.create(Packaging, { user, name: 'Karton', type: 'box', cost: 0.5 });
    const shipping = em.create(ShippingProvider, { user, name: 'DHL', baseCost: 4.95 });
    const marketplace = em.create(Marketplace, { user, name: 'Etsy', percentageFee: 0.065, fixedFee: 0.2 });
    await em.flush();
    const { marketplaceFeePercentage: _, ...rest } = payload();
    const response = await api.create(cookie, {
      ...rest,
      marketplaceFeePercent: '6,5',
      selectedPrinterId: printer.id,
      selectedFilament: filament.id,
      selectedPackagingId: packaging.id,
      selectedShippingProviderId: shipping.id,
      selectedMarketplace: marketplace.id,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      marketplaceFeePercentage: 6.5,
      selectedPrinterId: printer.id,
      selectedFilamentId: filament.id,
      selectedPackagingId: packaging.id,
      selectedShippingProviderId: shipping.id,
      selectedMarketplaceId: marketplace.id,
    });
  });

  it('drops a library id that is not the user’s own (never stores it)', async () => {
    const other = await signedInUser(app.orm);
    const em = app.em();
    const foreignPrinter = em.create(Printer, { user: other.user, name: 'Fremd', wattage: 100, cost: 100, lifetimeHours: 1000 });
    await em.flush();
    const { cookie } = await signedInUser(app.orm);
    const response = await api.create(cookie, payload({ selectedPrinterId: foreignPrinter.id, selectedFilamentId: 'kein-uuid' }));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.selectedPrinterId).toBeNull();
    expect(body.selectedFilamentId).toBeNull();
    const stored = await app.em().findOneOrFail(Project, { id: body.id });
    expect(stored.selectedPrinter).toBeNull();
  });

  it('means 19 % VAT when the payload has none and keeps other fields from the table in the project', async () => {
    const { cookie } = await signedInUser(app.orm);
    const response = await api.create(cookie, payload());
    expect((await response.json()).vatPercent).toBe(19);
  });

  it('answers visitors 401 and another user’s id 404 for every method', async () => {
    const owner = await signedInUser(app.orm);
    const created = await (await api.create(owner.cookie, payload())).json();
    expect((await api.list(null)).status).toBe(401);
    expect((await api.create(null, payload())).status).toBe(401);
    expect((await api.get(null, created.id)).status).toBe(401);
    expect((await api.put(null, created.id, payload())).status).toBe(401);
    expect((await api.delete(null, created.id)).status).toBe(401);

    const stranger = await signedInUser(app.orm);
    for (const response of [
      await api.get(stranger.cookie, created.id),
      await api.put(stranger.cookie, created.id, payload({ name: 'Gekapert' })),
      await api.put(stranger.cookie, created.id, { name: '' }),
      await api.delete(stranger.cookie, created.id),
      await api.get(stranger.cookie, 'nicht-einmal-eine-uuid'),
    ]) {
      expect(response.status).toBe(404);
      expect((await response.json()).message).toMatch(/\S/);
    }
    expect((await api.list(stranger.cookie)).status).toBe(200);
    expect(await (await api.list(stranger.cookie)).json()).toEqual([]);
    const untouched = await app.em().findOneOrFail(Project, { id: created.id });
    expect(untouched.name).toBe('Vase Design #1');
  });

  it('answers bad bodies 400 with German messages by field, never 500', async () => {
    const { cookie } = await signedInUser(app.orm);
    const blank = await api.create(cookie, payload({ name: '   ' }));
    expect(blank.status).toBe(400);
    const blankBody = await blank.json();
    expect(blankBody.errors.name).toEqual(['Bitte geben Sie einen Projektnamen ein.']);

    const bad = await api.create(cookie, payload({ quantity: 0, marketplaceFeePercentage: 150, profitMargin: 'viel', printTime: -1 }));
    expect(bad.status).toBe(400);
    const badBody = await bad.json();
    expect(Object.keys(badBody.errors).sort()).toEqual(['marketplaceFeePercentage', 'printTime', 'profitMargin', 'quantity']);
    expect(badBody.errors.marketplaceFeePercentage[0]).toBe('Gebühr muss zwischen 0 und 100% liegen');
    expect(badBody.message).toBe('Bitte überprüfen Sie Ihre Eingaben.');

    for (const body of ['{"name":', '[1,2]', '"text"']) {
      const response = await api.create(cookie, body);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe('Die Anfrage konnte nicht gelesen werden. Bitte senden Sie ein JSON-Objekt.');
    }
    expect((await api.create(cookie, payload({ name: 'a\u0000b' }))).status).toBe(400);
  });

  it('refuses a free user’s 4th project with 403 PROJECT_LIMIT_EXCEEDED; Premium has no limit', async () => {
    const free = await signedInUser(app.orm);
    for (let i = 1; i <= FREE_PROJECT_LIMIT; i++) expect((await api.create(free.cookie, payload({ name: `P${i}` }))).status).toBe(201);
    const refused = await api.create(free.cookie, payload({ name: 'P4' }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 'PROJECT_LIMIT_EXCEEDED',
      message: 'Kostenlose Nutzer können maximal 3 Projekte erstellen. Upgraden Sie auf Premium für unbegrenzte Projekte.',
    });
    expect(await app.em().count(Project, { user: free.user.id })).toBe(3);
    // Updating one of the three is not creating.
    const [first] = await (await api.list(free.cookie)).json();
    expect((await api.put(free.cookie, first.id, payload({ name: 'P1 neu' }))).status).toBe(200);

    const premium = await signedInUser(app.orm, { premium: true });
    for (let i = 1; i <= 5; i++) expect((await api.create(premium.cookie, payload({ name: `P${i}` }))).status).toBe(201);
    expect(await app.em().count(Project, { user: premium.user.id })).toBe(5);
  });

  it('tells the /projects page whether a new project is allowed, also on later pages and in searches', async () => {
    const pageData = async (cookie: string, query = '') =>
      (await (projectsPageLoader as unknown as Handler)({ request: apiRequest(`/projects${query}`, 'GET', undefined, { cookie }), params: {}, context: {} })) as {
        canCreate: boolean;
        projects: Array<{ name: string }>;
      };
    const free = await signedInUser(app.orm);
    expect((await pageData(free.cookie)).canCreate).toBe(true);
    await api.create(free.cookie, payload({ name: 'P1' }));
    // A page past the end, and a search that finds nothing, of a user with one project.
    expect(await pageData(free.cookie, '?page=2')).toMatchObject({ canCreate: true, projects: [] });
    expect(await pageData(free.cookie, '?q=nichts')).toMatchObject({ canCreate: true, projects: [] });
    for (let i = 2; i < FREE_PROJECT_LIMIT; i++) await api.create(free.cookie, payload({ name: `P${i}` }));
    expect((await pageData(free.cookie)).canCreate).toBe(true);
    await api.create(free.cookie, payload({ name: `P${FREE_PROJECT_LIMIT}` }));
    const full = await pageData(free.cookie);
    expect([full.projects.length, full.canCreate]).toEqual([FREE_PROJECT_LIMIT, false]);
    // A search that finds one, and a page past the end, still know about the other projects.
    expect(await pageData(free.cookie, '?q=P1')).toMatchObject({ canCreate: false, projects: [{ name: 'P1' }] });
    expect(await pageData(free.cookie, '?page=2')).toMatchObject({ canCreate: false, projects: [] });
    // A search whose hits alone reach the limit.
    expect(await pageData(free.cookie, '?q=P')).toMatchObject({ canCreate: false, projects: [{}, {}, {}] });
    const premium = await signedInUser(app.orm, { premium: true });
    for (let i = 1; i <= FREE_PROJECT_LIMIT + 1; i++) await api.create(premium.cookie, payload({ name: `P${i}` }));
    expect((await pageData(premium.cookie)).canCreate).toBe(true);
  });

  it('never lets parallel creates push a free user past 3', async () => {
    const { user, cookie } = await signedInUser(app.orm);
    for (let i = 1; i <= 2; i++) expect((await api.create(cookie, payload({ name: `P${i}` }))).status).toBe(201);
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => api.create(cookie, payload({ name: `Parallel ${i}` })).then((r) => r.status)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(11);
    expect(await app.em().count(Project, { user: user.id })).toBe(3);
  });

  it('computes the list card’s minimum price incl. VAT with the engine from the saved inputs', async () => {
    const { cookie } = await signedInUser(app.orm);
    const body = await (await api.create(cookie, payload({ vatPercent: 0 }))).json();
    const project = await app.em().findOneOrFail(Project, { id: body.id });
    const net = projectMinimumPriceWithVat(project)!;
    await app.em().nativeUpdate(Project, { id: body.id }, { vatPercent: 19 });
    const withVat = projectMinimumPriceWithVat(await app.em().findOneOrFail(Project, { id: body.id }))!;
    expect(net).toBeGreaterThan(0);
    expect(withVat).toBeCloseTo(net * 1.19, 6);
  });
});

describe('product images (spec §4, §7 /api/images/upload)', () => {
  const PNG_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

  function uploadRequest(cookie: string | null, bytes: Buffer, filename = 'bild.png', type = 'image/png') {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), filename);
    const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1' });
    if (cookie) headers.set('Cookie', cookie);
    return new Request('http://localhost:3000/api/images/upload', { method: 'POST', body: form, headers });
  }

  async function upload(cookie: string | null, bytes = PNG_PIXEL, filename?: string, type?: string) {
    return call(uploadAction as Handler, uploadRequest(cookie, bytes, filename, type));
  }

  function image(cookie: string | null, path: string) {
    const headers = new Headers();
    if (cookie) headers.set('Cookie', cookie);
    return call(imageLoader as Handler, new Request(`http://localhost:3000${path}`, { headers }), { '*': path.replace('/images/', '') });
  }

  const stored = async (path: string) => (await getFileStore().get(path.replace('/images/', ''))) !== null;

  it('answers visitors 401 with the German message', async () => {
    const response = await upload(null);
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe('Sie müssen angemeldet sein, um Bilder hochzuladen.');
  });

  it('reads the type from the bytes: HTML named .png is refused, a PNG is re-encoded to JPEG and served only to its owner', async () => {
    const { cookie } = await signedInUser(app.orm);
    const html = await upload(cookie, Buffer.from('<!doctype html><script>alert(1)</script>'), 'bild.png', 'image/png');
    expect(html.status).toBe(400);
    expect((await html.json()).message).toBe('Nur JPG und PNG Dateien sind erlaubt.');

    const ok = await upload(cookie);
    expect(ok.status).toBe(200);
    const { imagePath } = await ok.json();
    expect(imagePath).toMatch(/^\/images\/product\/[0-9a-f-]{36}\/[0-9a-f]{32}$/);
    const own = await image(cookie, imagePath);
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await own.arrayBuffer()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));

    const stranger = await signedInUser(app.orm);
    expect((await image(stranger.cookie, imagePath)).status).toBe(404);
    expect((await image(null, imagePath)).status).toBe(404);
  });

  it('refuses files over 10 MB', async () => {
    const { cookie } = await signedInUser(app.orm);
    const big = Buffer.concat([PNG_PIXEL, Buffer.alloc(10 * 1024 * 1024)]);
    const response = await upload(cookie, big);
    expect([400, 413]).toContain(response.status);
    expect((await response.json()).message).toBe('Die Datei ist zu groß. Maximal 10MB sind erlaubt.');
  });

  it('saves the user’s own upload with the project, drops another user’s, and deletes the file on replace and on delete', async () => {
    const other = await signedInUser(app.orm);
    const foreignPath = (await (await upload(other.cookie)).json()).imagePath;

    const { cookie } = await signedInUser(app.orm);
    const foreign = await (await api.create(cookie, payload({ productImagePath: foreignPath }))).json();
    expect(foreign.productImagePath).toBeNull();
    expect(await stored(foreignPath)).toBe(true);

    const first = (await (await upload(cookie)).json()).imagePath;
    const created = await (await api.create(cookie, payload({ productImagePath: first }))).json();
    expect(created.productImagePath).toBe(first);

    const second = (await (await upload(cookie)).json()).imagePath;
    const replaced = await (await api.put(cookie, created.id, payload({ productImagePath: second }))).json();
    expect(replaced.productImagePath).toBe(second);
    expect(await stored(first)).toBe(false);
    expect(await stored(second)).toBe(true);

    // Removing the image (no path) deletes the file too.
    const third = (await (await upload(cookie)).json()).imagePath;
    await api.put(cookie, created.id, payload({ productImagePath: third }));
    expect(await stored(second)).toBe(false);
    await api.put(cookie, created.id, payload({ productImagePath: null }));
    expect(await stored(third)).toBe(false);

    const fourth = (await (await upload(cookie)).json()).imagePath;
    await api.put(cookie, created.id, payload({ productImagePath: fourth }));
    expect((await api.delete(cookie, created.id)).status).toBe(204);
    expect(await stored(fourth)).toBe(false);
  });
});

describe('saving from the calculator page (POST /calculator, intent=save)', () => {
  function formRequest(cookie: string | null, fields: Record<string, string>) {
    const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1', 'Content-Type': 'application/x-www-form-urlencoded' });
    if (cookie) headers.set('Cookie', cookie);
    return new Request('http://localhost:3000/calculator', { method: 'POST', headers, body: new URLSearchParams(fields) });
  }

  type ActionData = { saveError: { title: string; text: string; action?: { href: string } } | null; errors: Record<string, string> };
  async function save(cookie: string | null, fields: Record<string, string>) {
    const result = await calculatorAction({ request: formRequest(cookie, { intent: 'save', ...fields }), params: {}, context: {} } as never).catch((e) => e);
    if (result instanceof Response) return { status: result.status, location: result.headers.get('Location'), data: null };
    const { data, init } = result as { data: ActionData; init: { status: number } | null };
    return { status: init?.status ?? 200, location: null, data };
  }

  it('creates, then updates the project named by the form, and redirects to /calculator?project=<id>', async () => {
    const { user, cookie } = await signedInUser(app.orm);
    const created = await save(cookie, { projectName: 'Ring', filamentWeight: '12,5', vatPercent: '7' });
    expect(created.status).toBe(302);
    const id = /project=([0-9a-f-]{36})$/.exec(created.location ?? '')![1];
    const project = await app.em().findOneOrFail(Project, { id, user: user.id });
    expect([project.filamentWeight, project.vatPercent]).toEqual([12.5, 7]);

    const updated = await save(cookie, { projectName: 'Ring groß', project: id });
    expect(updated.location).toBe(`/calculator?project=${id}`);
    expect((await app.em().findOneOrFail(Project, { id })).name).toBe('Ring groß');
    expect(await app.em().count(Project, { user: user.id })).toBe(1);
  });

  it('refuses a blank name, visitors, a foreign project id and the 4th free project, without a 500', async () => {
    const { user, cookie } = await signedInUser(app.orm);
    const blank = await save(cookie, { projectName: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.data!.saveError!.title).toBe('Projektname erforderlich');
    expect(blank.data!.errors.projectName).toBe('calculator:errors.projectNameRequired');

    const visitor = await save(null, { projectName: 'Ring' });
    expect(visitor.status).toBe(401);
    expect(visitor.data!.saveError!.title).toBe('Anmeldung erforderlich');
    expect(visitor.data!.saveError!.action!.href).toMatch(/^\/auth\?redirectTo=/);

    const other = await signedInUser(app.orm);
    const foreign = await (await api.create(other.cookie, payload())).json();
    const hijack = await save(cookie, { projectName: 'Gekapert', project: foreign.id });
    expect(hijack.status).toBe(404);
    expect((await app.em().findOneOrFail(Project, { id: foreign.id })).name).toBe('Vase Design #1');

    for (const name of ['A', 'B', 'C']) expect((await save(cookie, { projectName: name })).status).toBe(302);
    const fourth = await save(cookie, { projectName: 'D' });
    expect(fourth.status).toBe(403);
    expect(fourth.data!.saveError).toMatchObject({ title: 'Projektlimit erreicht', action: { href: '/premium' } });
    expect(await app.em().count(Project, { user: user.id })).toBe(3);
  });
});

describe('the no-JS slicer import keeps the open project', () => {
  it('carries the project id and its unsaved parts (library choice, image) into the filled calculation', async () => {
    const { user } = await signedInUser(app.orm);
    const projectId = '11111111-2222-4333-8444-555555555555';
    const printerId = '66666666-7777-4888-9999-000000000000';
    const body = new FormData();
    body.set('projectName', 'Zahnrad');
    body.set('quantity', '2');
    body.set('project', projectId);
    body.set('selectedPrinter', printerId);
    body.set('productImagePath', `/images/product/${user.id}/abc`);
    body.set('file', new File(['; filament used [g] = 12.34\n; estimated printing time (normal mode) = 1h 2m 3s\nG28\n'], 'teil.gcode'));
    const response = await call(slicerImportAction as Handler, new Request('http://localhost:3000/calculator/slicer-import', { method: 'POST', body, headers: { 'x-druckpreis-client-ip': '127.0.0.1' } }));
    expect(response.status).toBe(303);
    const target = new URL(response.headers.get('Location')!, 'http://localhost:3000');
    expect(target.pathname).toBe('/calculator');
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      projectName: 'Zahnrad',
      quantity: '2',
      project: projectId,
      selectedPrinter: printerId,
      productImagePath: `/images/product/${user.id}/abc`,
      filamentWeight: '12,34',
    });
  });

  it('cuts over-long texts to what their fields hold, so the filled calculation is an address the server accepts', async () => {
    const body = new FormData();
    body.set('projectName', 'Ä'.repeat(20_000));
    body.set('hourlyRate', '9'.repeat(20_000));
    body.set('file', new File(['; filament used [g] = 1.5\nG28\n'], 'teil.gcode'));
    const response = await call(slicerImportAction as Handler, new Request('http://localhost:3000/calculator/slicer-import', { method: 'POST', body, headers: { 'x-druckpreis-client-ip': '127.0.0.1' } }));
    expect(response.status).toBe(303);
    const location = response.headers.get('Location')!;
    // Well below the server's 16 KB header limit.
    expect(location.length).toBeLessThan(4_000);
    const target = new URL(location, 'http://localhost:3000');
    expect(target.searchParams.get('projectName')).toBe('Ä'.repeat(200));
    expect(target.searchParams.get('hourlyRate')).toHaveLength(64);
  });
});
