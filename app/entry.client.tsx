import { RemixBrowser } from '@remix-run/react';
import i18next, { type BackendModule } from 'i18next';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { I18N_RESOURCES_ELEMENT_ID, i18nConfig } from './i18n';

/** Loads a namespace a later page needs from public/locales (tiny stand-in for i18next-http-backend). */
const fetchBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    fetch(`/locales/${language}/${namespace}.json`)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((data) => callback(null, data), (error) => callback(error, false));
  },
};

async function hydrate() {
  // The server inlined exactly the namespaces this page rendered with, so the
  // first paint hydrates without another request; later pages fetch theirs.
  const element = document.getElementById(I18N_RESOURCES_ELEMENT_ID);
  const resources = element ? JSON.parse(element.textContent || '{}') : {};
  await i18next
    .use(initReactI18next)
    .use(fetchBackend)
    .init({
      ...i18nConfig,
      ns: Object.keys(resources.de ?? {}),
      resources,
      partialBundledLanguages: true,
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
