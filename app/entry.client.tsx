import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n } from 'i18next';
import { I18N_RESOURCES_ELEMENT_ID } from './i18n';
import { BrowserI18n } from './i18n.client';
import { partsBeforeHydration } from './lib/lazy-part';

/**
 * A namespace a later page needs comes from public/locales. While it loads,
 * the page that needs it suspends and the previous page stays on screen (see
 * i18n.client.ts), so a failed fetch must not leave the visitor stuck: after
 * a few tries the document is loaded from the server instead, which renders
 * with every namespace.
 */
async function fetchNamespace(language: string, namespace: string) {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    try {
      const response = await fetch(`/locales/${language}/${namespace}.json`);
      if (response.ok) return (await response.json()) as Record<string, unknown>;
    } catch {
      // Offline or a dropped connection: try again.
    }
  }
  window.location.reload();
  return new Promise<Record<string, unknown>>(() => {});
}

// The server inlined exactly the namespaces this page rendered with, so the
// first paint hydrates without another request; later pages fetch theirs.
const element = document.getElementById(I18N_RESOURCES_ELEMENT_ID);
const resources = element ? JSON.parse(element.textContent || '{}') : {};
// BrowserI18n implements the part of i18next's instance react-i18next uses (see i18n.client.ts).
const browserI18n = new BrowserI18n(resources, fetchNamespace) as unknown as i18n;

// The route modules have run (they are imported before this entry); the parts they found in the markup load first.
void partsBeforeHydration().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={browserI18n}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  }),
);
