import { RemixBrowser } from '@remix-run/react';
import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { I18N_RESOURCES_ELEMENT_ID, i18nConfig } from './i18n';

async function hydrate() {
  // The server inlined exactly the namespaces this page rendered with, so the
  // first paint hydrates without another request; later pages fetch theirs.
  const element = document.getElementById(I18N_RESOURCES_ELEMENT_ID);
  const resources = element ? JSON.parse(element.textContent || '{}') : {};
  await i18next
    .use(initReactI18next)
    .use(HttpBackend)
    .init({
      ...i18nConfig,
      ns: Object.keys(resources.de ?? {}),
      resources,
      partialBundledLanguages: true,
      backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' },
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
