import { getAdsSettings, type AdsSettings } from '../services/payment-config.server';
import type { RequestContext } from '../services/request-context.server';
import type { ConsentRecord } from '../lib/consent';
import { isPremium } from '../domain/permissions';
import { adsViewOf, type AdsView } from '../domain/ads';

export { adPolicyNeeded, adsViewOf, type AdsView } from '../domain/ads';

export async function getAdsView(ctx: RequestContext, consent: ConsentRecord | null): Promise<AdsView> {
  return adsViewOf(await getAdsSettings(ctx.em), { premium: isPremium(ctx.user, ctx.now), consent });
}

/** GET /api/google-ads-config (spec §3 "Ads config as read by the client"). */
export async function getPublicAdsConfig(ctx: RequestContext): Promise<Pick<AdsSettings, 'enableAds' | 'testMode' | 'clientId' | 'adSlotId'>> {
  const settings = await getAdsSettings(ctx.em);
  return { enableAds: settings.enableAds, testMode: settings.testMode, clientId: settings.clientId, adSlotId: settings.adSlotId };
}
