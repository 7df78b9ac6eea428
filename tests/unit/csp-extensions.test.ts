import { describe, expect, it } from 'vitest';
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
