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
