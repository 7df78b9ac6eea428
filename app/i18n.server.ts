import { createInstance, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { i18nConfig } from './i18n';

// All locale files are bundled into the server build; the browser only gets
// the namespaces the current page uses (inlined by root.tsx).
const files = import.meta.glob<{ default: Record<string, unknown> }>('../public/locales/*/*.json', { eager: true });

const resources: Resource = {};
for (const [file, module] of Object.entries(files)) {
  const [, lng, ns] = file.match(/locales\/([^/]+)\/([^/]+)\.json$/)!;
  (resources[lng] ??= {})[ns] = module.default;
}

/*
 * One i18next instance for the whole process. With a single language and every
 * namespace loaded up front it holds no per-request state, and creating and
 * initialising an instance per request was the largest cost of a page render.
 * `initImmediate: false` initialises synchronously (no timer tick).
 */
const serverI18n = createInstance();
void serverI18n.use(initReactI18next).init({
  ...i18nConfig,
  ns: Object.keys(resources[i18nConfig.lng] ?? {}),
  resources,
  initImmediate: false,
});

memoizeTranslations(serverI18n);

/**
 * The resources never change while the process runs, so a plain lookup
 * (no interpolation values, no count, no returnObjects) always gives the same
 * text. i18next's general-purpose `t` costs a few microseconds per call and a
 * page makes ~200 of them; remembering the answers halves the render time.
 */
function memoizeTranslations(instance: typeof serverI18n) {
  const plainOptions = new Set(['lng', 'lngs', 'ns', 'keyPrefix', 'defaultValue']);
  const original = instance.t.bind(instance) as (key: unknown, options?: Record<string, unknown>) => unknown;
  const cache = new Map<string, unknown>();
  instance.t = ((key: unknown, options?: Record<string, unknown>) => {
    if (typeof key !== 'string' || (options && Object.keys(options).some((name) => !plainOptions.has(name)))) {
      return original(key, options);
    }
    const ns = options?.ns;
    const cacheKey = `${options?.lng ?? ''}|${Array.isArray(ns) ? ns.join(',') : (ns ?? '')}|${options?.keyPrefix ?? ''}|${key}|${options?.defaultValue ?? ''}`;
    if (cache.has(cacheKey)) return cache.get(cacheKey);
    const value = original(key, options);
    cache.set(cacheKey, value);
    return value;
  }) as typeof instance.t;
}

/** The shared instance the document is rendered with. */
export function getServerI18n() {
  return serverI18n;
}

/** A German `t` for loaders and actions (meta titles, toasts, mails). */
export async function getServerT(namespaces: string | string[] = 'common') {
  return serverI18n.getFixedT(i18nConfig.lng, namespaces);
}
