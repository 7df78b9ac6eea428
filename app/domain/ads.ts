import type { ConsentRecord } from '../lib/consent';

/** The ads settings the decision needs (admin settings' google_ads_config, or the environment). */
export type AdsSettingsInput = { enableAds: boolean; testMode: boolean; clientId: string; adSlotId: string };

/**
 * What the page's ad slots do (spec §4 "Ads", issue 21 §4), decided once per
 * request in the root loader, so the render cache (keyed by loader data)
 * follows a settings change by itself:
 * - `show`: free users and visitors while ads are enabled; never Premium.
 * - `mode`: 'placeholder' in test mode (or without a client id), else 'adsense'.
 * - `scriptAllowed`: the ad script may load (the cookie dialog was answered);
 *   before that a slot is only its reserved space.
 */
export type AdsView = {
  show: boolean;
  mode: 'placeholder' | 'adsense';
  clientId: string;
  adSlotId: string;
  consentAnswered: boolean;
  nonPersonalized: boolean;
};

export function adsViewOf(settings: AdsSettingsInput, { premium, consent }: { premium: boolean; consent: ConsentRecord | null }): AdsView {
  const adsense = !settings.testMode && Boolean(settings.clientId);
  return {
    show: settings.enableAds && !premium,
    mode: adsense ? 'adsense' : 'placeholder',
    clientId: adsense ? settings.clientId : '',
    adSlotId: adsense ? settings.adSlotId : '',
    consentAnswered: consent !== null,
    nonPersonalized: !consent?.preferences.marketing,
  };
}

/**
 * A page with slots needs the ads policy (nonce plus 'strict-dynamic',
 * server/security-headers.ts) whenever it shows real ads, whether or not the
 * cookie dialog was answered: the policy belongs to the document, and a
 * visitor answers the dialog on the page itself (with scripts, without a new
 * document), after which the slots load the ad script at once. Asked only
 * after the answer, the first page a visitor saw never showed an ad. What
 * keeps the script away before the answer is the slot, which loads it only
 * then (components/ads).
 */
export function adPolicyNeeded(view: AdsView | null | undefined): boolean {
  return Boolean(view?.show && view.mode === 'adsense');
}

