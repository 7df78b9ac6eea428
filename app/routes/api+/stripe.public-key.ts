import type { LoaderFunctionArgs } from '@remix-run/node';
import { getPremiumOffer } from '~/models/premium.server';
import { getRequestContext } from '~/services/request-context.server';
import { jsonResponse } from '~/web/api.server';

/** GET /api/stripe/public-key → { publicKey } ('' while payments are not set up). */
export async function loader(args: LoaderFunctionArgs) {
  const offer = await getPremiumOffer(await getRequestContext(args));
  return jsonResponse({ publicKey: offer.configured ? offer.publicKey : '' });
}
