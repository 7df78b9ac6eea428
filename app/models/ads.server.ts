import { getAdsSettings, type AdsSettings } from '../services/payment-config.server';
import type { RequestContext } from '../services/request-context.server';
import type { ConsentRecord } from '../utils/consent';
import { isPremium } from './permissions.server';

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

export function adsViewOf(settings: AdsSettings, { premium, consent }: { premium: boolean; consent: ConsentRecord | null }): AdsView {
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

export async function getAdsView(ctx: RequestContext, consent: ConsentRecord | null): Promise<AdsView> {
  return adsViewOf(await getAdsSettings(ctx.em), { premium: isPremium(ctx.user, ctx.now), consent });
}

/** The ad script runs on this page: shown, real ads, the cookie dialog answered. */
export function adScriptAllowed(view: AdsView | null | undefined): boolean {
  return Boolean(view?.show && view.mode === 'adsense' && view.consentAnswered);
}

/** GET /api/google-ads-config (spec §3 "Ads config as read by the client"). */
export async function getPublicAdsConfig(ctx: RequestContext): Promise<Pick<AdsSettings, 'enableAds' | 'testMode' | 'clientId' | 'adSlotId'>> {
  const settings = await getAdsSettings(ctx.em);
  return { enableAds: settings.enableAds, testMode: settings.testMode, clientId: settings.clientId, adSlotId: settings.adSlotId };
}
