import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode, useLayoutEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { i18n } from 'i18next';
import { I18N_RESOURCES_ELEMENT_ID, namespaceUrl, parseNamespaceUrls } from './i18n';
import { BrowserI18n } from './i18n.client';
import { partsBeforeHydration } from './lib/lazy-part';
import { formatEuro } from './lib/number';

/** A namespace file, tried three times (offline, a dropped connection); null when it could not be had. */
async function fetchBundle(url: string): Promise<Record<string, unknown> | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    try {
      const response = await fetch(url);
      if (response.ok) return (await response.json()) as Record<string, unknown>;
    } catch {
      // Offline or a dropped connection: try again.
    }
  }
  return null;
}

/**
 * A namespace a later page needs comes from public/locales. While it loads,
 * the page that needs it suspends and the previous page stays on screen (see
 * i18n.client.ts), so a failed fetch must not leave the visitor stuck: after
 * a few tries the document is loaded from the server instead, which renders
 * with every namespace.
 */
async function fetchNamespace(language: string, namespace: string) {
  const bundle = await fetchBundle(namespaceUrl(language, namespace));
  if (bundle) return bundle;
  window.location.reload();
  return new Promise<Record<string, unknown>>(() => {});
}

// BrowserI18n implements the part of i18next's instance react-i18next uses (see i18n.client.ts).
const browserI18n = new BrowserI18n({}, fetchNamespace) as unknown as i18n;

/**
 * The namespaces this page rendered with, from the addresses the server named
 * (and preloaded) in the document: hydrating with the same texts is what makes
 * the markup match. Not inlined in the page, so they cost the first paint nothing.
 */
async function pageTranslations(): Promise<boolean> {
  const urls = parseNamespaceUrls(document.getElementById(I18N_RESOURCES_ELEMENT_ID)?.textContent);
  const loads = Object.entries(urls).flatMap(([lng, namespaces]) =>
    Object.entries(namespaces).map(async ([ns, url]) => {
      const bundle = await fetchBundle(url);
      if (bundle) browserI18n.addResourceBundle(lng, ns, bundle);
      return Boolean(bundle);
    }),
  );
  return (await Promise.all(loads)).every(Boolean);
}

/**
 * React 18 answers a click or keystroke on a page it is still hydrating by
 * hydrating at once, synchronously. Remix's `RemixBrowser` suspends on its
 * first render until the page's streamed data is decoded, and a synchronous
 * render that suspends at the root fails for good (React error #345): the page
 * stayed without scripts for the rest of the visit. Typing into the calculator
 * while a slow phone hydrated did it (issue 25 moved hydration after the first
 * paint, which made the window easy to hit). So until hydration has committed
 * these events do not reach React: the browser still does what it does without
 * scripts (typed text stays in the field, a link or a form goes to the server),
 * and the calculator catches up with what was typed once it is hydrated.
 * The list is the events React hydrates synchronously for.
 */
const EVENTS_HELD_DURING_HYDRATION = [
  ...['auxclick', 'click', 'contextmenu', 'dblclick', 'mousedown', 'mouseup', 'pointercancel', 'pointerdown', 'pointerup'],
  ...['touchcancel', 'touchend', 'touchstart', 'dragend', 'dragstart', 'drop'],
  ...['compositionend', 'compositionstart', 'keydown', 'keypress', 'keyup', 'input', 'textInput', 'change'],
  ...['copy', 'cut', 'paste', 'reset', 'submit'],
];

function holdEventsUntilHydrated(): () => void {
  const hold = (event: Event) => event.stopImmediatePropagation();
  for (const type of EVENTS_HELD_DURING_HYDRATION) window.addEventListener(type, hold, true);
  return () => {
    for (const type of EVENTS_HELD_DURING_HYDRATION) window.removeEventListener(type, hold, true);
  };
}

/**
 * Runs once the whole document has hydrated: a layout effect, so before any component's own
 * effects (the calculator's catch-up with typed values sends an input event). A wrapper, not a
 * sibling of RemixBrowser: a second child at the root would change every useId on the client,
 * and the ids the server wrote (labels' `for`, dialogs' `aria-labelledby`) would stop matching.
 */
function WhenHydrated({ run, children }: { run: () => void; children: React.ReactNode }) {
  useLayoutEffect(run, [run]);
  return children;
}

// The browser's German locale data, loaded by the first number format (~11 ms here, ~45 ms on a
// slow phone), in a task of its own while the translations arrive: not inside the scripts'
// evaluation or hydration's work, where it made a long task (issue 25, lib/number.ts).
setTimeout(() => formatEuro(0));

// The route modules have run (they are imported before this entry); the parts they found in the markup load first.
void Promise.all([pageTranslations(), partsBeforeHydration()]).then(([translated]) => {
  // Without its texts the page would hydrate into raw keys: it stays as the server rendered it, which works without scripts.
  if (!translated) return;
  const releaseHeldEvents = holdEventsUntilHydrated();
  const hydrated = () => {
    releaseHeldEvents();
    // Says "scripted now" to whoever watches (the end-to-end tests wait for it after loading a page).
    document.documentElement.dataset.hydrated = 'true';
  };
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={browserI18n}>
        <StrictMode>
          <WhenHydrated run={hydrated}>
            <RemixBrowser />
          </WhenHydrated>
        </StrictMode>
      </I18nextProvider>,
    );
  });
});
