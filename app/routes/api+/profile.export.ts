import type { LoaderFunctionArgs } from '@remix-run/node';
import { exportOwnData } from '~/models/account-self-service.server';
import { requireApiUserContext } from '~/services/auth.server';
import { getConsent } from '~/web/consent.server';
import { apiResult } from '~/web/result-response.server';

/**
 * GET /api/profile/export: everything stored about the signed-in user as a
 * JSON file download (GDPR Art. 15 and 20); never another user's data, no
 * password hash, no tokens. The /profile page links here (works without JS).
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await requireApiUserContext(args);
  const result = await exportOwnData(ctx, { consent: await getConsent(args.request) });
  const date = ctx.now.toISOString().slice(0, 10);
  return apiResult(result, (exported) => new Response(JSON.stringify(exported, null, 2), {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="druckpreis-daten-${date}.json"`,
      'Cache-Control': 'private, no-store',
    },
  }));
}
