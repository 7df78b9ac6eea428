import type { LoaderFunctionArgs } from '@remix-run/node';
import { getAdminSettings } from '~/models/admin.server';
import { getRequestContext } from '~/services/auth.server';
import { apiResult } from '~/web/result-response.server';

/**
 * GET /api/admin/settings (spec §7): stripe_config, google_ads_config,
 * email_config, contact_config (and operator_config); secrets are '' with
 * `<field>Set` saying whether one is stored. Visitors 401, non-admins 403.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ctx = await getRequestContext(args);
  return apiResult(await getAdminSettings(ctx), (settings) => settings);
}
