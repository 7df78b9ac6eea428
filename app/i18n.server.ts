import { createInstance, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { RemixI18Next } from 'remix-i18next/server';
import { i18nConfig } from './i18n';

// All locale files are bundled into the server build; the browser only gets
// the namespaces the current page uses (inlined by root.tsx).
const files = import.meta.glob<{ default: Record<string, unknown> }>('../public/locales/*/*.json', { eager: true });

export const resources: Resource = {};
for (const [file, module] of Object.entries(files)) {
  const [, lng, ns] = file.match(/locales\/([^/]+)\/([^/]+)\.json$/)!;
  (resources[lng] ??= {})[ns] = module.default;
}

export const remixI18n = new RemixI18Next({
  detection: { supportedLanguages: [...i18nConfig.supportedLngs], fallbackLanguage: i18nConfig.fallbackLng },
  i18next: { ...i18nConfig, resources },
});

/** A fresh i18next instance per request (no shared mutable state between requests). */
export async function createRequestI18n(namespaces: string[]) {
  const instance = createInstance();
  await instance.use(initReactI18next).init({ ...i18nConfig, ns: namespaces, resources });
  return instance;
}

/** A German `t` for loaders and actions (meta titles, toasts, mails). */
export function getServerT(namespaces: string | string[] = 'common') {
  return remixI18n.getFixedT('de', namespaces as never);
}
