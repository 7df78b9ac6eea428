/**
 * Loads AdSense and fills one slot. Imported dynamically by AdSlot only when
 * real ads may load (ads on, not in test mode, cookie dialog answered), so its
 * code is never part of a page's first JavaScript. The script is added by our
 * own (nonced) code: the page's policy ('strict-dynamic', entry.server.tsx)
 * lets it run; AdSense's own scripts follow the same way.
 */
type AdsQueue = unknown[] & { requestNonPersonalizedAds?: 0 | 1 };

declare global {
  interface Window {
    adsbygoogle?: AdsQueue;
  }
}

const SCRIPT_ID = 'druckpreis-adsense';

export function fillAdSlot(slot: HTMLElement, { clientId, nonPersonalized }: { clientId: string; nonPersonalized: boolean }) {
  const queue: AdsQueue = (window.adsbygoogle ??= []);
  // Without marketing consent, only non-personalised ads (spec §4).
  queue.requestNonPersonalizedAds = nonPersonalized ? 1 : 0;
  if (!document.getElementById(SCRIPT_ID)) {
    const script = document.createElement('script');
    script.id = SCRIPT_ID;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.src = `https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${encodeURIComponent(clientId)}`;
    script.onerror = () => console.error('[ads] the ad script could not be loaded');
    document.head.appendChild(script);
  }
  // AdSense reads the slot id from data-ad-slot; ours names the position, so it is set here.
  const ins = slot as HTMLElement & { dataset: DOMStringMap };
  if (ins.dataset.adSlotId) ins.setAttribute('data-ad-slot', ins.dataset.adSlotId);
  try {
    queue.push({});
  } catch (error) {
    console.error('[ads]', error);
  }
}
