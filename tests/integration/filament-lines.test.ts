import { describe, expect, it } from 'vitest';
import { Filament, Project, User } from '../../app/entities';
import { evaluateCalculator } from '../../app/calculator/evaluate';
import { lineTextsOf, rawValuesFromSearchParams } from '../../app/calculator/fields';
import { listProjects, projectMinimumPriceWithVat } from '../../app/models/projects.server';
import { deleteLibraryItem } from '../../app/models/library.server';
import { loader as listLoader, action as listAction } from '../../app/routes/api+/projects';
import { loader as oneLoader, action as oneAction } from '../../app/routes/api+/projects.$id';
import { action as projectsPageAction } from '../../app/routes/_account+/projects';
import { action as calculatorAction, loader as calculatorLoader } from '../../app/routes/_calculator+/calculator';
import { apiRequest, APP_URL, call, projectPayload, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

const app = useAuthTestApp('filament-lines');

/** Premium, so the project limit never gets in the way. */
const signedInPremiumUser = () => signedInUser(app.orm, { premium: true });

async function filament(userId: string, values: Partial<Filament> = {}) {
  const em = app.em();
  const entity = em.create(Filament, { user: em.getReference(User, userId), name: 'PLA Schwarz', pricePerKg: 19.99, ...values });
  await em.flush();
  return entity;
}

// A project without its filament fields: each test names its filament lines.
const { filamentWeight: _weight, filamentPricePerKg: _price, ...base } = projectPayload({ name: 'Drache dreifarbig', quantity: 2, printTime: 4.5 });

const api = {
  list: (cookie: string) => call(listLoader as Handler, apiRequest('/api/projects', 'GET', undefined, { cookie })),
  create: (cookie: string, body: unknown) => call(listAction as Handler, apiRequest('/api/projects', 'POST', body, { cookie })),
  get: (cookie: string, id: string) => call(oneLoader as Handler, apiRequest(`/api/projects/${id}`, 'GET', undefined, { cookie }), { id }),
  put: (cookie: string, id: string, body: unknown) => call(oneAction as Handler, apiRequest(`/api/projects/${id}`, 'PUT', body, { cookie }), { id }),
};

type LoaderData = { values: Record<string, string>; hidden: Record<string, string>; evaluation: ReturnType<typeof evaluateCalculator> };

async function openCalculator(query: string, cookie: string | null): Promise<LoaderData> {
  const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1' });
  if (cookie) headers.set('Cookie', cookie);
  return (await calculatorLoader({ request: new Request(`${APP_URL}/calculator?${query}`, { headers }), params: {}, context: {} })) as unknown as LoaderData;
}

async function saveFromCalculator(cookie: string, fields: Record<string, string>): Promise<string> {
  const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1', 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie });
  const request = new Request(`${APP_URL}/calculator`, { method: 'POST', headers, body: new URLSearchParams({ intent: 'save', ...fields }) });
  const response = await call(calculatorAction as Handler, request);
  expect(response.status).toBe(302);
  return /project=([0-9a-f-]{36})$/.exec(response.headers.get('Location') ?? '')![1];
}

describe('the §7 API with filament lines', () => {
  it('stores the lines, answers them with the total grams and the weighted € per kg, and keeps only own active library ids', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const other = await signedInPremiumUser();
    const own = await filament(user.id, { pricePerKg: 30 });
    const resting = await filament(user.id, { name: 'Ruhend', isActive: 0 });
    const foreign = await filament(other.user.id, { name: 'Fremd' });
    const lines = [
      { filamentId: own.id, label: 'Körper', grams: 30, pricePerKg: 20 },
      { label: 'Flügel', grams: 10, pricePerKg: 60, filamentId: foreign.id },
      { grams: '5,5', pricePerKg: 45, filamentId: resting.id },
    ];
    const created = await api.create(cookie, { ...base, filamentWeight: 999, filaments: lines });
    expect(created.status).toBe(201);
    const body = await created.json();
    expect(body.filaments).toEqual([
      // The given values count, not the library's price: an id only remembers the choice.
      { filamentId: own.id, label: 'Körper', grams: 30, pricePerKg: 20 },
      { label: 'Flügel', grams: 10, pricePerKg: 60 },
      { grams: 5.5, pricePerKg: 45 },
    ]);
    expect(body.filamentWeight).toBe(45.5);
    expect(body.filamentPricePerKg).toBeCloseTo((30 * 20 + 10 * 60 + 5.5 * 45) / 45.5, 10);
    expect(body.selectedFilamentId).toBe(own.id);

    const read = await (await api.get(cookie, body.id)).json();
    expect(read.filaments).toEqual(body.filaments);
    expect(read.filamentWeight).toBe(45.5);
    const listed = (await (await api.list(cookie)).json()) as Array<{ id: string; filaments: unknown }>;
    expect(listed.find((p) => p.id === body.id)?.filaments).toEqual(body.filaments);

    // The stored columns are the same totals (for a reader that knows only the spec's fields).
    const row = await app.em().findOneOrFail(Project, { id: body.id });
    expect(row.filamentWeight).toBe(45.5);

    // PUT without lines: the single fields are the one line again.
    const put = await (await api.put(cookie, body.id, { ...base, filamentWeight: 12, filamentPricePerKg: 25 })).json();
    expect(put.filaments).toEqual([{ grams: 12, pricePerKg: 25 }]);
    expect([put.filamentWeight, put.filamentPricePerKg]).toEqual([12, 25]);
  });

  it('a project without lines (saved before them) answers one line from its fields', async () => {
    const { cookie } = await signedInPremiumUser();
    const body = await (await api.create(cookie, { ...base, filamentWeight: 40, filamentPricePerKg: 22.5 })).json();
    expect(body.filaments).toEqual([{ grams: 40, pricePerKg: 22.5 }]);
    expect([body.filamentWeight, body.filamentPricePerKg]).toEqual([40, 22.5]);
    const row = await app.em().findOneOrFail(Project, { id: body.id });
    expect(row.filaments ?? null).toBeNull();
  });

  it('answers bad lines 400 with German messages by line and part, never 500', async () => {
    const { cookie } = await signedInPremiumUser();
    const cases: Array<[unknown, Record<string, string>]> = [
      ['drei', { filaments: 'Die Filamentzeilen müssen eine Liste von Zeilen mit Gramm und Preis pro kg sein.' }],
      [[], { filaments: 'Eine Kalkulation braucht mindestens eine Filamentzeile.' }],
      [Array.from({ length: 17 }, () => ({ grams: 1, pricePerKg: 20 })), { filaments: 'Eine Kalkulation kann höchstens 16 Filamentzeilen haben.' }],
      [[{ grams: 1, pricePerKg: 20 }, 'rot'], { 'filaments.1': 'Jede Filamentzeile braucht Gramm und Preis pro kg.' }],
      [[{ grams: 0.01, pricePerKg: 20 }], { 'filaments.0.grams': 'Filamentgewicht muss mindestens 0,1 g betragen' }],
      [[{ grams: 10 }], { 'filaments.0.pricePerKg': expect.any(String) as unknown as string }],
      [[{ grams: 10, pricePerKg: 20, label: 'x'.repeat(61) }], { 'filaments.0.label': 'Die Bezeichnung des Filaments darf höchstens 60 Zeichen lang sein' }],
      [[{ grams: 10, pricePerKg: 20, label: 'a\u0000b' }], { 'filaments.0.label': 'Steuerzeichen sind nicht erlaubt.' }],
      [[{ grams: 10, pricePerKg: 20, filamentId: 42 }], { 'filaments.0.filamentId': expect.any(String) as unknown as string }],
    ];
    for (const [filaments, errors] of cases) {
      const response = await api.create(cookie, { ...base, filaments });
      expect(response.status, JSON.stringify(filaments).slice(0, 60)).toBe(400);
      const body = await response.json();
      for (const [field, message] of Object.entries(errors)) expect(body.errors[field]?.[0], field).toEqual(message);
      expect(JSON.stringify(body)).not.toMatch(/errors\.|filament-lines:/);
    }
  });
});

describe('the calculator page with filament lines', () => {
  const lineFields = {
    projectName: 'Drache',
    quantity: '3',
    filamentWeight: '30',
    filamentPricePerKg: '20',
    filamentLabel: 'Körper',
    filamentWeight2: '10,5',
    filamentPricePerKg2: '60',
    filamentLabel2: 'Flügel',
    filamentWeight3: '2',
    filamentPricePerKg3: '45',
    filamentLabel3: '',
  };

  it('saves the lines, reopens them with the same figures, and the projects list and a copy show the same price', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const expected = evaluateCalculator(rawValuesFromSearchParams(new URLSearchParams(lineFields)));
    if (expected.status !== 'ok') throw new Error('expected a result');
    const id = await saveFromCalculator(cookie, lineFields);

    const reopened = await openCalculator(`project=${id}`, cookie);
    // Prices come back as money, with two decimals (issue 24 §1).
    expect(lineTextsOf(reopened.values as never)).toEqual([
      { grams: '30', pricePerKg: '20,00', label: 'Körper' },
      { grams: '10,5', pricePerKg: '60,00', label: 'Flügel' },
      { grams: '2', pricePerKg: '45,00', label: '' },
    ]);
    expect(reopened.evaluation).toEqual(expected);

    const list = await listProjects({ em: app.em(), user, now: new Date() } as never);
    const card = list.items.find((item) => item.id === id)!;
    expect(projectMinimumPriceWithVat(card)).toBeCloseTo(expected.result.minimumPriceWithVat, 10);

    const form = new URLSearchParams({ intent: 'copy', id });
    const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1', 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie });
    expect((await call(projectsPageAction as Handler, new Request(`${APP_URL}/projects`, { method: 'POST', headers, body: form }))).status).toBe(302);
    const copy = await app.em().findOneOrFail(Project, { user: user.id, name: 'Drache (Kopie)' });
    const copied = await openCalculator(`project=${copy.id}`, cookie);
    expect(copied.evaluation).toEqual(expected);
  });

  it('a one-line save is stored as before (no list), and a deleted library filament leaves the line values', async () => {
    const { user, cookie } = await signedInPremiumUser();
    const spool = await filament(user.id, { pricePerKg: 33 });
    const single = await saveFromCalculator(cookie, { projectName: 'Ring', filamentWeight: '12,5' });
    expect((await app.em().findOneOrFail(Project, { id: single })).filaments ?? null).toBeNull();

    const id = await saveFromCalculator(cookie, { ...lineFields, selectedFilament: spool.id, filamentPricePerKg: '33' });
    const before = await openCalculator(`project=${id}`, cookie);
    await app.em().nativeDelete(Filament, { id: spool.id });
    const after = await openCalculator(`project=${id}`, cookie);
    expect(after.values).toEqual(before.values);
    expect(after.evaluation).toEqual(before.evaluation);
  });

  it("no JS: removing an opened project's lines down to one answers a link that reopens one line", async () => {
    const { cookie } = await signedInPremiumUser();
    // Line 1 without a label: then only the line count tells the answer's one line from an old link.
    const fields = { ...lineFields, filamentLabel: '' };
    const id = await saveFromCalculator(cookie, fields);
    // The calculator's GET form of the opened project, 'Entfernen' of line 3, then of line 2.
    let form = new URLSearchParams({ ...fields, project: id, filamentZeile: 'entfernen-3' });
    for (const line of [3, 2]) {
      form.set('filamentZeile', `entfernen-${line}`);
      const response = await call(calculatorLoader as Handler, new Request(`${APP_URL}/calculator?${form}`, { headers: { Cookie: cookie, 'x-druckpreis-client-ip': '127.0.0.1' } }));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('Location')!, APP_URL);
      form = new URLSearchParams(location.search);
      expect(lineTextsOf(rawValuesFromSearchParams(form))).toHaveLength(line - 1);
    }
    const reopened = await openCalculator(form.toString(), cookie);
    expect(lineTextsOf(reopened.values as never)).toEqual([{ grams: '30', pricePerKg: '20', label: '' }]);
  });

  it("deleting a library filament keeps the lines' values and clears its id from every stored line, in one transaction", async () => {
    const { user, cookie } = await signedInPremiumUser();
    const gone = await filament(user.id, { name: 'PLA Weiß', pricePerKg: 24.99 });
    const kept = await filament(user.id, { name: 'PETG Rot', pricePerKg: 31.5 });
    const lines = [
      { filamentId: gone.id, label: 'Körper', grams: 30, pricePerKg: 24.99 },
      { filamentId: kept.id, grams: 10, pricePerKg: 31.5 },
      { filamentId: gone.id, grams: 2, pricePerKg: 24.99 },
    ];
    const created = await api.create(cookie, { ...base, filaments: lines });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const other = (await (await api.create(cookie, { ...base, name: 'Ohne', filaments: [{ filamentId: kept.id, grams: 5, pricePerKg: 31.5 }] })).json()) as { id: string };
    const stored = async (projectId: string) => {
      const [row] = await app.em().getConnection().execute<{ filaments: unknown; updated_at: Date }[]>('select filaments, updated_at from projects where id = ?', [projectId]);
      return row;
    };
    const before = await stored(id);
    const otherBefore = await stored(other.id);
    const opened = await openCalculator(`project=${id}`, cookie);

    expect((await deleteLibraryItem({ em: app.em(), user } as never, 'filaments', gone.id)).kind).toBe('ok');

    const after = await stored(id);
    expect(after.filaments).toEqual([
      { label: 'Körper', grams: 30, pricePerKg: 24.99 },
      { filamentId: kept.id, grams: 10, pricePerKg: 31.5 },
      { grams: 2, pricePerKg: 24.99 },
    ]);
    // Nothing the seller changed: the project's date stays; a project not naming it is not written.
    expect(after.updated_at).toEqual(before.updated_at);
    expect(await stored(other.id)).toEqual(otherBefore);
    expect(await app.em().findOne(Filament, { id: gone.id })).toBeNull();
    // The figures are the same; the answers name no deleted filament.
    const reopened = await openCalculator(`project=${id}`, cookie);
    expect(reopened.evaluation).toEqual(opened.evaluation);
    const answered = (await (await api.get(cookie, id)).json()) as { filaments: Array<{ filamentId?: string }> };
    expect(answered.filaments.map((line) => line.filamentId ?? null)).toEqual([null, kept.id, null]);
  });

  it('an address with lines overrides the saved lines (a shared draft); an old link opens as one line', async () => {
    const { cookie } = await signedInPremiumUser();
    const id = await saveFromCalculator(cookie, lineFields);
    const draft = await openCalculator(`project=${id}&filamentWeight=30&filamentWeight2=11`, cookie);
    expect(lineTextsOf(draft.values as never).map((line) => line.grams)).toEqual(['30', '11']);

    // A draft that went back to one line says so (its line count): the saved lines stay out.
    const single = await openCalculator(`project=${id}&filamentWeight=30&filamentPricePerKg=20&filamentLines=1`, cookie);
    expect(lineTextsOf(single.values as never)).toEqual([{ grams: '30', pricePerKg: '20', label: '' }]);
    expect(single.evaluation.status === 'ok' && single.evaluation.result.filamentCost).toBe((30 / 1000) * 20 * 3);
    // Without a line count and line fields the address is an old link's fields over the saved lines.
    const oldDraft = await openCalculator(`project=${id}&quantity=1`, cookie);
    expect(lineTextsOf(oldDraft.values as never)).toHaveLength(3);

    const old = await openCalculator('filamentWeight=50&filamentPricePerKg=22&quantity=2', null);
    expect(lineTextsOf(old.values as never)).toEqual([{ grams: '50', pricePerKg: '22', label: '' }]);
    expect(old.evaluation.status === 'ok' && old.evaluation.result.filamentCost).toBe((50 / 1000) * 22 * 2);
  });
});
