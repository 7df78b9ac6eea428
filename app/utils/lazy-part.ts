import { lazy, type ComponentType } from 'react';

/**
 * A part of a page that only some pages or users show (the signed-in parts of
 * the calculator, the header's user menu, a slicer import's result): a chunk
 * of its own, so a first visit that does not show it never downloads it.
 *
 * Render it without a Suspense boundary around it, on purpose:
 * - on the server the stream waits for it (it is part of the shell), so the
 *   page is complete without scripts;
 * - in the browser, hydration (entry.client.tsx) and Remix's navigations run
 *   in transitions, which wait for the chunk while the server's markup or the
 *   previous page stays on screen: no fallback, no hydration mismatch. A part
 *   that appears after a state update must be shown inside startTransition.
 *
 * When the server's markup already contains the part (`rendered`, a CSS
 * selector), the chunk is fetched as soon as this module runs, which is before
 * hydration starts, instead of when hydration reaches the part.
 */
export function lazyPart<Props>(load: () => Promise<{ default: ComponentType<Props> }>, rendered: string) {
  if (typeof document !== 'undefined' && document.querySelector(rendered)) void load();
  return Object.assign(lazy(load), { preload: load });
}
