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
 *   its chunk is fetched as soon as this module runs, and the browser
 *   hydrates only once it is here (`partsBeforeHydration`): the part then
 *   renders at once, so hydration never suspends. (Suspending there lets
 *   React 18 hydrate the document twice, and it reported mismatches.)
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
  return Object.assign(Part, { preload });
}

/** Resolves once every part the server's markup contains is loaded (or failed to load: hydration goes ahead). */
export function partsBeforeHydration(): Promise<unknown> {
  return Promise.allSettled(neededForHydration);
}
