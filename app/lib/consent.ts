/**
 * Cookie consent (spec §3 "Consent preferences", §4 "Cookie dialog").
 * Shared by server and browser: pure helpers, no Node or React imports.
 *
 * The `cookie_consent` cookie is what the server trusts; localStorage keeps a
 * copy under the keys the spec names so client-side code (ads, payment) can read it.
 */

import { safeRedirect } from './safe-redirect';

export const CONSENT_FLAGS = ['essential', 'analytics', 'marketing', 'payment'] as const;
/** The flags a visitor can switch; `essential` is always on. */
export const OPTIONAL_CONSENT_FLAGS = ['analytics', 'marketing', 'payment'] as const;

export type ConsentFlag = (typeof CONSENT_FLAGS)[number];
export type OptionalConsentFlag = (typeof OPTIONAL_CONSENT_FLAGS)[number];

export type ConsentPreferences = {
  essential: true;
  analytics: boolean;
  marketing: boolean;
  payment: boolean;
};

/** What is stored: the choice and when it was made (ISO timestamp). */
export type ConsentRecord = {
  preferences: ConsentPreferences;
  date: string;
};

export const CONSENT_STORAGE_KEY = 'cookiePreferences';
export const CONSENT_DATE_STORAGE_KEY = 'cookieConsentDate';
export const CONSENT_COOKIE_NAME = 'cookie_consent';

/** Query parameter that opens the dialog with the settings shown (no-JS path of every "Cookie-Einstellungen" button). */
export const COOKIE_SETTINGS_PARAM = 'cookie-settings';
/** Query parameter `consent=dismissed` hides the dialog for that page view (no-JS path of the X). */
export const CONSENT_DISMISS_PARAM = 'consent';
export const CONSENT_DISMISS_VALUE = 'dismissed';

export const CONSENT_INTENTS = ['all', 'necessary', 'save'] as const;
export type ConsentIntent = (typeof CONSENT_INTENTS)[number];

export const ALL_ACCEPTED: ConsentPreferences = { essential: true, analytics: true, marketing: true, payment: true };
export const ONLY_NECESSARY: ConsentPreferences = { essential: true, analytics: false, marketing: false, payment: false };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/**
 * Reads preferences from an object or its JSON text. Every optional flag must be
 * a boolean; `essential` is forced to true. Anything else gives null ("no choice yet").
 */
export function parsePreferences(value: unknown): ConsentPreferences | null {
  const data = parseJson(value);
  if (!isRecord(data)) return null;
  for (const flag of OPTIONAL_CONSENT_FLAGS) {
    if (typeof data[flag] !== 'boolean') return null;
  }
  return {
    essential: true,
    analytics: data.analytics as boolean,
    marketing: data.marketing as boolean,
    payment: data.payment as boolean,
  };
}

/** JSON text with exactly the four flags, in a fixed order (what localStorage holds). */
export function serializePreferences(preferences: ConsentPreferences): string {
  return JSON.stringify({
    essential: true,
    analytics: preferences.analytics === true,
    marketing: preferences.marketing === true,
    payment: preferences.payment === true,
  });
}

/** A valid ISO timestamp normalised to `toISOString()` form, else null. */
export function parseConsentDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 40) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Reads `{ preferences, date }` from an object or its JSON text; null when incomplete or invalid. */
export function parseConsentRecord(value: unknown): ConsentRecord | null {
  const data = parseJson(value);
  if (!isRecord(data)) return null;
  const preferences = parsePreferences(data.preferences);
  const date = parseConsentDate(data.date);
  return preferences && date ? { preferences, date } : null;
}

export function serializeConsentRecord(record: ConsentRecord): string {
  return JSON.stringify({ preferences: JSON.parse(serializePreferences(record.preferences)), date: record.date });
}

function isChecked(value: FormDataEntryValue | null): boolean {
  return value === 'on' || value === 'true' || value === '1';
}

/** The preferences a consent form submission stands for; null for an unknown intent. */
export function preferencesFromFormData(formData: FormData): ConsentPreferences | null {
  const intent = formData.get('intent');
  if (intent === 'all') return { ...ALL_ACCEPTED };
  if (intent === 'necessary') return { ...ONLY_NECESSARY };
  if (intent === 'save') {
    return {
      essential: true,
      analytics: isChecked(formData.get('analytics')),
      marketing: isChecked(formData.get('marketing')),
      payment: isChecked(formData.get('payment')),
    };
  }
  return null;
}

export function samePreferences(a: ConsentPreferences, b: ConsentPreferences): boolean {
  return OPTIONAL_CONSENT_FLAGS.every((flag) => a[flag] === b[flag]);
}

/**
 * A same-site path to send the visitor back to, or the fallback: the one
 * safe-redirect rule (app/lib/safe-redirect.ts).
 */
export function safeRedirectPath(value: unknown, fallback = '/'): string {
  return safeRedirect(value, fallback);
}

/**
 * Removes the dialog's own query parameters from a search string, so a
 * redirect or a "close" link does not reopen or re-hide the dialog.
 */
export function withoutConsentParams(search: string): URLSearchParams {
  const params = new URLSearchParams(search);
  params.delete(COOKIE_SETTINGS_PARAM);
  if (params.get(CONSENT_DISMISS_PARAM) === CONSENT_DISMISS_VALUE) params.delete(CONSENT_DISMISS_PARAM);
  return params;
}

/** Path plus search of the current page without the dialog's parameters (the dialog's `redirectTo`). */
export function currentPathWithoutConsentParams(pathname: string, search: string): string {
  const query = withoutConsentParams(search).toString();
  return query ? `${pathname}?${query}` : pathname;
}

/** Reads the browser's copy; null when missing, unreadable or storage is blocked. */
export function readStoredConsent(storage: Pick<Storage, 'getItem'>): ConsentRecord | null {
  try {
    const preferences = parsePreferences(storage.getItem(CONSENT_STORAGE_KEY));
    const date = parseConsentDate(storage.getItem(CONSENT_DATE_STORAGE_KEY));
    return preferences && date ? { preferences, date } : null;
  } catch {
    return null;
  }
}

/** Writes the browser's copy; silently does nothing when storage is blocked. */
export function writeStoredConsent(storage: Pick<Storage, 'setItem'>, record: ConsentRecord): void {
  try {
    storage.setItem(CONSENT_STORAGE_KEY, serializePreferences(record.preferences));
    storage.setItem(CONSENT_DATE_STORAGE_KEY, record.date);
  } catch {
    // Private mode or a full quota: the cookie still holds the choice.
  }
}

/** Window event that opens the dialog in place (fired by `openCookieSettings`). */
export const OPEN_COOKIE_SETTINGS_EVENT = 'druckpreis:open-cookie-settings';

/** Opens the cookie dialog with the settings shown (browser only; any "Cookie-Einstellungen" button may call it). */
export function openCookieSettings(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(OPEN_COOKIE_SETTINGS_EVENT));
}
