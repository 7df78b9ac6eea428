import { createCookie } from '@remix-run/node';
import {
  CONSENT_COOKIE_NAME,
  parseConsentDate,
  parseConsentRecord,
  preferencesFromFormData,
  serializeConsentRecord,
  type ConsentRecord,
} from '../lib/consent';

const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

/**
 * The visitor's cookie choice. httpOnly: the browser reads the choice from the
 * root loader's data (and its localStorage copy), never from document.cookie.
 * Unsigned on purpose: it holds no secret, only the visitor's own choice, and a
 * tampered value is validated like any other input.
 */
export const consentCookie = createCookie(CONSENT_COOKIE_NAME, {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  secure: process.env.NODE_ENV === 'production',
  maxAge: ONE_YEAR_SECONDS,
});

// Per request: the root loader and a page's own loader (the ad slots' preloads) both ask.
const byRequest = new WeakMap<Request, Promise<ConsentRecord | null>>();

/**
 * The stored choice from the request's cookie, or null when none (or an invalid one) exists.
 * Read once per request: parsing the Cookie header is a noticeable part of a cached page's cost.
 */
export function getConsent(request: Request): Promise<ConsentRecord | null> {
  let consent = byRequest.get(request);
  if (!consent) {
    consent = readConsent(request);
    byRequest.set(request, consent);
  }
  return consent;
}

async function readConsent(request: Request): Promise<ConsentRecord | null> {
  try {
    const value = await consentCookie.parse(request.headers.get('Cookie'));
    return parseConsentRecord(value);
  } catch {
    return null;
  }
}

/**
 * Date of a choice: the browser's own timestamp when plausible (so cookie and
 * localStorage agree exactly), else now. Future dates are refused.
 */
export function resolveConsentDate(value: unknown, now = new Date()): string {
  const parsed = parseConsentDate(value);
  if (parsed && Date.parse(parsed) <= now.getTime() + 5 * 60 * 1000) return parsed;
  return now.toISOString();
}

/**
 * The choice a posted consent form stands for (its intent and checkboxes, see
 * `preferencesFromFormData`), dated by `resolveConsentDate`; null for an
 * unknown intent, which stores nothing.
 */
export function consentFromForm(formData: FormData, now = new Date()): ConsentRecord | null {
  const preferences = preferencesFromFormData(formData);
  return preferences ? { preferences, date: resolveConsentDate(formData.get('date'), now) } : null;
}

/** The Set-Cookie header value that stores this choice for a year. */
export async function serializeConsentCookie(record: ConsentRecord): Promise<string> {
  return consentCookie.serialize(JSON.parse(serializeConsentRecord(record)));
}
