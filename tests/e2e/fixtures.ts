import { test as base, expect } from '@playwright/test';

type Options = {
  /** Start with a stored cookie choice so the consent dialog stays out of the way (default true). */
  withConsent: boolean;
};

/** The `cookie_consent` cookie as the server writes it (Remix cookie: base64 JSON). */
export function consentCookieValue(preferences = { essential: true, analytics: false, marketing: false, payment: false }) {
  const record = { preferences, date: new Date().toISOString() };
  return encodeURIComponent(Buffer.from(JSON.stringify(record), 'utf8').toString('base64'));
}

export const test = base.extend<Options>({
  withConsent: [true, { option: true }],
  context: async ({ context, withConsent, baseURL }, use) => {
    if (withConsent) {
      await context.addCookies([{ name: 'cookie_consent', value: consentCookieValue(), url: baseURL! }]);
    }
    await use(context);
  },
});

export { expect };
