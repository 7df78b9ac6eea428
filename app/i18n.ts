/** i18next options shared by server and browser. German is the only (and complete) language. */
export const i18nConfig = {
  supportedLngs: ['de'],
  fallbackLng: 'de',
  lng: 'de',
  defaultNS: 'common',
  ns: ['common'],
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
} as const;

export const I18N_RESOURCES_ELEMENT_ID = 'i18n-resources';

/**
 * A short content hash of a namespace's texts (FNV-1a over its JSON), so the
 * address a page names for it changes whenever its texts do and the browser may
 * keep it for good (issue 25: translations are fetched, not inlined in the page).
 */
export function bundleVersion(bundle: unknown): string {
  const text = JSON.stringify(bundle);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** Where the browser fetches a namespace: the file in public/locales, with its version. */
export function namespaceUrl(lng: string, ns: string, version?: string): string {
  return `/locales/${lng}/${ns}.json${version ? `?v=${version}` : ''}`;
}

/** What the document names in its `#i18n-resources` element: for each language, each namespace's address. */
export type NamespaceUrls = Record<string, Record<string, string>>;

/** The `#i18n-resources` element's text as namespace addresses; anything else (a page from before, a broken one) names none. */
export function parseNamespaceUrls(text: string | null | undefined): NamespaceUrls {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    const urls: NamespaceUrls = {};
    if (!parsed || typeof parsed !== 'object') return urls;
    for (const [lng, namespaces] of Object.entries(parsed)) {
      if (!namespaces || typeof namespaces !== 'object') continue;
      for (const [ns, url] of Object.entries(namespaces)) if (typeof url === 'string') (urls[lng] ??= {})[ns] = url;
    }
    return urls;
  } catch {
    return {};
  }
}
