import { DEFERRED_SCRIPTS_ID } from '../lib/deferred-scripts';

/**
 * Scripts requested after the first paint (issue 25).
 *
 * On a slow phone the first paint needs the document and the stylesheet; the
 * ~95 kB of scripts that hydrate the page are needed only after it. Chromium
 * fetches them as soon as its preload scanner sees Remix's `modulepreload`
 * links, though, and Lighthouse's simulation of a slow phone counts every
 * request that finished before the (unthrottled) run's largest paint as
 * needed for it: so the simulated largest paint was the time to download all
 * of them (1.8 s instead of 0.8 s).
 *
 * The root renders Remix's `<Scripts>` (and the page's other script and
 * translation preloads) inside a `<noscript>`: with scripts on, the browser
 * reads a noscript's content as text, so nothing in it is fetched or run;
 * without scripts it is what it always was (nothing runs). React never
 * hydrates a noscript's content. The small inline script `startDeferredScripts`
 * then waits for the first contentful paint and adds the same elements to the
 * body, in order, as real elements: Remix's context script, its module script
 * with the route modules and the client entry, the preloads.
 *
 * One piece of Remix runs before that: with single fetch, Remix streams the
 * page's loader data after the document as inline scripts that call
 * `window.__remixContext.streamController.enqueue(…)`, which Remix's context
 * script (now deferred) creates. Until it runs, a queue stands in for the
 * controller and is handed over to the real one right after. This is Remix
 * 2.17's hand-off (pinned); `tests/e2e/deferred-scripts.spec.ts` fails if it
 * changes, and the page then stays as the server rendered it, which works
 * without scripts.
 */

/** Past this, the scripts start even without a paint (a tab opened in the background never paints). */
const FALLBACK_MS = 4000;

type StreamController = { enqueue(chunk: unknown): void; close(): void };
type RemixWindow = Window & { __remixContext?: { streamController?: StreamController } };

/**
 * Runs inline, right after the noscript, as `(${startDeferredScripts})(id, ms)`:
 * plain browser code with no imports, since it is written into the page as
 * text (and kept short: it is part of every document's first round trip).
 */
export function startDeferredScripts(id: string, fallbackMs: number) {
  // Its own element through Document's getter, and the noscript right before it: named elements
  // (`<img name="currentScript">`, an earlier element with the same id) can shadow `document.x`
  // and `getElementById`, and whatever the holder holds runs with the page's nonce.
  const self = Object.getOwnPropertyDescriptor(Document.prototype, 'currentScript')?.get?.call(document) as HTMLScriptElement | null;
  const before = self?.previousElementSibling;
  const holder = before?.localName === 'noscript' && before.id === id ? before : null;
  const nonce = self?.nonce ?? '';
  const win = window as RemixWindow;
  const queued: Array<[keyof StreamController, unknown?]> = [];
  const standIn = { streamController: { enqueue: (chunk: unknown) => void queued.push(['enqueue', chunk]), close: () => void queued.push(['close']) } };
  win.__remixContext = standIn;
  let started = false;
  function start() {
    if (started || !holder) return;
    started = true;
    const template = document.createElement('template');
    template.innerHTML = holder.textContent ?? '';
    add(Array.from(template.content.children));
  }
  // In order; after each script the rest waits for a task of its own, so a slow phone never
  // runs Remix's context script, its module script and the preloads in one long task.
  function add(elements: Element[]) {
    for (const [index, element] of elements.entries()) {
      // A copy made here runs when added; one parsed by innerHTML never would.
      const copy = document.createElement(element.localName);
      for (const { name, value } of Array.from(element.attributes)) copy.setAttribute(name, value);
      const script = copy instanceof HTMLScriptElement;
      if (script) {
        copy.nonce = nonce;
        copy.text = element.textContent ?? '';
      }
      self!.parentNode!.append(copy);
      if (!script) continue;
      // Once Remix's context script has run, what streamed so far goes to its stream.
      const controller = win.__remixContext === standIn ? null : win.__remixContext?.streamController;
      if (controller) for (const [method, chunk] of queued.splice(0)) controller[method](chunk);
      return void setTimeout(() => add(elements.slice(index + 1)));
    }
  }
  // After the first contentful paint has been presented; a browser that cannot tell starts at once.
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length) setTimeout(start);
    }).observe({ type: 'paint', buffered: true });
  } else setTimeout(start);
  setTimeout(start, fallbackMs);
}

/** The inline script the root writes after the noscript (lib/deferred-scripts.tsx), made once; indentation dropped. */
export const deferredScriptsStarter = `(${startDeferredScripts})(${JSON.stringify(DEFERRED_SCRIPTS_ID)},${FALLBACK_MS})`.replace(/\n\s+/g, '\n');
