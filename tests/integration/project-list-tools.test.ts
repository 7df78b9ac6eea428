import { describe, expect, it } from 'vitest';
import { csvCell, csvDocument } from '../../app/lib/csv';
import { loader as projectsPageLoader } from '../../app/routes/_account+/projects';
import { loader as csvLoader } from '../../app/routes/_account+/projects[.]csv';
import { action as createAction } from '../../app/routes/api+/projects';
import { getToast } from '../../app/web/toast.server';
import { apiRequest, call, projectPayload, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/** Issue 24 §4: the project list's order (name, last change, price) and `GET /projects.csv`. */

const app = useAuthTestApp('project_tools');

const payload = projectPayload;

async function create(cookie: string, overrides: Record<string, unknown>) {
  const response = await call(createAction as Handler, apiRequest('/api/projects', 'POST', payload(overrides), { cookie }));
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string };
}

const pageNames = async (cookie: string, query = '') => {
  const data = (await (projectsPageLoader as unknown as Handler)({ request: apiRequest(`/projects${query}`, 'GET', undefined, { cookie }), params: {}, context: {} })) as {
    sort: string;
    projects: Array<{ name: string; minimumPrice: string | null }>;
  };
  return { sort: data.sort, names: data.projects.map((p) => p.name) };
};

const csv = (cookie: string | null) => call(csvLoader as Handler, apiRequest('/projects.csv', 'GET', undefined, { cookie }));

describe('project list order (?sort=)', () => {
  it('sorts by last change (default), name and minimum price both ways; an unknown value is the default', async () => {
    const { cookie } = await signedInUser(app.orm, { premium: true });
    // Created in this order: "mittel" is the newest. Prices: the weight drives them.
    await create(cookie, { name: 'billig', filamentWeight: 5, printTime: 0.5 });
    await create(cookie, { name: 'Zebra teuer', filamentWeight: 900, printTime: 20 });
    await create(cookie, { name: 'unmöglich', marketplaceFeePercentage: 100 });
    await create(cookie, { name: 'Apfel mittel', filamentWeight: 100, printTime: 4 });

    expect(await pageNames(cookie)).toEqual({ sort: 'changed', names: ['Apfel mittel', 'unmöglich', 'Zebra teuer', 'billig'] });
    expect((await pageNames(cookie, '?sort=name')).names).toEqual(['Apfel mittel', 'billig', 'unmöglich', 'Zebra teuer']);
    // A project without a possible price is last in both directions.
    expect((await pageNames(cookie, '?sort=price')).names).toEqual(['billig', 'Apfel mittel', 'Zebra teuer', 'unmöglich']);
    expect((await pageNames(cookie, '?sort=price-desc')).names).toEqual(['Zebra teuer', 'Apfel mittel', 'billig', 'unmöglich']);
    expect(await pageNames(cookie, '?sort=drop%20table')).toEqual({ sort: 'changed', names: ['Apfel mittel', 'unmöglich', 'Zebra teuer', 'billig'] });
    // Search and order together.
    expect((await pageNames(cookie, '?q=i&sort=price')).names).toEqual(['billig', 'Apfel mittel', 'unmöglich']);
  });
});

describe('usage before the wall', () => {
  it('tells a free user how many of the 3 projects are used; Premium has no usage', async () => {
    const usage = async (cookie: string) =>
      ((await (projectsPageLoader as unknown as Handler)({ request: apiRequest('/projects', 'GET', undefined, { cookie }), params: {}, context: {} })) as { usage: unknown; canCreate: boolean });
    const free = await signedInUser(app.orm);
    expect(await usage(free.cookie)).toMatchObject({ usage: { used: 0, limit: 3 }, canCreate: true });
    await create(free.cookie, { name: 'Eins' });
    await create(free.cookie, { name: 'Zwei' });
    expect(await usage(free.cookie)).toMatchObject({ usage: { used: 2, limit: 3 }, canCreate: true });
    await create(free.cookie, { name: 'Drei' });
    expect(await usage(free.cookie)).toMatchObject({ usage: { used: 3, limit: 3 }, canCreate: false });
    const premium = await signedInUser(app.orm, { premium: true });
    await create(premium.cookie, { name: 'Eins' });
    expect(await usage(premium.cookie)).toMatchObject({ usage: null, canCreate: true });
  });
});

describe('GET /projects.csv', () => {
  it('exports only the seller’s own projects as German CSV: BOM, semicolons, comma decimals, minimum prices', async () => {
    const seller = await signedInUser(app.orm);
    const other = await signedInUser(app.orm);
    await create(other.cookie, { name: 'Fremdes Projekt' });
    await create(seller.cookie, { name: 'Vase; "groß"', marketplacePlatform: 'Etsy', vatPercent: 7 });
    await create(seller.cookie, { name: '=HYPERLINK("http://böse.example")', filamentWeight: 12.5, smallBusiness: true });

    const response = await csv(seller.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="druckpreis-projekte-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text.startsWith('\uFEFFProjektname;Anzahl (Stück);Filamentgewicht (g);')).toBe(true);
    expect(text).not.toContain('Fremdes Projekt');
    const lines = text.slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    const header = lines[0].split(';');
    expect(header).toContain('Mindestpreis inkl. MwSt. (€)');
    expect(lines).toHaveLength(4);
    const col = (line: string, name: string) => line.split(';')[header.indexOf(name)];
    // Newest first: the formula-looking name, made inert with an apostrophe and quoted for its quotes.
    expect(lines[1].startsWith(`"'=HYPERLINK(""http://böse.example"")";`)).toBe(true);
    expect(col(lines[1], 'Filamentgewicht (g)')).toBe('12,5');
    expect(col(lines[1], 'Kleinunternehmer (§ 19 UStG)')).toBe('ja');
    // A ; in the name is quoted, so the row keeps its columns.
    expect(lines[2].startsWith('"Vase; ""groß""";')).toBe(true);
    const second = lines[2].replace(/^"[^\n]*?""";/, 'X;');
    expect(second.split(';')).toHaveLength(header.length);
    expect(col(second, 'Marktplatz')).toBe('Etsy');
    expect(col(second, 'Mehrwertsteuer (%)')).toBe('7');
    expect(col(second, 'Strompreis (€/kWh)')).toBe('0,3');
    expect(col(second, 'Stundensatz (€/h)')).toBe('20,00');
    expect(col(second, 'Kleinunternehmer (§ 19 UStG)')).toBe('nein');
    // German hours (at most two decimals) and German dates.
    expect(col(second, 'Druckzeit (h)')).toBe('2,25');
    expect(col(second, 'Zuletzt geändert')).toMatch(/^\d{2}\.\d{2}\.20\d{2}$/);
    const net = col(second, 'Mindestpreis netto (€)');
    const gross = col(second, 'Mindestpreis inkl. MwSt. (€)');
    expect(net).toMatch(/^\d+,\d{2}$/);
    const toNumber = (s: string) => Number(s.replace(',', '.'));
    expect(toNumber(gross)).toBeCloseTo(toNumber(net) * 1.07, 1);
  });

  it('sends visitors to sign in and back to the list; an empty list is the header row', async () => {
    const visitor = await csv(null);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('Location')).toBe('/auth?redirectTo=%2Fprojects');
    const { cookie } = await signedInUser(app.orm);
    const text = await (await csv(cookie)).text();
    expect(text.replace(/^\uFEFF/, '').split('\r\n')).toHaveLength(2);
  });

  it('makes every cell that a spreadsheet would run as a formula inert', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+2`).replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
    expect(csvCell('Vase')).toBe('Vase');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(null)).toBe('');
    expect(csvDocument([['a', 'b;c']])).toBe('\uFEFFa;"b;c"\r\n');
  });
});

describe('GET /projects.csv over its rate limit', () => {
  /** The link on /projects followed in a browser (no script): a navigation that asks for HTML. */
  const LINK = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
  const csvWith = (cookie: string, headers: Record<string, string>) => call(csvLoader as Handler, apiRequest('/projects.csv', 'GET', undefined, { cookie, headers }));

  it('a followed link goes back to /projects with a German toast; a script or API client gets the JSON 429', async () => {
    const { cookie } = await signedInUser(app.orm);
    // 10 downloads a quarter hour per seller (projectCsvExport in domain/limits.ts).
    for (let i = 0; i < 10; i++) expect((await csvWith(cookie, LINK)).status).toBe(200);

    const page = await csvWith(cookie, LINK);
    expect(page.status).toBe(303);
    expect(page.headers.get('Location')).toBe('/projects');
    const { toast } = await getToast(new Request('http://localhost:3000/projects', { headers: { Cookie: page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') } }));
    expect(toast).toMatchObject({ type: 'error', title: 'CSV-Export gerade nicht möglich' });
    expect(toast?.description).toMatch(/^Zu viele Versuche\. Bitte warten Sie \d+ Minuten? und versuchen Sie es dann erneut\.$/);

    // Not a page: no Accept of HTML, a script's fetch (Sec-Fetch-Mode: cors), an XMLHttpRequest.
    const notPages: Record<string, string>[] = [{}, { Accept: 'application/json' }, { ...LINK, 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' }, { ...LINK, 'X-Requested-With': 'XMLHttpRequest' }];
    for (const headers of notPages) {
      const api = await csvWith(cookie, headers);
      expect(api.status, JSON.stringify(headers)).toBe(429);
      expect(api.headers.get('Retry-After')).toMatch(/^\d+$/);
      expect(api.headers.get('Content-Type')).toMatch(/^application\/json/);
      expect(((await api.json()) as { message: string }).message).toMatch(/^Zu viele Versuche/);
    }
  });
});
