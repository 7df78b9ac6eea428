import type { LoaderFunctionArgs } from '@remix-run/node';
import { getPublicAdsConfig } from '~/models/ads.server';
import { getRequestContext } from '~/services/request-context.server';

/** The spec's 5 minutes (§9 "Ads config cache"). */
const ADS_CONFIG_MAX_AGE = 300;

/** GET /api/google-ads-config → { enableAds, testMode, clientId, adSlotId }, cacheable for 5 minutes. */
export async function loader(args: LoaderFunctionArgs) {
  const config = await getPublicAdsConfig(await getRequestContext(args));
  return Response.json(config, { headers: { 'Cache-Control': `public, max-age=${ADS_CONFIG_MAX_AGE}` } });
}
