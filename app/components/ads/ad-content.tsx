import { Link } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdsView } from '~/domain/ads';

/**
 * What fills an ad slot once the cookie dialog was answered (./ad-slot.tsx):
 * a placeholder card in test mode (or without a client id), else an AdSense
 * unit, whose loader (./adsense) is fetched only then. Ad script errors are
 * logged and never break the page (spec §8).
 */
export default function AdContent({ ads }: { ads: AdsView }) {
  const { t } = useTranslation('common');
  const insRef = useRef<HTMLModElement>(null);
  const adsense = ads.mode === 'adsense';
  const { clientId, nonPersonalized } = ads;
  useEffect(() => {
    if (!adsense || !insRef.current) return;
    const slot = insRef.current;
    import('./adsense')
      .then(({ fillAdSlot }) => fillAdSlot(slot, { clientId, nonPersonalized }))
      .catch((error: unknown) => console.error('[ads]', error));
  }, [adsense, clientId, nonPersonalized]);
  if (adsense) {
    return <ins data-ad-content ref={insRef} className="adsbygoogle block h-full" data-ad-client={ads.clientId} data-ad-slot-id={ads.adSlotId} data-full-width-responsive="false" />;
  }
  return (
    <div data-ad-content data-ad-placeholder className="flex h-full flex-col items-center justify-center rounded-card border border-dashed border-surface-line bg-surface px-4 text-center">
      <p className="text-xs font-semibold uppercase tracking-wide text-ink-muted">{t('ads.label')}</p>
      <p className="mt-1 text-sm text-ink-muted">{t('ads.placeholder')}</p>
      <Link to="/premium" className="mt-1 text-xs font-semibold text-brand-700 underline">
        {t('ads.upgrade')}
      </Link>
    </div>
  );
}
