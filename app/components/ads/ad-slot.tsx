import { Link, useRouteLoaderData } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { loader as rootLoader } from '~/root';

/**
 * An ad slot where spec §2 puts one. For free users and visitors it is always
 * rendered on the server as `data-ad-slot="<position>"` with its height fixed,
 * so an ad that fills it late moves nothing (layout shift 0); Premium users
 * get nothing, and nothing is ever printed. What fills it (root loader's
 * `ads`, models/ads.server.ts): nothing before the cookie dialog is answered,
 * a placeholder card in test mode, else AdSense — whose loader is a chunk of
 * its own (./adsense), fetched only then, never part of a first visit.
 */
export type AdPosition = 'landing' | 'calculator-left' | 'calculator-sidebar' | 'calculator-below';

// Fixed heights as classes: the CSP allows no inline style attributes.
const HEIGHT: Record<AdPosition, string> = {
  landing: 'h-[120px]',
  'calculator-left': 'h-[120px]',
  'calculator-sidebar': 'h-[250px]',
  'calculator-below': 'h-[120px]',
};

export function AdSlot({ position, className = '' }: { position: AdPosition; className?: string }) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const ads = root?.ads;
  const { t } = useTranslation('common');
  const insRef = useRef<HTMLModElement>(null);
  const adsense = Boolean(ads?.show && ads.mode === 'adsense' && ads.consentAnswered);
  const clientId = ads?.clientId ?? '';
  const nonPersonalized = ads?.nonPersonalized ?? true;
  useEffect(() => {
    if (!adsense || !insRef.current) return;
    const slot = insRef.current;
    import('./adsense')
      .then(({ fillAdSlot }) => fillAdSlot(slot, { clientId, nonPersonalized }))
      // Ad script errors are logged and never break the page (spec §8).
      .catch((error: unknown) => console.error('[ads]', error));
  }, [adsense, clientId, nonPersonalized]);
  if (!ads?.show) return null;
  return (
    // A plain box, not a landmark: several slots on one page, some inside <main> and the form.
    <div data-ad-slot={position} className={`no-print overflow-hidden print:hidden ${HEIGHT[position]} ${className}`}>
      {!ads.consentAnswered ? (
        <div data-ad-reserved className="h-full" />
      ) : ads.mode === 'placeholder' ? (
        <div data-ad-placeholder className="flex h-full flex-col items-center justify-center rounded-card border border-dashed border-surface-line bg-surface px-4 text-center">
          <p className="text-xs font-semibold uppercase tracking-wide text-ink-muted">{t('ads.label')}</p>
          <p className="mt-1 text-sm text-ink-muted">{t('ads.placeholder')}</p>
          <Link to="/premium" className="mt-1 text-xs font-semibold text-brand-700 underline">
            {t('ads.upgrade')}
          </Link>
        </div>
      ) : (
        <ins
          ref={insRef}
          className="adsbygoogle block h-full"
          data-ad-client={ads.clientId}
          data-ad-slot-id={ads.adSlotId}
          data-full-width-responsive="false"
        />
      )}
    </div>
  );
}
