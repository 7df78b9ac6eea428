import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { BrowserI18n } from '~/i18n.client';
import { getServerI18n } from '~/i18n.server';

/*
 * The browser translates with BrowserI18n, the server with i18next. A page
 * hydrates cleanly only if both give the same text for every key, so this
 * walks every key of every namespace and asks both.
 */
const LOCALES = 'public/locales/de';
const namespaces = readdirSync(LOCALES).map((file) => file.replace(/\.json$/, ''));
const bundles = Object.fromEntries(
  namespaces.map((ns) => [ns, JSON.parse(readFileSync(`${LOCALES}/${ns}.json`, 'utf8')) as Record<string, unknown>]),
);

function browser(loaded: string[] = namespaces, load = vi.fn(async (_lng: string, ns: string) => bundles[ns])) {
  const resources = { de: Object.fromEntries(loaded.map((ns) => [ns, bundles[ns]])) };
  return { i18n: new BrowserI18n(resources, load), load };
}

/** Every key path with its value: leaves and the objects above them. */
function* keysOf(node: unknown, prefix = ''): Generator<[string, unknown]> {
  if (node === null || typeof node !== 'object') return;
  for (const [name, value] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${name}` : name;
    yield [key, value];
    yield* keysOf(value, key);
  }
}

const variablesIn = (value: unknown) => [...JSON.stringify(value).matchAll(/{{\s*(.+?)\s*}}/g)].map((match) => match[1]);

describe('BrowserI18n gives the text i18next gives', () => {
  const server = getServerI18n();
  const { i18n } = browser();

  for (const ns of namespaces) {
    it(`every key of ${ns}`, () => {
      const serverT = server.getFixedT('de', ns);
      const browserT = i18n.getFixedT('de', ns);
      let compared = 0;
      for (const [key, value] of keysOf(bundles[ns])) {
        const values = Object.fromEntries(variablesIn(value).map((name, index) => [name, `wert${index}`]));
        const optionSets: Record<string, unknown>[] =
          typeof value === 'string'
            ? [{}, values, { ...values, count: 1 }, { ...values, count: 7 }, { ...values, count: 0 }]
            : [{ returnObjects: true }, { ...values, returnObjects: true }];
        for (const options of optionSets) {
          expect(browserT(key, options), `${ns}:${key} ${JSON.stringify(options)}`).toEqual(serverT(key, options));
          compared++;
        }
        // The same key reached from another namespace through its `ns:` prefix.
        expect(i18n.getFixedT('de', 'common')(`${ns}:${key}`, values)).toEqual(server.getFixedT('de', 'common')(`${ns}:${key}`, values));
      }
      expect(compared).toBeGreaterThan(0);
    });
  }

  it('missing keys, default values and namespace lists', () => {
    const cases: [string | string[], string, Record<string, unknown> | string | undefined][] = [
      ['common', 'gibt.es.nicht', undefined],
      ['common', 'auth:gibt.es.nicht', undefined],
      ['calculator', 'fields.projectName.unit', { defaultValue: '' }],
      ['calculator', 'gibt.es.nicht', 'Standardtext'],
      ['calculator', 'gibt.es.nicht', { defaultValue: 'Hallo {{name}}', name: 'Welt' }],
      [['account', 'auth'], 'messages.rateLimited', { count: 47 }],
      [['auth', 'account'], 'messages.rateLimited', { count: 1 }],
    ];
    for (const [ns, key, options] of cases) {
      const serverT = server.getFixedT('de', ns) as (key: string, options?: unknown) => unknown;
      expect(i18n.getFixedT('de', ns)(key, options as never), `${ns} ${key}`).toEqual(serverT(key, options));
    }
  });

  it('interpolation edge cases', () => {
    server.addResourceBundle('de', 'probe', { text: 'A {{a}} B {{ b }} C {{c.d}}' });
    const { i18n: probe } = browser();
    probe.addResourceBundle('de', 'probe', { text: 'A {{a}} B {{ b }} C {{c.d}}' });
    for (const options of [{}, { a: 1 }, { a: null, b: undefined }, { a: 0, b: false, c: { d: 'tief' } }]) {
      expect(probe.getFixedT('de', 'probe')('text', options)).toEqual(server.getFixedT('de', 'probe')('text', options));
    }
  });
});

describe('BrowserI18n loading namespaces', () => {
  it('fetches a namespace once, then translates it and tells listeners', async () => {
    const { i18n, load } = browser(['common']);
    const loaded = vi.fn();
    i18n.on('loaded', loaded);
    expect(i18n.hasLoadedNamespace('legal')).toBe(false);
    expect(i18n.getFixedT('de', 'legal')('privacy.title')).toBe('privacy.title');

    const callback = vi.fn();
    await Promise.all([i18n.loadNamespaces(['legal', 'common'], callback), i18n.loadNamespaces('legal')]);

    expect(load).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledWith('de', 'legal');
    expect(callback).toHaveBeenCalledWith();
    expect(loaded).toHaveBeenCalledTimes(1);
    expect(i18n.hasLoadedNamespace('legal')).toBe(true);
    expect(i18n.getFixedT('de', 'legal')('privacy.title')).toBe(getServerI18n().getFixedT('de', 'legal')('privacy.title'));
  });

  it('reports a failed fetch and tries again next time', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(bundles.auth);
    const { i18n } = browser(['common'], load);
    const callback = vi.fn();
    await i18n.loadNamespaces('auth', callback);
    expect(callback.mock.calls[0][0]).toBeInstanceOf(Error);
    expect(i18n.hasLoadedNamespace('auth')).toBe(false);

    await i18n.loadNamespaces('auth');
    expect(load).toHaveBeenCalledTimes(2);
    expect(i18n.hasLoadedNamespace('auth')).toBe(true);
  });

  it('announces a language change to react-i18next', async () => {
    const { i18n } = browser();
    const changed = vi.fn();
    i18n.on('languageChanged', changed);
    await i18n.changeLanguage('de');
    expect(changed).not.toHaveBeenCalled();
    await i18n.changeLanguage('en');
    expect(changed).toHaveBeenCalledWith('en');
    expect(i18n.languages).toEqual(['en', 'de']);
  });
});
