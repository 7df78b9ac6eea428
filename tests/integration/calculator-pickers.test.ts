import { describe, expect, it } from 'vitest';
import { Filament, Marketplace, Printer, User } from '../../app/entities';
import { loader } from '../../app/routes/_calculator+/calculator';
import { sessionStorage } from '../../app/services/session.server';
import { APP_URL, createUser, useAuthTestApp } from '../setup/auth-app';

const app = useAuthTestApp('pickers');

async function signedIn(): Promise<{ cookie: string; user: User }> {
  const { user } = await createUser(app.orm);
  const session = await sessionStorage.getSession();
  session.set('userId', user.id);
  return { cookie: (await sessionStorage.commitSession(session)).split(';')[0], user };
}

async function printer(user: User, values: Partial<Printer>) {
  const em = app.em();
  const entity = em.create(Printer, { user: em.getReference(User, user.id), name: 'Drucker', wattage: 200, cost: 300, lifetimeHours: 3000, ...values });
  await em.flush();
  return entity;
}

type LoaderData = Exclude<Awaited<ReturnType<typeof loader>>, Response>;

async function load(query: string, cookie: string | null): Promise<{ redirect: string } | { data: LoaderData }> {
  const headers = new Headers({ 'x-druckpreis-client-ip': '127.0.0.1' });
  if (cookie) headers.set('Cookie', cookie);
  try {
    const data = await loader({ request: new Request(`${APP_URL}/calculator?${query}`, { headers }), params: {}, context: {} });
    return { data: data as LoaderData };
  } catch (error) {
    if (error instanceof Response && error.status === 302) return { redirect: error.headers.get('Location')! };
    throw error;
  }
}

describe('calculator pickers on the server', () => {
  it("lists only the user's active items, in one state for all five pickers", async () => {
    const { cookie, user } = await signedIn();
    const other = await signedIn();
    const active = await printer(user, { name: 'Aktiv' });
    await printer(user, { name: 'Ruhend', isActive: 0 });
    await printer(other.user, { name: 'Fremd' });
    const result = await load('', cookie);
    if (!('data' in result)) throw new Error('expected data');
    expect(result.data.pickers?.items.printer.map((item) => item.name)).toEqual(['Aktiv']);
    expect(result.data.pickers?.items.printer[0]).toEqual({ id: active.id, name: 'Aktiv', wattage: 200, cost: 300, lifetimeHours: 3000, electricityRate: 0.32 });
    expect(Object.keys(result.data.pickers!.items).sort()).toEqual(['filament', 'marketplace', 'packaging', 'printer', 'shipping']);
  });

  it('applies a printer without JavaScript: a redirect to the address with its values, the other inputs kept', async () => {
    const { cookie, user } = await signedIn();
    const item = await printer(user, { name: 'Bambu', wattage: 120, cost: 799.5, lifetimeHours: 5000, electricityRate: 0.4 });
    const result = await load(`quantity=3&hourlyRate=20&selectedPrinter=${item.id}&apply=printer`, cookie);
    if (!('redirect' in result)) throw new Error('expected a redirect');
    const params = new URL(result.redirect, APP_URL).searchParams;
    expect(params.get('printerWattage')).toBe('120');
    // Money as the pages write it, with two decimals (issue 24 §1), in the form the parser reads.
    expect(params.get('printerCost')).toBe('799,50');
    expect(params.get('printerLifetimeHours')).toBe('5000');
    expect(params.get('electricityRate')).toBe('0,40');
    expect(params.get('quantity')).toBe('3');
    expect(params.get('hourlyRate')).toBe('20');
    expect(params.get('selectedPrinter')).toBe(item.id);
    expect(params.get('apply')).toBeNull();

    // The address it leads to renders those values, their results and the info box.
    const page = await load(result.redirect.split('?')[1], cookie);
    if (!('data' in page)) throw new Error('expected data');
    expect(page.data.values.printerWattage).toBe('120');
    expect(page.data.evaluation.status).toBe('ok');
    expect(page.data.pickers?.selected.printer).toBe(item.id);
    expect(page.data.pickers?.applied).toEqual([
      {
        picker: 'printer',
        name: 'Bambu',
        values: [['printerWattage', 120], ['printerCost', 799.5], ['printerLifetimeHours', 5000], ['electricityRate', 0.4]],
      },
    ]);
  });

  it('applies a marketplace fee fraction as percent', async () => {
    const { cookie, user } = await signedIn();
    const em = app.em();
    const market = em.create(Marketplace, { user: em.getReference(User, user.id), name: 'Etsy', percentageFee: 0.105, fixedFee: 0.3 });
    await em.flush();
    const result = await load(`selectedMarketplace=${market.id}&apply=marketplace`, cookie);
    if (!('redirect' in result)) throw new Error('expected a redirect');
    const params = new URL(result.redirect, APP_URL).searchParams;
    expect(params.get('marketplaceFeePercent')).toBe('10,5');
    expect(params.get('marketplaceFeeFixed')).toBe('0,30');
  });

  it("applies nothing for another user's or an inactive item, and shows none of its values", async () => {
    const { cookie, user } = await signedIn();
    const other = await signedIn();
    const foreign = await printer(other.user, { name: 'Fremd', wattage: 777 });
    const inactive = await printer(user, { name: 'Ruhend', wattage: 555, isActive: 0 });
    for (const id of [foreign.id, inactive.id, 'kein-uuid']) {
      const result = await load(`printerWattage=210&selectedPrinter=${id}&apply=printer`, cookie);
      if (!('data' in result)) throw new Error(`no redirect expected for ${id}`);
      expect(result.data.values.printerWattage).toBe('210');
      expect(result.data.pickers?.selected.printer).toBe('');
      expect(result.data.pickers?.applied).toEqual([]);
      expect(JSON.stringify(result.data)).not.toMatch(/777|555|Fremd|Ruhend/);
    }
    // Nor does a forged "applied" marker show another user's item.
    const forged = await load(`selectedPrinter=${foreign.id}&applied=printer`, cookie);
    if (!('data' in forged)) throw new Error('expected data');
    expect(forged.data.pickers?.applied).toEqual([]);
  });

  it('keeps the boxes of earlier pickers when another is applied without JavaScript (issue 24 §2)', async () => {
    const { cookie, user } = await signedIn();
    const bambu = await printer(user, { name: 'Bambu', wattage: 120, cost: 1299.5, lifetimeHours: 6000, electricityRate: 0.32 });
    const em = app.em();
    const pla = em.create(Filament, { user: em.getReference(User, user.id), name: 'PLA Schwarz', material: 'PLA', pricePerKg: 27.9 });
    await em.flush();
    // The form after the printer's 'Übernehmen' carries applied=printer (a hidden input beside its box).
    const first = await load(`selectedPrinter=${bambu.id}&apply=printer`, cookie);
    if (!('redirect' in first)) throw new Error('expected a redirect');
    expect(new URL(first.redirect, APP_URL).searchParams.get('applied')).toBe('printer');
    const second = await load(`selectedPrinter=${bambu.id}&selectedFilament=${pla.id}&applied=printer&apply=filament`, cookie);
    if (!('redirect' in second)) throw new Error('expected a redirect');
    expect(new URL(second.redirect, APP_URL).searchParams.get('applied')).toBe('printer,filament');
    const page = await load(second.redirect.split('?')[1], cookie);
    if (!('data' in page)) throw new Error('expected data');
    expect(page.data.pickers?.applied.map((entry) => entry.picker)).toEqual(['printer', 'filament']);
    expect(page.data.values.filamentPricePerKg).toBe('27,90');
    // A picker set back to 'Manuell eingeben' loses its box.
    const manual = await load(`selectedFilament=${pla.id}&applied=printer&apply=filament`, cookie);
    if (!('redirect' in manual)) throw new Error('expected a redirect');
    expect(new URL(manual.redirect, APP_URL).searchParams.get('applied')).toBe('filament');
  });

  it('visitors get no pickers and apply nothing', async () => {
    const result = await load('selectedPrinter=x&apply=printer', null);
    if (!('data' in result)) throw new Error('expected data');
    expect(result.data.pickers).toBeNull();
  });
});
