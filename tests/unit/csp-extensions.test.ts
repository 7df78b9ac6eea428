import { describe, expect, it } from 'vitest';
import { adPolicyNeeded, adsViewOf } from '~/domain/ads';
import type { ConsentRecord } from '~/lib/consent';
import { buildContentSecurityPolicy, parseCspExtensions, paymentOriginsFor } from '~/server/security-headers';

function directive(csp: string, name: string): string[] {
  const found = csp.split('; ').find((part) => part.startsWith(`${name} `));
  return found ? found.split(' ').slice(1) : [];
}

describe('page-specific CSP widening (issue 21)', () => {
  it('the strict policy allows neither Stripe nor ads', () => {
    const csp = buildContentSecurityPolicy('n1');
    expect(csp).not.toContain('stripe');
    expect(csp).not.toContain('strict-dynamic');
    expect(directive(csp, 'frame-src')).toEqual([]);
  });

  it('payments: Stripe.js, its frames and the no-JS form posts to Checkout and the portal', () => {
    const csp = buildContentSecurityPolicy('n1', { extensions: ['payments'], paymentOrigins: ['http://127.0.0.1:4242'] });
    expect(directive(csp, 'script-src')).toEqual(["'self'", "'nonce-n1'", 'https://js.stripe.com', 'http://127.0.0.1:4242']);
    expect(directive(csp, 'frame-src')).toContain('https://js.stripe.com');
    expect(directive(csp, 'form-action')).toEqual(["'self'", 'https://checkout.stripe.com', 'https://billing.stripe.com', 'http://127.0.0.1:4242']);
    expect(directive(csp, 'connect-src')).toContain('https://api.stripe.com');
    expect(csp).not.toContain('strict-dynamic');
  });

  it("ads: the nonce plus 'strict-dynamic', no 'unsafe-inline'", () => {
    const csp = buildContentSecurityPolicy('n2', { extensions: ['ads'] });
    expect(directive(csp, 'script-src')).toEqual(["'self'", "'nonce-n2'", "'strict-dynamic'", 'https:']);
    expect(csp).not.toContain('unsafe-inline');
    expect(directive(csp, 'object-src')).toEqual(["'none'"]);
  });

  it('reads only known extensions from the internal header, and only addresses as payment origins', () => {
    expect(parseCspExtensions('payments, ads, evil')).toEqual(['payments', 'ads']);
    expect(parseCspExtensions(undefined)).toEqual([]);
    expect(paymentOriginsFor({ STRIPE_API_BASE: 'http://127.0.0.1:4242/v1', STRIPE_JS_URL: 'nonsense' })).toEqual(['http://127.0.0.1:4242']);
    expect(paymentOriginsFor({})).toEqual([]);
  });
});

describe('which ad pages get the ads policy (issue 21)', () => {
  const adsense = { enableAds: true, testMode: false, clientId: 'ca-pub-1', adSlotId: '42' };
  const answered: ConsentRecord = { preferences: { essential: true, analytics: false, marketing: false, payment: false }, date: '2026-11-26T00:00:00.000Z' };

  it('real ads: before the cookie answer too, since the visitor answers on the page and its slots then load the script', () => {
    expect(adPolicyNeeded(adsViewOf(adsense, { premium: false, consent: null }))).toBe(true);
    expect(adPolicyNeeded(adsViewOf(adsense, { premium: false, consent: answered }))).toBe(true);
  });

  it('not for Premium, with ads off, or for placeholders (test mode, no client id)', () => {
    expect(adPolicyNeeded(adsViewOf(adsense, { premium: true, consent: answered }))).toBe(false);
    expect(adPolicyNeeded(adsViewOf({ ...adsense, enableAds: false }, { premium: false, consent: answered }))).toBe(false);
    expect(adPolicyNeeded(adsViewOf({ ...adsense, testMode: true }, { premium: false, consent: answered }))).toBe(false);
    expect(adPolicyNeeded(adsViewOf({ ...adsense, clientId: '' }, { premium: false, consent: answered }))).toBe(false);
    expect(adPolicyNeeded(null)).toBe(false);
  });
});
