import { useRouteLoaderData } from '@remix-run/react';
import type { AdsView } from '~/domain/ads';
import { lazyPart } from '~/lib/lazy-part';

/**
 * An ad slot where spec §2 puts one. For free users and visitors it is always
 * rendered on the server as `data-ad-slot="<position>"` with its height fixed,
 * so an ad that fills it late moves nothing (layout shift 0); Premium users
 * get nothing, and nothing is ever printed. Before the cookie dialog is
 * answered the slot is only its reserved space; afterwards its content
 * (./ad-content: a placeholder card in test mode, else AdSense) is a chunk of
 * its own, so a visitor's first visit never downloads any ad code.
 */
export type AdPosition = 'landing' | 'calculator-left' | 'calculator-sidebar' | 'calculator-below';

// Fixed heights as classes: the CSP allows no inline style attributes.
const HEIGHT: Record<AdPosition, string> = {
  landing: 'h-[120px]',
  'calculator-left': 'h-[120px]',
  'calculator-sidebar': 'h-[250px]',
  'calculator-below': 'h-[120px]',
};

const AdContent = lazyPart(() => import('./ad-content'), '[data-ad-content]');

export function AdSlot({ position, className = '' }: { position: AdPosition; className?: string }) {
  // The root loader's decision (root.tsx `ads`); components do not import the root module.
  const ads = (useRouteLoaderData('root') as { ads?: AdsView | null } | undefined)?.ads;
  if (!ads?.show) return null;
  // A plain box, not a landmark: several slots on one page, some inside <main> and the form.
  return (
    <div data-ad-slot={position} className={`no-print overflow-hidden print:hidden ${HEIGHT[position]} ${className}`}>
      {ads.consentAnswered ? <AdContent ads={ads} /> : null}
    </div>
  );
}
