import { describe, expect, it } from 'vitest';
import { CalculatorDefaults, Printer } from '../../app/entities';
import { action as profileAction, loader as profileLoader } from '../../app/routes/_account+/profile';
import { loader as calculatorLoader } from '../../app/routes/_calculator+/calculator';
import { loader as exportLoader } from '../../app/routes/api+/profile.export';
import { action as createLibraryItem } from '../../app/routes/api+/printers';
import { action as createMarketplace } from '../../app/routes/api+/marketplaces';
import { apiRequest, call, randomIp, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';

/** Issue 24 §4 'Meine Standardwerte': stored per user, edited on /profile, the start of a new calculation, exported. */

const app = useAuthTestApp('calc_defaults');

type Reply = { data: { intent: string; result: { error: Record<string, string[]> } }; init: { status: number } };
const run = (handler: unknown, request: Request) =>
  (handler as (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>)({ request, params: {}, context: {} }).catch(
    (error: unknown) => error,
  );
const formPost = (fields: Record<string, string>, cookie: string) =>
  new Request('http://localhost:3000/profile', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'x-druckpreis-client-ip': randomIp(), Origin: 'http://localhost:3000', Cookie: cookie },
    body: new URLSearchParams({ intent: 'saveCalculatorDefaults', ...fields }),
  });
const calculatorPage = async (cookie: string | null, query = '') =>
  (await run(calculatorLoader, apiRequest(`/calculator${query}`, 'GET', undefined, { cookie }))) as {
    values: Record<string, string>;
    pickers: { selected: Record<string, string> } | null;
  };

async function libraryItem(handler: unknown, cookie: string, path: string, data: Record<string, unknown>) {
  const response = await call(handler as Handler, apiRequest(path, 'POST', data, { cookie }));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe('Meine Standardwerte', () => {
  it('saves German numbers and the user’s own library items, and a new calculation starts from them', async () => {
    const seller = await signedInUser(app.orm);
    const printer = await libraryItem(createLibraryItem, seller.cookie, '/api/printers', { name: 'Prusa MK4', wattage: 120, cost: 799, lifetimeHours: 5000, electricityRate: 0.35 });
    const marketplace = await libraryItem(createMarketplace, seller.cookie, '/api/marketplaces', { name: 'Etsy', percentageFee: 0.065, fixedFee: 0.2 });

    const saved = (await run(profileAction, formPost({ hourlyRate: '22,50', profitMargin: '35', vatPercent: '7', failureRate: '4,5', defaultPrinter: printer, defaultMarketplace: marketplace }, seller.cookie))) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe('/profile#standardwerte');
    const row = await app.em().findOneOrFail(CalculatorDefaults, { user: seller.user.id });
    expect([row.hourlyRate, row.profitMargin, row.vatPercent, row.failureRate, row.smallBusiness]).toEqual([22.5, 35, 7, 4.5, false]);

    // The profile form shows them again, German style.
    const profile = (await run(profileLoader, apiRequest('/profile', 'GET', undefined, { cookie: seller.cookie }))) as { calculatorDefaults: Record<string, string>; defaultItems: Record<string, Array<{ name: string }>> };
    expect(profile.calculatorDefaults).toMatchObject({ hourlyRate: '22,50', failureRate: '4,5', defaultPrinter: printer, defaultMarketplace: marketplace, defaultFilament: '' });
    expect(profile.defaultItems.defaultPrinter.map((item) => item.name)).toEqual(['Prusa MK4']);

    // A new calculation: the seller's numbers, the printer's and marketplace's values, both chosen in their pickers.
    const fresh = await calculatorPage(seller.cookie);
    expect(fresh.values).toMatchObject({ hourlyRate: '22,50', profitMargin: '35', vatPercent: '7', failureRate: '4,5', printerWattage: '120', printerCost: '799,00', electricityRate: '0,35', marketplaceFeePercent: '6,5', marketplaceFeeFixed: '0,20' });
    expect(fresh.pickers?.selected).toMatchObject({ printer, marketplace, filament: '' });
    // The rest stays the calculator's.
    expect(fresh.values.filamentWeight).toBe('25');

    // A shared link keeps what it says; a visitor never sees anyone's defaults.
    expect((await calculatorPage(seller.cookie, '?hourlyRate=15&profitMargin=25')).values).toMatchObject({ hourlyRate: '15', vatPercent: '19', printerWattage: '200' });
    expect((await calculatorPage(null)).values).toMatchObject({ hourlyRate: '15,00', profitMargin: '25', vatPercent: '19', printerWattage: '200' });
    // Another user's calculator is untouched.
    const other = await signedInUser(app.orm);
    expect((await calculatorPage(other.cookie)).values).toMatchObject({ hourlyRate: '15,00', vatPercent: '19' });

    // A deleted default printer is forgotten (SET NULL), the rest stays.
    await app.em().nativeDelete(Printer, { id: printer });
    const after = await calculatorPage(seller.cookie);
    expect(after.values).toMatchObject({ hourlyRate: '22,50', printerWattage: '200' });
    expect(after.pickers?.selected.printer).toBe('');

    // Part of the data export.
    const exported = await (await call(exportLoader as Handler, apiRequest('/api/profile/export', 'GET', undefined, { cookie: seller.cookie }))).json();
    expect(exported.calculatorDefaults).toEqual({
      hourlyRate: 22.5, profitMargin: 35, vatPercent: 7, failureRate: 4.5, smallBusiness: false,
      defaultPrinter: null, defaultFilament: null, defaultPackaging: null, defaultShippingProvider: null, defaultMarketplace: marketplace,
    });
    expect((await (await call(exportLoader as Handler, apiRequest('/api/profile/export', 'GET', undefined, { cookie: other.cookie }))).json()).calculatorDefaults).toBeNull();
  });

  it('puts German messages next to bad fields and refuses another user’s library item; empty fields mean the calculator’s values', async () => {
    const owner = await signedInUser(app.orm);
    const foreignPrinter = await libraryItem(createLibraryItem, owner.cookie, '/api/printers', { name: 'Fremd' });
    const seller = await signedInUser(app.orm);

    const bad = (await run(profileAction, formPost({ hourlyRate: 'viel', profitMargin: '250', vatPercent: '-1', failureRate: '100', defaultPrinter: 'kaputt' }, seller.cookie))) as Reply;
    expect(bad.init.status).toBe(400);
    expect(bad.data.result.error).toMatchObject({
      hourlyRate: ['project-tools:defaults.errors.number'],
      profitMargin: ['calculator:errors.profitMarginRange'],
      vatPercent: ['calculator:errors.vatPercentRange'],
      failureRate: ['calculator:errors.failureRateRange'],
      defaultPrinter: ['project-tools:defaults.errors.item'],
    });
    const foreign = (await run(profileAction, formPost({ defaultPrinter: foreignPrinter }, seller.cookie))) as Reply;
    expect(foreign.init.status).toBe(400);
    expect(foreign.data.result.error.defaultPrinter).toEqual(['project-tools:defaults.errors.item']);
    expect(await app.em().count(CalculatorDefaults, { user: seller.user.id })).toBe(0);

    // Only § 19: everything else empty.
    expect(((await run(profileAction, formPost({ smallBusiness: 'on', hourlyRate: '' }, seller.cookie))) as Response).status).toBe(302);
    expect((await calculatorPage(seller.cookie)).values).toMatchObject({ smallBusiness: 'on', hourlyRate: '15,00', vatPercent: '19' });
  });
});
