import { useRouteLoaderData } from '@remix-run/react';
import type { AdsView } from '~/domain/ads';
import { lazyPart } from '~/lib/lazy-part';

/**
 * An ad slot where spec §2 puts one. For free users and visitors it is always
 * rendered on the server as `data-ad-slot="<position>"`, its height fixed, so
 * an ad that fills it late moves nothing (layout shift 0); Premium users get
 * nothing, and nothing is ever printed. Before the cookie dialog is answered
 * the slot is only its reserved space; afterwards its content (./ad-content: a
 * placeholder card in test mode, else AdSense) is a chunk of its own.
 *
 * This file is part of the first visit's JavaScript of every page with a slot
 * (issue 21: the first visit must not grow), so it holds no more than the
 * empty box and the lazy import: the heights, margins and the print rule are
 * CSS keyed on `data-ad-slot` (app/styles/app.css), and everything else lives
 * in ./ad-content. tests/unit/first-visit-js.test.ts holds it to its size.
 */
export type AdPosition = 'landing' | 'calculator-left' | 'calculator-sidebar' | 'calculator-below';

const AdContent = lazyPart(() => import('./ad-content'), '[data-ad-content]');

export function AdSlot({ position }: { position: AdPosition }) {
  // The root loader's decision (root.tsx `ads`); components do not import the root module.
  const ads = (useRouteLoaderData('root') as { ads?: AdsView | null } | undefined)?.ads;
  // A plain box, not a landmark: several slots on one page, some inside <main> and the form.
  return ads?.show ? <div data-ad-slot={position}>{ads.consentAnswered && <AdContent ads={ads} />}</div> : null;
}
