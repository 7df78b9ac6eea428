/* eslint-disable @typescript-eslint/no-explicit-any -- Stripe objects are loose JSON in the fake and its tests */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small stand-in for the Stripe API, for exactly the calls the app makes
 * (customers, products, prices, subscriptions, Checkout and Customer Portal
 * sessions), answering with objects shaped like the pinned API version's
 * (2025-10-29.clover: the paid period on the subscription item, the first
 * invoice's client secret under `confirmation_secret`). The SDK is pointed at
 * it with STRIPE_API_BASE. Its Checkout page (`GET /checkout/:id`) "pays" on
 * a form post: the subscription becomes active, the signed webhooks are sent
 * to `webhookUrl` and the browser is sent back to the success address.
 * Idempotency keys are honoured like Stripe's (same key → same answer).
 */
export type FakeStripe = {
  url: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Where the checkout page posts its events (the app's /api/stripe/webhook). */
  webhookUrl: string | null;
  /** When true, the checkout page does not send webhooks (a return that beats the webhook). */
  holdWebhooks: boolean;
  /** When true, every API call hangs (Stripe unreachable). */
  stall: boolean;
  /** Every API call, as `METHOD /v1/path`. */
  calls: string[];
  customers: Map<string, Record<string, any>>;
  products: Map<string, Record<string, any>>;
  prices: Map<string, Record<string, any>>;
  subscriptions: Map<string, Record<string, any>>;
  checkoutSessions: Map<string, Record<string, any>>;
  /** Events the checkout page sent (or held back). */
  sentEvents: Record<string, any>[];
  /** A Stripe event around `object` (created: now, or `created`). */
  event(type: string, object: Record<string, any>, created?: number): Record<string, any>;
  /** The signed delivery of an event: body and Stripe-Signature header. */
  sign(event: Record<string, any>, secret?: string): { body: string; signature: string };
  /** Posts an event, signed, to `webhookUrl`. */
  deliver(event: Record<string, any>): Promise<Response>;
  /** Changes a subscription as Stripe would (status, period, cancel flag) and returns it. */
  updateSubscription(id: string, changes: Record<string, any>): Record<string, any>;
  /** An invoice for a subscription (invoice.* events). */
  invoiceFor(subscriptionId: string): Record<string, any>;
  /** Pays a checkout session as its page does; returns the events (not yet sent when held). */
  completeCheckout(sessionId: string): Promise<Record<string, any>[]>;
  close(): Promise<void>;
};

const DAY = 86_400;

/**
 * A stand-in for Stripe.js (served at /stripe.js) with the parts the app uses:
 * Stripe(pk).elements({ clientSecret }).create('payment') with mount/on('ready'),
 * and confirmPayment, which "pays" through the fake (card 4000 0000 0000 0002
 * is declined with a card error, as Stripe's test card is).
 */
const STUB_STRIPE_JS = `(function () {
  window.Stripe = function (publicKey) {
    return {
      elements: function (options) {
        return {
          clientSecret: options.clientSecret,
          create: function () {
            var handlers = {};
            return {
              on: function (name, handler) { handlers[name] = handler; },
              mount: function (element) {
                var input = document.createElement('input');
                input.name = 'stub-card';
                input.setAttribute('aria-label', 'Kartennummer');
                input.setAttribute('data-stub-card', publicKey);
                element.appendChild(input);
                setTimeout(function () { if (handlers.ready) handlers.ready(); }, 1500);
              },
              destroy: function () {}
            };
          }
        };
      },
      confirmPayment: function (options) {
        var card = (document.querySelector('[name=stub-card]') || {}).value || '';
        if (card.replace(/\\s/g, '') === '4000000000000002') {
          return Promise.resolve({ error: { type: 'card_error', message: 'Ihre Karte wurde abgelehnt.' } });
        }
        return fetch('__FAKE__/test/confirm', { method: 'POST', body: JSON.stringify({ clientSecret: options.elements.clientSecret }) })
          .then(function (response) { return response.json(); })
          .then(function (body) { return { paymentIntent: { status: body.status } }; });
      }
    };
  };
})();
`;

function newId(prefix: string): string {
  return `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
}

/** Stripe's form encoding (`items[0][price]=x`) into nested objects and arrays. */
export function parseStripeForm(body: string): Record<string, any> {
  const result: Record<string, any> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.replace(/\]/g, '').split('[');
    let target: any = result;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[index + 1]);
      if (last) {
        target[part] = value;
      } else {
        target[part] ??= nextIsIndex ? [] : {};
        target = target[part];
      }
    });
  }
  return result;
}

export type FakeStripeOptions = { webhookUrl?: string; webhookSecret?: string; secretKey?: string; publishableKey?: string; port?: number };

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const idempotent = new Map<string, { status: number; body: string }>();
  const stalled = new Set<http.ServerResponse>();
  const now = () => Math.floor(Date.now() / 1000);

  const fake = {
    url: '',
    secretKey: options.secretKey ?? 'sk_test_fake_' + crypto.randomBytes(8).toString('hex'),
    publishableKey: options.publishableKey ?? 'pk_test_fake_' + crypto.randomBytes(8).toString('hex'),
    webhookSecret: options.webhookSecret ?? 'whsec_fake_' + crypto.randomBytes(12).toString('hex'),
    webhookUrl: options.webhookUrl ?? null,
    holdWebhooks: false,
    stall: false,
    calls: [] as string[],
    customers: new Map(),
    products: new Map(),
    prices: new Map(),
    subscriptions: new Map(),
    checkoutSessions: new Map(),
    sentEvents: [] as Record<string, any>[],
  } as FakeStripe;

  function subscriptionObject(customer: string, price: string, metadata: Record<string, string>, status: string) {
    const start = now();
    const id = newId('sub');
    const invoiceId = newId('in');
    const subscription: Record<string, any> = {
      id,
      object: 'subscription',
      customer,
      status,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      created: start,
      metadata,
      latest_invoice: invoiceId,
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            price: fake.prices.get(price) ?? { id: price },
            quantity: 1,
            current_period_start: start,
            current_period_end: start + 30 * DAY,
          },
        ],
      },
    };
    fake.subscriptions.set(id, subscription);
    return subscription;
  }

  function invoiceFor(subscriptionId: string): Record<string, any> {
    const subscription = fake.subscriptions.get(subscriptionId)!;
    const item = subscription.items.data[0];
    return {
      id: subscription.latest_invoice,
      object: 'invoice',
      customer: subscription.customer,
      status: 'open',
      amount_due: item.price?.unit_amount ?? 399,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId, metadata: subscription.metadata } },
      lines: { object: 'list', data: [{ id: newId('il'), period: { start: item.current_period_start, end: item.current_period_end } }] },
      confirmation_secret: { type: 'payment_intent', client_secret: `pi_${subscriptionId}_secret_${crypto.randomBytes(6).toString('hex')}` },
    };
  }

  function expandSubscription(subscription: Record<string, any>, expand: string[]) {
    const copy = structuredClone(subscription);
    if (expand.includes('latest_invoice') || expand.includes('latest_invoice.confirmation_secret')) {
      copy.latest_invoice = invoiceFor(subscription.id);
      copy.latest_invoice.confirmation_secret.client_secret = `pi_${subscription.id}_secret_fixed`;
    }
    return copy;
  }

  fake.invoiceFor = invoiceFor;
  fake.event = (type, object, created = now()) => ({
    id: newId('evt'),
    object: 'event',
    api_version: '2025-10-29.clover',
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: structuredClone(object) },
  });
  fake.sign = (event, secret = fake.webhookSecret) => {
    const body = JSON.stringify(event);
    return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) };
  };
  fake.deliver = async (event) => {
    if (!fake.webhookUrl) throw new Error('fake Stripe: no webhookUrl');
    const { body, signature } = fake.sign(event);
    return fetch(fake.webhookUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body });
  };
  fake.updateSubscription = (id, changes) => {
    const subscription = fake.subscriptions.get(id);
    if (!subscription) throw new Error(`fake Stripe: no subscription ${id}`);
    const { current_period_end, ...rest } = changes;
    Object.assign(subscription, rest);
    if (current_period_end !== undefined) subscription.items.data[0].current_period_end = current_period_end;
    return structuredClone(subscription);
  };
  fake.completeCheckout = async (sessionId) => {
    const session = fake.checkoutSessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no checkout session ${sessionId}`);
    if (!session.subscription) {
      const subscription = subscriptionObject(session.customer, session.line_items[0].price, session.subscription_data?.metadata ?? {}, 'active');
      session.subscription = subscription.id;
      session.status = 'complete';
      session.payment_status = 'paid';
    }
    const subscription = fake.subscriptions.get(session.subscription)!;
    const events = [
      fake.event('customer.subscription.created', subscription),
      fake.event('invoice.paid', { ...invoiceFor(subscription.id), status: 'paid' }),
      fake.event('checkout.session.completed', session),
    ];
    fake.sentEvents.push(...events);
    if (!fake.holdWebhooks && fake.webhookUrl) for (const event of events) await fake.deliver(event);
    return events;
  };

  async function api(method: string, path: string, query: URLSearchParams, body: Record<string, any>): Promise<[number, unknown]> {
    const fromQuery = parseStripeForm(query.toString());
    const expand: string[] = [...(body.expand ?? []), ...(fromQuery.expand ?? [])];
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: newId('cus'), object: 'customer', email: body.email ?? null, name: body.name ?? null, metadata: body.metadata ?? {} };
      fake.customers.set(customer.id, customer);
      return [200, customer];
    }
    if (method === 'POST' && path === '/v1/products') {
      const product = { id: newId('prod'), object: 'product', name: body.name, active: true };
      fake.products.set(product.id, product);
      return [200, product];
    }
    if (method === 'POST' && path === '/v1/prices') {
      if (!fake.products.has(body.product)) return [400, { error: { type: 'invalid_request_error', message: `No such product: '${body.product}'` } }];
      const price = {
        id: newId('price'),
        object: 'price',
        product: body.product,
        currency: body.currency,
        unit_amount: Number(body.unit_amount),
        tax_behavior: body.tax_behavior ?? 'unspecified',
        recurring: { interval: body.recurring?.interval ?? 'month', interval_count: 1 },
        type: 'recurring',
      };
      fake.prices.set(price.id, price);
      return [200, price];
    }
    if (method === 'POST' && path === '/v1/subscriptions') {
      if (!fake.customers.has(body.customer)) return [400, { error: { type: 'invalid_request_error', message: `No such customer: '${body.customer}'` } }];
      const subscription = subscriptionObject(body.customer, body.items?.[0]?.price, body.metadata ?? {}, 'incomplete');
      return [200, expandSubscription(subscription, expand)];
    }
    if ((match = /^\/v1\/subscriptions\/([\w]+)$/.exec(path))) {
      const subscription = fake.subscriptions.get(match[1]);
      if (!subscription) return [404, { error: { type: 'invalid_request_error', message: `No such subscription: '${match[1]}'` } }];
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
        return [200, expandSubscription(subscription, expand)];
      }
      if (method === 'DELETE') {
        subscription.status = subscription.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
        return [200, expandSubscription(subscription, expand)];
      }
      return [200, expandSubscription(subscription, expand)];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = newId('cs_test');
      const session: Record<string, any> = {
        id,
        object: 'checkout.session',
        mode: body.mode,
        customer: body.customer,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        line_items: body.line_items,
        subscription_data: body.subscription_data,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        url: `${fake.url}/checkout/${id}`,
      };
      fake.checkoutSessions.set(id, session);
      return [200, publicSession(session, expand)];
    }
    if (method === 'GET' && (match = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(path))) {
      const session = fake.checkoutSessions.get(match[1]);
      if (!session) return [404, { error: { type: 'invalid_request_error', message: 'No such checkout.session' } }];
      return [200, publicSession(session, expand)];
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!fake.customers.has(body.customer)) return [400, { error: { type: 'invalid_request_error', message: 'No such customer' } }];
      const id = newId('bps');
      return [200, { id, object: 'billing_portal.session', customer: body.customer, return_url: body.return_url, url: `${fake.url}/portal/${id}?return=${encodeURIComponent(body.return_url)}` }];
    }
    return [404, { error: { type: 'invalid_request_error', message: `fake Stripe: unknown call ${method} ${path}` } }];
  }

  function publicSession(session: Record<string, any>, expand: string[]) {
    const { line_items: _items, subscription_data: _data, ...rest } = session;
    const copy = structuredClone(rest);
    if (expand.includes('subscription') && session.subscription) copy.subscription = structuredClone(fake.subscriptions.get(session.subscription));
    return copy;
  }

  function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => resolve(Buffer.concat(chunks).toString()));
      req.on('error', reject);
    });
  }

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body = await readBody(req);
      if (url.pathname.startsWith('/v1/')) {
        fake.calls.push(`${req.method} ${url.pathname}`);
        if (fake.stall) {
          stalled.add(res);
          return;
        }
        if (req.headers.authorization !== `Bearer ${fake.secretKey}`) {
          res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
          return;
        }
        const key = req.headers['idempotency-key'];
        const cacheKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname}\0${key}` : null;
        const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
        if (cached) {
          res.writeHead(cached.status, { 'Content-Type': 'application/json', 'Idempotent-Replayed': 'true' }).end(cached.body);
          return;
        }
        const [status, answer] = await api(req.method ?? 'GET', url.pathname, url.searchParams, parseStripeForm(body));
        const text = JSON.stringify(answer);
        if (cacheKey && status < 500) idempotent.set(cacheKey, { status, body: text });
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': newId('req') }).end(text);
        return;
      }
      let match: RegExpExecArray | null;
      if ((match = /^\/checkout\/([\w]+)$/.exec(url.pathname)) && req.method === 'GET') {
        const session = fake.checkoutSessions.get(match[1]);
        if (!session) return void res.writeHead(404).end('no session');
        const price = fake.prices.get(session.line_items?.[0]?.price);
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="de"><head><title>Fake Checkout</title></head><body>
<h1>Fake Stripe Checkout</h1><p data-amount>${price ? price.unit_amount : ''} ${price ? price.currency : ''}</p>
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Bezahlen</button></form>
<a href="${session.cancel_url}">Zurück</a></body></html>`);
        return;
      }
      if ((match = /^\/checkout\/([\w]+)\/pay$/.exec(url.pathname)) && req.method === 'POST') {
        const session = fake.checkoutSessions.get(match[1]);
        if (!session) return void res.writeHead(404).end('no session');
        await fake.completeCheckout(session.id);
        res.writeHead(303, { Location: String(session.success_url).replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
        return;
      }
      if (url.pathname === '/stripe.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }).end(STUB_STRIPE_JS.replace('__FAKE__', fake.url));
        return;
      }
      if (url.pathname === '/test/confirm' && req.method === 'POST') {
        // The stub Stripe.js confirms here: the subscription is paid, the webhooks go out.
        const secret = String((JSON.parse(body || '{}') as { clientSecret?: string }).clientSecret ?? '');
        const subscriptionId = /^pi_(sub_[0-9a-f]+)_secret_/.exec(secret)?.[1];
        const subscription = subscriptionId ? fake.subscriptions.get(subscriptionId) : undefined;
        const cors = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };
        if (!subscription) return void res.writeHead(400, cors).end(JSON.stringify({ status: 'requires_payment_method' }));
        subscription.status = 'active';
        const events = [fake.event('invoice.paid', { ...invoiceFor(subscription.id), status: 'paid' }), fake.event('customer.subscription.updated', subscription)];
        fake.sentEvents.push(...events);
        if (!fake.holdWebhooks && fake.webhookUrl) for (const event of events) await fake.deliver(event);
        res.writeHead(200, cors).end(JSON.stringify({ status: 'succeeded' }));
        return;
      }
      if ((match = /^\/portal\/([\w]+)$/.exec(url.pathname))) {
        const back = url.searchParams.get('return') ?? '/';
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><html lang="de"><head><title>Fake Portal</title></head><body><h1>Fake Stripe Kundenportal</h1><a href="${back}">Zurück</a></body></html>`);
        return;
      }
      res.writeHead(404).end('not found');
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
