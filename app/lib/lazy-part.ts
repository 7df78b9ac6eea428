import { lazy, type ComponentType } from 'react';

type PartModule<Props> = { default: ComponentType<Props> };

/** The parts the server's markup contains, loading (entry.client.tsx hydrates once they are here). */
const neededForHydration: Promise<unknown>[] = [];

/**
 * A part of a page that only some pages or users show (the signed-in parts of
 * the calculator, the header's user menu): a chunk of its own, so a first
 * visit that does not show it never downloads it.
 *
 * - When the server's markup contains the part (`rendered`, a CSS selector),
 *   the browser hydrates only once its chunk is here (`partsBeforeHydration`):
 *   the part then renders at once, so hydration never suspends. (Suspending
 *   there made React 18 report hydration mismatches.) The page's loader names
 *   the chunk for a modulepreload link (server/part-preloads.server.ts), so it
 *   arrives with the page's other scripts; this module asks for it too, as
 *   soon as it runs.
 * - Elsewhere it renders through React.lazy without a Suspense boundary, on
 *   purpose: on the server the stream waits for it (it is part of the shell,
 *   so the page is complete without scripts), and Remix's client-side
 *   navigations run in transitions, which keep the previous page on screen
 *   until the chunk is here.
 */
export function lazyPart<Props>(load: () => Promise<PartModule<Props>>, rendered: string) {
  let loaded: PartModule<Props> | undefined;
  const preload = () => load().then((module) => (loaded = module));
  // A thenable that answers at once lets React.lazy render a loaded module without suspending.
  const Part = lazy(() => (loaded ? ({ then: (resolve: (module: PartModule<Props>) => void) => resolve(loaded!) } as Promise<PartModule<Props>>) : preload()));
  if (typeof document !== 'undefined' && document.querySelector(rendered)) neededForHydration.push(preload());
  return Part;
}

/** Resolves once every part the server's markup contains is loaded (or failed to load: hydration goes ahead). */
export function partsBeforeHydration(): Promise<unknown> {
  return Promise.allSettled(neededForHydration);
}
