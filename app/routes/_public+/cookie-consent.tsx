import { data, redirect, type ActionFunctionArgs } from '@remix-run/node';
import { COOKIE_SETTINGS_PARAM, preferencesFromFormData, safeRedirectPath } from '~/utils/consent';
import { resolveConsentDate, serializeConsentCookie } from '~/utils/consent.server';

/**
 * Stores the cookie choice (spec §4 "Cookie dialog").
 *
 * The dialog is a plain `<form method="post" action="/cookie-consent">`: without
 * JavaScript the action sets the cookie and redirects back to `redirectTo`. With
 * JavaScript the dialog posts the same fields through a fetcher plus
 * `enhanced=1`, and gets data instead of a redirect so nothing navigates.
 */

/** A bare GET (bookmark, typed URL) shows the settings on the start page. */
export function loader() {
  return redirect(`/?${COOKIE_SETTINGS_PARAM}=1`);
}

export async function action({ request }: ActionFunctionArgs) {
  // A consent must come from the visitor, not from a form on another site.
  if (request.headers.get('Sec-Fetch-Site') === 'cross-site') {
    throw new Response('Cross-site consent changes are not accepted.', { status: 403 });
  }
  const formData = await request.formData();
  const enhanced = formData.get('enhanced') === '1';
  const redirectTo = safeRedirectPath(formData.get('redirectTo'));
  const preferences = preferencesFromFormData(formData);

  if (!preferences) {
    // Unknown intent: store nothing; the dialog shows again on the page.
    return enhanced ? data({ ok: false as const }, { status: 400 }) : redirect(redirectTo);
  }

  const date = resolveConsentDate(formData.get('date'));
  const headers = { 'Set-Cookie': await serializeConsentCookie(preferences, date) };
  if (enhanced) return data({ ok: true as const, consent: { preferences, date } }, { headers });
  return redirect(redirectTo, { headers });
}
