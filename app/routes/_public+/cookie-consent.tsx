import { readFormData } from '~/web/form-data.server';
import { data, redirect, type ActionFunctionArgs } from '@remix-run/node';
import { COOKIE_SETTINGS_PARAM, safeRedirectPath } from '~/lib/consent';
import { consentFromForm, serializeConsentCookie } from '~/web/consent.server';

/**
 * Stores the cookie choice (spec §4 "Cookie dialog").
 *
 * The dialog is a plain `<form method="post" action="/cookie-consent">`: without
 * JavaScript the action sets the cookie and redirects back to `redirectTo`. With
 * JavaScript the dialog posts the same fields through a fetcher plus
 * `enhanced=1`, and gets data instead of a redirect so nothing navigates.
 *
 * No operation behind it: the choice touches no database and no account, and
 * its rules (which choice a form stands for, which date counts) are in
 * lib/consent.ts, shared with the dialog, and web/consent.server.ts.
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
  const formData = await readFormData(request);
  const enhanced = formData.get('enhanced') === '1';
  const redirectTo = safeRedirectPath(formData.get('redirectTo'));
  const consent = consentFromForm(formData);
  // Unknown intent: store nothing; the dialog shows again on the page.
  if (!consent) return enhanced ? data({ ok: false as const }, { status: 400 }) : redirect(redirectTo);
  const headers = { 'Set-Cookie': await serializeConsentCookie(consent) };
  return enhanced ? data({ ok: true as const, consent }, { headers }) : redirect(redirectTo, { headers });
}
