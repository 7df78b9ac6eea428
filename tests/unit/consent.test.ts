import { describe, expect, it } from 'vitest';
import { action, loader } from '~/routes/_public+/cookie-consent';
import {
  ALL_ACCEPTED,
  CONSENT_DATE_STORAGE_KEY,
  CONSENT_STORAGE_KEY,
  currentPathWithoutConsentParams,
  ONLY_NECESSARY,
  parseConsentDate,
  parseConsentRecord,
  parsePreferences,
  preferencesFromFormData,
  readStoredConsent,
  safeRedirectPath,
  serializeConsentRecord,
  serializePreferences,
  writeStoredConsent,
} from '~/lib/consent';
import { consentCookie, getConsent, resolveConsentDate } from '~/web/consent.server';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

function consentRequest(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams(fields);
  return new Request('http://localhost/cookie-consent', {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
}

async function callAction(request: Request) {
  return action({ request, params: {}, context: {} });
}

/** The stored choice from a Set-Cookie header, read back the way the root loader reads it. */
async function consentFromSetCookie(setCookie: string | null) {
  expect(setCookie).toBeTruthy();
  const cookiePair = setCookie!.split(';')[0];
  return getConsent(new Request('http://localhost/', { headers: { Cookie: cookiePair } }));
}

describe('parsePreferences / serializePreferences', () => {
  it('round-trips all four flags', () => {
    const preferences = { essential: true as const, analytics: true, marketing: false, payment: true };
    const text = serializePreferences(preferences);
    expect(JSON.parse(text)).toEqual(preferences);
    expect(parsePreferences(text)).toEqual(preferences);
  });

  it('accepts objects and JSON text, forcing essential to true', () => {
    expect(parsePreferences({ essential: false, analytics: false, marketing: true, payment: false })).toEqual({
      essential: true,
      analytics: false,
      marketing: true,
      payment: false,
    });
  });

  it('refuses incomplete, mistyped or unreadable values', () => {
    expect(parsePreferences(null)).toBeNull();
    expect(parsePreferences('')).toBeNull();
    expect(parsePreferences('{not json')).toBeNull();
    expect(parsePreferences('[]')).toBeNull();
    expect(parsePreferences({ analytics: true, marketing: true })).toBeNull();
    expect(parsePreferences({ analytics: 'true', marketing: true, payment: true })).toBeNull();
  });

  it('drops unknown keys when serialising', () => {
    const text = serializePreferences({ ...ALL_ACCEPTED, extra: 1 } as never);
    expect(Object.keys(JSON.parse(text))).toEqual(['essential', 'analytics', 'marketing', 'payment']);
  });
});

describe('consent record and date', () => {
  it('normalises ISO dates and refuses others', () => {
    expect(parseConsentDate('2025-01-28T10:15:00.000Z')).toBe('2025-01-28T10:15:00.000Z');
    expect(parseConsentDate('2025-01-28T11:15:00+01:00')).toBe('2025-01-28T10:15:00.000Z');
    expect(parseConsentDate('28.01.2025')).toBeNull();
    expect(parseConsentDate('2025-13-45T99:99')).toBeNull();
    expect(parseConsentDate(1738059300000)).toBeNull();
  });

  it('round-trips a record', () => {
    const record = { preferences: { ...ONLY_NECESSARY }, date: '2025-01-28T10:15:00.000Z' };
    expect(parseConsentRecord(serializeConsentRecord(record))).toEqual(record);
    expect(parseConsentRecord({ preferences: ONLY_NECESSARY })).toBeNull();
  });

  it('keeps a plausible browser date and refuses a future one', () => {
    const now = new Date('2025-06-01T12:00:00.000Z');
    expect(resolveConsentDate('2025-05-01T08:00:00.000Z', now)).toBe('2025-05-01T08:00:00.000Z');
    expect(resolveConsentDate('2030-01-01T00:00:00.000Z', now)).toBe(now.toISOString());
    expect(resolveConsentDate(null, now)).toBe(now.toISOString());
  });
});

describe('localStorage copy', () => {
  it('uses the spec keys', () => {
    const storage = memoryStorage();
    const record = { preferences: { ...ALL_ACCEPTED }, date: '2025-01-28T10:15:00.000Z' };
    writeStoredConsent(storage, record);
    expect(storage.items.get(CONSENT_STORAGE_KEY)).toBe(serializePreferences(ALL_ACCEPTED));
    expect(storage.items.get(CONSENT_DATE_STORAGE_KEY)).toBe(record.date);
    expect(CONSENT_STORAGE_KEY).toBe('cookiePreferences');
    expect(CONSENT_DATE_STORAGE_KEY).toBe('cookieConsentDate');
    expect(readStoredConsent(storage)).toEqual(record);
  });

  it('treats blocked storage as empty', () => {
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readStoredConsent(blocked)).toBeNull();
    expect(() => writeStoredConsent(blocked, { preferences: { ...ALL_ACCEPTED }, date: new Date().toISOString() })).not.toThrow();
  });
});

describe('form helpers', () => {
  it('maps intents to preferences', () => {
    const form = (entries: Record<string, string>) => new URLSearchParams(entries) as unknown as FormData;
    expect(preferencesFromFormData(form({ intent: 'all' }))).toEqual(ALL_ACCEPTED);
    expect(preferencesFromFormData(form({ intent: 'necessary', analytics: 'on' }))).toEqual(ONLY_NECESSARY);
    expect(preferencesFromFormData(form({ intent: 'save', marketing: 'on' }))).toEqual({
      essential: true,
      analytics: false,
      marketing: true,
      payment: false,
    });
    expect(preferencesFromFormData(form({ intent: 'everything' }))).toBeNull();
  });

  it('only allows same-site paths as redirect targets', () => {
    expect(safeRedirectPath('/calculator?project=1')).toBe('/calculator?project=1');
    expect(safeRedirectPath('//evil.example')).toBe('/');
    expect(safeRedirectPath('/\\evil.example')).toBe('/');
    expect(safeRedirectPath('https://evil.example/')).toBe('/');
    expect(safeRedirectPath('/\t/evil.example')).toBe('/');
    expect(safeRedirectPath('calculator')).toBe('/');
    expect(safeRedirectPath(null)).toBe('/');
    expect(safeRedirectPath('', '/kontakt')).toBe('/kontakt');
  });

  it('strips the dialog parameters from the return path', () => {
    expect(currentPathWithoutConsentParams('/calculator', '?project=5&cookie-settings=1')).toBe('/calculator?project=5');
    expect(currentPathWithoutConsentParams('/', '?consent=dismissed')).toBe('/');
  });
});

describe('cookie-consent action', () => {
  it('"all" sets every flag and redirects back', async () => {
    const response = await callAction(consentRequest({ intent: 'all', redirectTo: '/calculator?project=7' }));
    expect(response).toBeInstanceOf(Response);
    const res = response as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/calculator?project=7');
    const setCookie = res.headers.get('Set-Cookie');
    expect(setCookie).toMatch(/^cookie_consent=/);
    expect(setCookie).toMatch(/Max-Age=31536000/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).toMatch(/HttpOnly/);
    const consent = await consentFromSetCookie(setCookie);
    expect(consent?.preferences).toEqual(ALL_ACCEPTED);
    expect(Date.now() - Date.parse(consent!.date)).toBeLessThan(60_000);
  });

  it('"necessary" stores only the essential flag', async () => {
    const res = (await callAction(consentRequest({ intent: 'necessary', redirectTo: '/' }))) as Response;
    expect((await consentFromSetCookie(res.headers.get('Set-Cookie')))?.preferences).toEqual(ONLY_NECESSARY);
  });

  it('"save" stores the ticked checkboxes and ignores an attempt to drop essential', async () => {
    const res = (await callAction(
      consentRequest({ intent: 'save', analytics: 'on', payment: 'on', essential: 'false', redirectTo: '/premium' }),
    )) as Response;
    expect(res.headers.get('Location')).toBe('/premium');
    expect((await consentFromSetCookie(res.headers.get('Set-Cookie')))?.preferences).toEqual({
      essential: true,
      analytics: true,
      marketing: false,
      payment: true,
    });
  });

  it('refuses an off-site redirectTo and sends the visitor home instead', async () => {
    for (const redirectTo of ['//evil.example', 'https://evil.example/', '/\\evil.example']) {
      const res = (await callAction(consentRequest({ intent: 'all', redirectTo }))) as Response;
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toBe('/');
      expect(res.headers.get('Set-Cookie')).toMatch(/^cookie_consent=/);
    }
  });

  it('answers a script (enhanced) submission with data instead of a redirect, keeping the browser date', async () => {
    const date = new Date(Date.now() - 60_000).toISOString();
    const result = await callAction(consentRequest({ intent: 'necessary', enhanced: '1', date, redirectTo: '/' }));
    expect(result).not.toBeInstanceOf(Response);
    const { data, init } = result as unknown as { data: { ok: boolean; consent: unknown }; init: ResponseInit };
    expect(data).toEqual({ ok: true, consent: { preferences: ONLY_NECESSARY, date } });
    const setCookie = new Headers(init.headers).get('Set-Cookie');
    expect(await consentFromSetCookie(setCookie)).toEqual({ preferences: ONLY_NECESSARY, date });
  });

  it('stores nothing for an unknown intent', async () => {
    const res = (await callAction(consentRequest({ intent: 'hack', redirectTo: '/kontakt' }))) as Response;
    expect(res.headers.get('Location')).toBe('/kontakt');
    expect(res.headers.get('Set-Cookie')).toBeNull();
  });

  it('refuses cross-site submissions', async () => {
    await expect(callAction(consentRequest({ intent: 'all' }, { 'Sec-Fetch-Site': 'cross-site' }))).rejects.toMatchObject({
      status: 403,
    });
  });

  it('sends a bare GET to the settings on the start page', () => {
    const res = loader();
    expect(res.headers.get('Location')).toBe('/?cookie-settings=1');
  });

  it('reads no consent from a missing or tampered cookie', async () => {
    expect(await getConsent(new Request('http://localhost/'))).toBeNull();
    expect(await getConsent(new Request('http://localhost/', { headers: { Cookie: 'cookie_consent=garbage' } }))).toBeNull();
    const tampered = await consentCookie.serialize({ preferences: { analytics: 'yes' }, date: 'soon' });
    expect(await getConsent(new Request('http://localhost/', { headers: { Cookie: tampered.split(';')[0] } }))).toBeNull();
  });

  it('reads the consent cookie once per request (the root and the page loader share it), each request its own', async () => {
    const stored = await consentCookie.serialize({ preferences: { analytics: true, marketing: false, payment: true }, date: '2026-01-02T03:04:05.000Z' });
    const request = new Request('http://localhost/', { headers: { Cookie: stored.split(';')[0] } });
    const first = getConsent(request);
    expect(getConsent(request)).toBe(first);
    expect(await first).toMatchObject({ preferences: { analytics: true, marketing: false, payment: true }, date: '2026-01-02T03:04:05.000Z' });
    const other = getConsent(new Request('http://localhost/', { headers: { Cookie: stored.split(';')[0] } }));
    expect(other).not.toBe(first);
    expect(await getConsent(new Request('http://localhost/'))).toBeNull();
  });
});
