/**
 * The translation instance the browser hands to react-i18next.
 *
 * Why not i18next itself: i18next's core is 14 kB of gzipped JavaScript, an
 * eighth of the whole first-visit budget for /calculator (110 kB), and the
 * browser needs only a small part of it: one language, namespaces inlined by
 * the server (or fetched later from public/locales), `{{value}}`
 * interpolation, `count` plurals, `returnObjects`, `defaultValue` and
 * `ns:key` prefixes. This implements exactly the part of i18next's instance
 * that react-i18next 15 calls (`getFixedT`, `hasLoadedNamespace`,
 * `loadNamespaces`, `changeLanguage`, `on`/`off`, `options`, `store`), with
 * i18next's lookup rules. The server keeps the real i18next; a unit test
 * translates every key of every namespace with both and requires the same
 * text, so a hydrated page always shows what the server rendered.
 */
import { i18nConfig } from './i18n';

type Bundle = Record<string, unknown>;
type Resources = Record<string, Record<string, Bundle>>;
type Options = {
  lng?: string;
  ns?: string | string[];
  keyPrefix?: string;
  defaultValue?: unknown;
  count?: number;
  returnObjects?: boolean;
  [value: string]: unknown;
};
type Listener = (...args: unknown[]) => void;
type Loader = (language: string, namespace: string) => Promise<Bundle>;

const NS_SEPARATOR = ':';
const KEY_SEPARATOR = '.';
const INTERPOLATION = /{{\s*(.+?)\s*}}/g;

class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  on(events: string, listener: Listener) {
    for (const event of events.split(' ')) {
      if (!this.listeners.has(event)) this.listeners.set(event, new Set());
      this.listeners.get(event)!.add(listener);
    }
    return this;
  }
  off(event: string, listener?: Listener) {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

export class BrowserI18n extends Emitter {
  /*
   * `useSuspense` is on in the browser (the server has every namespace and
   * never waits). A component whose namespace is not loaded yet suspends
   * instead of rendering raw keys, and since Remix commits every navigation
   * inside `startTransition`, React keeps showing the previous page until the
   * namespace has arrived. So a route's texts are there before it renders on
   * any client navigation, for every route, present or future, whatever its
   * `handle.i18n` says.
   */
  readonly options = { ...i18nConfig, ns: [...i18nConfig.ns] as string[], react: { ...i18nConfig.react, useSuspense: true } };
  readonly store = new Emitter();
  readonly isInitialized = true;
  language: string = i18nConfig.lng;
  languages: string[] = [i18nConfig.lng];
  private pending = new Map<string, Promise<void>>();
  private plurals = new Map<string, Intl.PluralRules>();

  constructor(
    private resources: Resources,
    private load: Loader,
  ) {
    super();
  }

  getResourceBundle(lng: string, ns: string): Bundle | undefined {
    return this.resources[lng]?.[ns];
  }

  addResourceBundle(lng: string, ns: string, bundle: Bundle) {
    (this.resources[lng] ??= {})[ns] = bundle;
    this.store.emit('added', lng, ns);
  }

  hasLoadedNamespace(ns: string, options: { lng?: string } = {}) {
    return Boolean(this.getResourceBundle(options.lng ?? this.language, ns));
  }

  /** Fetches the namespaces not loaded yet; a failed fetch leaves keys showing, as i18next does. */
  loadNamespaces(ns: string | string[], callback?: (error?: unknown) => void) {
    const lng = this.language;
    const missing = [ns].flat().filter((name) => !this.hasLoadedNamespace(name));
    const loads = missing.map((name) => {
      const id = `${lng}|${name}`;
      if (!this.pending.has(id)) {
        this.pending.set(
          id,
          this.load(lng, name).then(
            (bundle) => {
              this.addResourceBundle(lng, name, bundle);
              this.emit('loaded', { [lng]: [name] });
            },
            (error) => {
              this.pending.delete(id);
              throw error;
            },
          ),
        );
      }
      return this.pending.get(id)!;
    });
    return Promise.all(loads).then(
      () => callback?.(),
      (error) => callback?.(error),
    );
  }

  changeLanguage(lng: string | undefined, callback?: () => void) {
    if (lng && lng !== this.language) {
      this.language = lng;
      this.languages = [lng, i18nConfig.fallbackLng].filter((value, index, all) => all.indexOf(value) === index);
      this.emit('languageChanged', lng);
    }
    callback?.();
    return Promise.resolve(this.getFixedT(null, null));
  }

  getFixedT(lng: string | null, ns?: string | readonly string[] | null, keyPrefix?: string) {
    return (key: string | string[], options?: Options | string) => {
      const opts: Options = typeof options === 'string' ? { defaultValue: options } : { ...options };
      return this.t(key, { lng: lng ?? undefined, ns: (ns as string[] | undefined) ?? undefined, keyPrefix, ...opts });
    };
  }

  /** i18next's `t`: the first key that resolves in the first namespace that has it. */
  t(keys: string | string[], options: Options = {}): unknown {
    const lng = options.lng ?? this.language;
    const candidates = [keys].flat();
    for (const candidate of candidates) {
      const found = this.resolve(candidate, lng, options);
      if (found !== undefined) return found;
    }
    const last = candidates[candidates.length - 1];
    if (options.defaultValue !== undefined) {
      return typeof options.defaultValue === 'string' ? interpolate(options.defaultValue, options) : options.defaultValue;
    }
    return this.stripNamespace(last, options).key;
  }

  private stripNamespace(key: string, options: Options) {
    let namespaces = [options.ns ?? this.options.defaultNS].flat() as string[];
    const separatorAt = key.indexOf(NS_SEPARATOR);
    if (separatorAt > 0) {
      namespaces = [key.slice(0, separatorAt)];
      key = key.slice(separatorAt + 1);
    }
    return { key: options.keyPrefix ? `${options.keyPrefix}${KEY_SEPARATOR}${key}` : key, namespaces };
  }

  private resolve(rawKey: string, lng: string, options: Options): unknown {
    const { key, namespaces } = this.stripNamespace(rawKey, options);
    const keysToTry = typeof options.count === 'number' ? this.pluralKeys(key, lng, options.count) : [key];
    for (const ns of namespaces) {
      const bundle = this.getResourceBundle(lng, ns) ?? (lng === i18nConfig.fallbackLng ? undefined : this.getResourceBundle(i18nConfig.fallbackLng, ns));
      if (!bundle) continue;
      for (const candidate of keysToTry) {
        const value = lookup(bundle, candidate);
        if (value === undefined || value === null) continue;
        if (typeof value === 'string') return interpolate(value, options);
        if (options.returnObjects) return interpolateDeep(value, options);
        return `key '${candidate} (${lng})' returned an object instead of string.`;
      }
    }
    return undefined;
  }

  private pluralKeys(key: string, lng: string, count: number) {
    if (!this.plurals.has(lng)) this.plurals.set(lng, new Intl.PluralRules(lng));
    const suffix = this.plurals.get(lng)!.select(count);
    return count === 0 ? [`${key}_zero`, `${key}_${suffix}`, key] : [`${key}_${suffix}`, key];
  }
}

function lookup(bundle: Bundle, key: string): unknown {
  if (key in bundle) return bundle[key];
  let node: unknown = bundle;
  for (const part of key.split(KEY_SEPARATOR)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * `{{name}}` and `{{a.b}}` from the options, as i18next does with
 * `escapeValue: false`: a value passed as undefined or null becomes empty, a
 * value not passed at all leaves the placeholder standing.
 */
function interpolate(text: string, options: Options) {
  return text.replace(INTERPOLATION, (placeholder, path: string) => {
    const value = lookup(options as Bundle, path);
    if (value === undefined) return Object.prototype.hasOwnProperty.call(options, path) ? '' : placeholder;
    return value === null ? '' : String(value);
  });
}

function interpolateDeep(value: unknown, options: Options): unknown {
  if (typeof value === 'string') return interpolate(value, options);
  if (Array.isArray(value)) return value.map((item) => interpolateDeep(item, options));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, interpolateDeep(item, options)]));
  }
  return value;
}
