import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '../../app/entities';
import { hashPassword } from '../../app/models/users.server';
import { rawRequest } from './http';
import { sessionCookieOf, startTestServer, type TestServer } from './server';

/**
 * Fuzzes every form and API route of the real server with wrong methods,
 * content types, NUL bytes, oversized and wrongly typed values, broken bodies
 * and hostile headers, with and without a session. Nothing may answer 5xx.
 *
 * A new route joins by adding one row to ROUTES: its path, the method(s) it
 * really takes, sample fields (every mutation is derived from them) and
 * `signedIn: true` when it behaves differently for a signed-in user (then
 * every request is sent with and without the session).
 */
type Route = {
  path: string;
  methods: string[];
  fields: Record<string, string>;
  signedIn?: boolean;
  /** JSON-only values (lists, objects): sent as given, wrongly typed, with every part of their items wrong, and 1,000 times over. */
  json?: Record<string, unknown>;
};

const ROUTES: Route[] = [
  // Pages (forms)
  { path: '/auth', methods: ['GET', 'POST'], fields: { intent: 'login', email: 'fuzz@example.de', password: 'Fuzz-Passwort-1', redirectTo: '/calculator' } },
  { path: '/auth?tab=register', methods: ['POST'], fields: { intent: 'register', email: 'neu@example.de', password: 'Fuzz-Passwort-1', confirmPassword: 'Fuzz-Passwort-1', firstName: 'F', lastName: 'Z' } },
  { path: '/auth?resend', methods: ['POST'], fields: { intent: 'resend', email: 'fuzz@example.de' } },
  { path: '/forgot-password', methods: ['GET', 'POST'], fields: { email: 'fuzz@example.de' } },
  { path: '/reset-password?token=abc', methods: ['GET', 'POST'], fields: { token: 'a'.repeat(43), password: 'Fuzz-Passwort-2', confirmPassword: 'Fuzz-Passwort-2' } },
  { signedIn: true, path: '/kontakt', methods: ['GET', 'POST'], fields: { name: 'Fuzz', email: 'fuzz@example.de', subject: 'Test', message: 'Hallo', website: '' } },
  { path: '/cookie-consent', methods: ['POST'], fields: { intent: 'save', analytics: 'on', redirectTo: '/' } },
  { signedIn: true, path: '/profile', methods: ['GET', 'POST'], fields: { intent: 'updateProfile', firstName: 'F', lastName: 'Z', email: 'fuzz@example.de' } },
  { signedIn: true, path: '/profile?password', methods: ['POST'], fields: { intent: 'changePassword', currentPassword: 'x', newPassword: 'Fuzz-Passwort-3', confirmPassword: 'Fuzz-Passwort-3' } },
  // Meine Standardwerte (issue 24 §4).
  { signedIn: true, path: '/profile?standardwerte', methods: ['POST'], fields: { intent: 'saveCalculatorDefaults', hourlyRate: '22,50', profitMargin: '35', vatPercent: '19', failureRate: '5', smallBusiness: 'on', defaultPrinter: '00000000-0000-4000-8000-000000000000', defaultMarketplace: '' } },
  { signedIn: true, path: '/logout', methods: ['GET', 'POST'], fields: {} },
  { signedIn: true, path: '/calculator', methods: ['GET'], fields: { filamentWeight: '25', printTime: '3,5', quantity: '1' } },
  { path: '/calculator/export', methods: ['GET'], fields: { filamentWeight: '25' } },
  { signedIn: true, path: '/calculator?project=00000000-0000-4000-8000-000000000000', methods: ['GET', 'POST'], fields: { intent: 'save', projectName: 'Fuzz', filamentWeight: '25', project: '00000000-0000-4000-8000-000000000000' } },
  { signedIn: true, path: '/projects?q=fuzz&page=2&loeschen=x', methods: ['GET', 'POST'], fields: { intent: 'copy', id: '00000000-0000-4000-8000-000000000000', q: 'fuzz', page: '1' } },
  // Issue 24 §4: the list's order (kept by its forms) and the CSV export.
  { signedIn: true, path: '/projects?sort=price-desc&q=fuzz', methods: ['GET', 'POST'], fields: { intent: 'delete', id: '00000000-0000-4000-8000-000000000000', sort: 'price' } },
  { signedIn: true, path: '/projects.csv', methods: ['GET'], fields: {} },
  { path: '/verify-email?token=abc', methods: ['GET'], fields: {} },
  { path: '/auth/link', methods: ['GET', 'POST'], fields: { intent: 'send', email: 'fuzz@example.de' } },
  { path: '/auth/link?token=abc', methods: ['GET', 'POST'], fields: { intent: 'signIn', token: 'a'.repeat(43) } },
  // Quotes (issue 26): pages
  { signedIn: true, path: '/profile?geschaeftsdaten', methods: ['POST'], fields: { intent: 'saveBusinessDetails', businessName: 'Fuzz', address: 'Weg 1', email: 'fuzz@example.de', smallBusiness: 'on', validityDays: '14', closingText: 'Danke' } },
  { signedIn: true, path: '/profile?logo', methods: ['POST'], fields: { intent: 'uploadLogo', image: '\u0089PNG\r\n\u001a\nkein Bild' } },
  { signedIn: true, path: '/profile?geschaeftsdaten-logo', methods: ['POST'], fields: { intent: 'removeLogo' } },
  { signedIn: true, path: '/angebote?q=fuzz&status=draft&page=2', methods: ['GET', 'POST'], fields: { intent: 'copy', id: '00000000-0000-4000-8000-000000000000', q: 'fuzz', status: 'draft', page: '1' } },
  { signedIn: true, path: '/angebote/neu?project=00000000-0000-4000-8000-000000000000', methods: ['GET', 'POST'], fields: { projectId: '00000000-0000-4000-8000-000000000000', customerName: 'Fuzz', customerAddress: 'Weg 1', customerEmail: 'fuzz@example.de' } },
  { signedIn: true, path: '/angebote/00000000-0000-4000-8000-000000000000', methods: ['GET', 'POST'], fields: { intent: 'save', customerName: 'Fuzz', quoteDate: '2026-11-26', validUntil: '2026-12-10', 'lines[0].description': 'Fuzz', 'lines[0].quantity': '1', 'lines[0].unitPrice': '1,50', 'lines[0].vatRate': '19', discountPercent: '0' } },
  { signedIn: true, path: '/angebote/00000000-0000-4000-8000-000000000000?druck', methods: ['GET', 'POST'], fields: { intent: 'send', to: 'fuzz@example.de', subject: 'Angebot', message: 'Hallo' } },
  { signedIn: true, path: '/angebote/not-a-uuid', methods: ['GET', 'POST'], fields: { intent: 'setStatus', status: 'accepted' } },
  { signedIn: true, path: '/angebote/00000000-0000-4000-8000-000000000000.pdf', methods: ['GET'], fields: {} },
  // JSON API (spec §7)
  { path: '/api/auth/login', methods: ['POST'], fields: { email: 'fuzz@example.de', password: 'Fuzz-Passwort-1' } },
  { path: '/api/auth/register', methods: ['POST'], fields: { email: 'neu2@example.de', password: 'Fuzz-Passwort-1', confirmPassword: 'Fuzz-Passwort-1', firstName: 'F', lastName: 'Z' } },
  { signedIn: true, path: '/api/auth/logout', methods: ['POST'], fields: {} },
  { path: '/api/auth/forgot-password', methods: ['POST'], fields: { email: 'fuzz@example.de' } },
  { path: '/api/auth/reset-password', methods: ['POST'], fields: { token: 'a'.repeat(43), password: 'Fuzz-Passwort-2', confirmPassword: 'Fuzz-Passwort-2' } },
  { path: '/api/auth/resend-verification', methods: ['POST'], fields: { email: 'fuzz@example.de' } },
  { path: '/api/auth/verify-email?token=abc', methods: ['GET'], fields: {} },
  { path: '/api/auth/login-link', methods: ['POST'], fields: { email: 'fuzz@example.de' } },
  { path: '/api/auth/login-link/verify', methods: ['POST'], fields: { token: 'a'.repeat(43) } },
  { signedIn: true, path: '/api/auth/user', methods: ['GET'], fields: {} },
  { path: '/api/login?redirectTo=/profile', methods: ['GET'], fields: {} },
  { path: '/api/contact', methods: ['POST'], fields: { name: 'Fuzz', email: 'fuzz@example.de', subject: 'Test', message: 'Hallo' } },
  { signedIn: true, path: '/api/profile', methods: ['PUT'], fields: { firstName: 'F', lastName: 'Z', email: 'fuzz@example.de' } },
  { signedIn: true, path: '/api/profile/password', methods: ['PUT'], fields: { currentPassword: 'x', newPassword: 'Fuzz-Passwort-3', confirmPassword: 'Fuzz-Passwort-3' } },
  { signedIn: true, path: '/api/profile/image', methods: ['PUT'], fields: { imageUrl: '/uploads/profile/x/y' } },
  { signedIn: true, path: '/api/profile/upload-url', methods: ['POST'], fields: {} },
  { signedIn: true, path: '/api/profile/email', methods: ['DELETE'], fields: {} },
  { signedIn: true, path: '/api/profile', methods: ['DELETE'], fields: { currentPassword: 'nicht-das-passwort' } },
  { signedIn: true, path: '/api/profile/export', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/profile?konto', methods: ['POST'], fields: { intent: 'deleteAccount', currentPassword: 'nicht-das-passwort' } },
  // Admin (issue 20): the fuzzer's user is no admin, so these are refused (403) before anything is saved.
  { signedIn: true, path: '/admin?tab=email', methods: ['GET', 'POST'], fields: { intent: 'save', tab: 'email', host: 'smtp.example.de', port: '587', user: 'u', password: 'p', fromEmail: 'a@example.de', fromName: 'X' } },
  { signedIn: true, path: '/admin?tab=users&q=x&seite=2', methods: ['GET', 'POST'], fields: { intent: 'deleteUser', id: '00000000-0000-4000-8000-000000000000' } },
  { signedIn: true, path: '/api/admin/settings', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/api/admin/settings/stripe', methods: ['POST'], fields: { publicKey: 'pk', secretKey: 'sk', productId: 'p', webhookSecret: 'w', monthlyPrice: '399' } },
  { signedIn: true, path: '/api/admin/settings/email/test', methods: ['POST'], fields: {} },
  { signedIn: true, path: '/api/admin/settings/email/send-test', methods: ['POST'], fields: { testEmail: 'test@example.de' } },
  { signedIn: true, path: '/api/admin/users?search=x&page=2', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/api/admin/users/00000000-0000-4000-8000-000000000000', methods: ['DELETE'], fields: {} },
  // Libraries: pages (forms) and JSON API, one row per kind
  ...(
    [
      ['/printers', '/api/printers', { name: 'Fuzz', brand: 'B', wattage: '200', cost: '300', lifetimeHours: '3000', electricityRate: '0,32' }],
      ['/filaments', '/api/filaments', { name: 'Fuzz', brand: 'B', material: 'PLA', color: 'Rot', pricePerKg: '25' }],
      ['/packaging', '/api/packaging', { name: 'Fuzz', type: 'box', cost: '0,5' }],
      ['/shipping', '/api/shipping-providers', { name: 'Fuzz', baseCost: '4,95' }],
      ['/marketplaces', '/api/marketplaces', { name: 'Fuzz', percentageFee: '0,065', fixedFee: '0,3' }],
    ] as const
  ).flatMap(([page, api, fields]): Route[] => [
    { signedIn: true, path: page, methods: ['GET', 'POST'], fields: { intent: 'save', ...fields } },
    { signedIn: true, path: `${page}?delete=00000000-0000-0000-0000-000000000000`, methods: ['POST'], fields: { intent: 'delete', id: 'x' } },
    { signedIn: true, path: api, methods: ['GET', 'POST'], fields },
    { signedIn: true, path: `${api}/00000000-0000-0000-0000-000000000000`, methods: ['GET', 'PUT', 'DELETE'], fields },
    { signedIn: true, path: `${api}/not-a-uuid`, methods: ['PUT'], fields },
  ]),
  { signedIn: true, path: '/api/projects', methods: ['GET', 'POST'], fields: { name: 'Fuzz', quantity: '1', filamentWeight: '25', printTime: '2', marketplaceFeePercentage: '5' } },
  { signedIn: true, path: '/api/projects/00000000-0000-4000-8000-000000000000', methods: ['GET', 'PUT', 'DELETE'], fields: { name: 'Fuzz', quantity: '1' } },
  // Issue 23: filament lines in the §7 payload and in the calculator's form and links.
  ...['/api/projects', '/api/projects/00000000-0000-4000-8000-000000000000'].map((path): Route => ({
    signedIn: true,
    path,
    methods: path === '/api/projects' ? ['POST'] : ['PUT'],
    fields: { name: 'Fuzz', quantity: '1' },
    json: { filaments: [{ filamentId: '00000000-0000-4000-8000-000000000000', label: 'Rot', grams: 10, pricePerKg: 20 }, { grams: '5,5', pricePerKg: 30 }] },
  })),
  {
    signedIn: true,
    path: '/calculator',
    methods: ['GET', 'POST'],
    fields: { intent: 'save', projectName: 'Fuzz', filamentLabel: 'Rot', filamentWeight2: '5,5', filamentPricePerKg2: '30', filamentLabel2: 'Blau', selectedFilament2: '00000000-0000-4000-8000-000000000000', filamentWeight16: '1', filamentLines: '2' },
  },
  // The line count of a link and a one-filament import's material, a .gcode.3mf's unknown purge (issue 23).
  {
    signedIn: true,
    path: '/calculator',
    methods: ['GET'],
    fields: { project: '00000000-0000-4000-8000-000000000000', filamentLines: '1', slicer: 'Bambu Studio', slicerGrams: '12.5', slicerSeconds: '60', slicerFilament: 'PLA:FFFFFF:Bambu Lab', slicerPurgeUnknown: '1' },
  },
  { path: '/calculator/export', methods: ['GET'], fields: { filamentWeight2: '5', filamentPricePerKg2: '30', filamentLabel2: 'Blau' } },
  { signedIn: true, path: '/api/images/upload', methods: ['POST'], fields: { image: 'kein Bild' } },
  // Quotes (issue 26)
  { signedIn: true, path: '/api/quotes', methods: ['GET', 'POST'], fields: { projectId: '00000000-0000-4000-8000-000000000000', customerName: 'Fuzz', customerEmail: 'fuzz@example.de' } },
  { signedIn: true, path: '/api/quotes/00000000-0000-4000-8000-000000000000', methods: ['GET', 'PUT', 'DELETE'], fields: { customerName: 'Fuzz', quoteDate: '2026-11-26', validUntil: '2026-12-10', lines: '[]', discountPercent: '10' }, json: { lines: [{ kind: 'product', description: 'Fuzz', quantity: 1, unitPrice: 1.5, vatRate: 19 }] } },
  { signedIn: true, path: '/api/quotes/not-a-uuid', methods: ['PUT'], fields: { customerName: 'Fuzz' } },
  { signedIn: true, path: '/api/quotes/00000000-0000-4000-8000-000000000000/pdf', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/api/quotes/00000000-0000-4000-8000-000000000000/send', methods: ['POST'], fields: { to: 'fuzz@example.de', subject: 'Angebot', message: 'Hallo' } },
  // Slicer import (streamed multipart; open to visitors)
  { path: '/calculator/slicer-import', methods: ['GET', 'POST'], fields: { file: '; filament used [g] = 12.5', filamentWeight: '25', printTime: '2' } },
  { path: '/api/slicer/parse', methods: ['POST'], fields: { file: '; filament used [g] = 12.5' } },
  // The calculator's own post: save, product image upload and removal
  { signedIn: true, path: '/calculator', methods: ['POST'], fields: { intent: 'save', projectName: 'Fuzz', filamentWeight: '25', printTime: '2', quantity: '1' } },
  // Premium and ads (issue 21): the page's forms, the JSON API, Stripe's webhook
  { signedIn: true, path: '/premium', methods: ['GET', 'POST'], fields: { intent: 'checkout' } },
  { signedIn: true, path: '/premium?kuendigen=1&checkout=success&session_id=cs_test_x', methods: ['GET', 'POST'], fields: { intent: 'cancel' } },
  { path: '/api/stripe/webhook', methods: ['POST'], fields: { id: 'evt_fuzz', type: 'customer.subscription.updated', created: '1' } },
  { path: '/api/stripe/public-key', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/api/subscription/status', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/api/subscription/create', methods: ['POST'], fields: {} },
  { signedIn: true, path: '/api/subscription/cancel', methods: ['POST'], fields: {} },
  { path: '/api/google-ads-config', methods: ['GET'], fields: {} },
  // Files
  { path: '/uploads/profile/00000000-0000-0000-0000-000000000000/abc?expires=1&ct=image%2Fjpeg&signature=x', methods: ['PUT'], fields: {} },
  { signedIn: true, path: '/images/profile/00000000-0000-0000-0000-000000000000/abc', methods: ['GET'], fields: {} },
  { signedIn: true, path: '/images/product/00000000-0000-4000-8000-000000000000/0123456789abcdef0123456789abcdef', methods: ['GET'], fields: {} },
  // Unknown API addresses (a JSON 404 for every method, issue 18)
  { signedIn: true, path: '/api/gibt-es-nicht/tief', methods: ['GET', 'POST'], fields: { name: 'Fuzz' } },
  { path: '/sitemap.xml', methods: ['GET'], fields: {} },
  { path: '/healthz', methods: ['GET'], fields: {} },
];

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/json',
  'multipart/form-data; boundary=fuzzboundary',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'text/plain',
  'application/xml',
  'application/json; charset=utf-16',
  'image/jpeg',
  '',
];
const WRONG_TYPES: unknown[] = [1e308, true, null, ['a', 'b'], { nested: { deep: 1 } }];

function encode(contentType: string, fields: Record<string, unknown>): string {
  if (contentType.startsWith('application/json')) return JSON.stringify(fields);
  if (contentType.startsWith('multipart/form-data')) {
    const parts = Object.entries(fields).map(
      ([name, value]) => `--fuzzboundary\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`,
    );
    return `${parts.join('')}--fuzzboundary--\r\n`;
  }
  return new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])).toString();
}

type Case = { method: string; path: string; headers: Record<string, string>; body?: string; signedIn: boolean; label: string };

/** Every request the fuzzer sends, derived from the route table. */
function cases(route: Route): Case[] {
  const out: Case[] = [];
  const add = (label: string, method: string, contentType: string, body: string | undefined, extra: Record<string, string> = {}) => {
    for (const signedIn of route.signedIn ? [false, true] : [false]) {
      const headers: Record<string, string> = { ...extra };
      if (contentType) headers['Content-Type'] = contentType;
      out.push({ method, path: route.path, headers, body, signedIn, label: `${method} ${route.path} ${label} ${contentType}${signedIn ? ' (signed in)' : ''}` });
    }
  };
  const main = route.methods.find((method) => method !== 'GET') ?? 'POST';
  for (const method of METHODS) add(`method`, method, 'application/x-www-form-urlencoded', method === 'GET' || method === 'HEAD' ? undefined : encode('x', route.fields));
  for (const type of CONTENT_TYPES) add('valid fields', main, type, encode(type, route.fields));
  for (const type of CONTENT_TYPES.slice(0, 4)) {
    add('empty body', main, type, '');
    add('garbage body', main, type, '\u0000\u0001{"--fuzzboundary\r\n%%%=&&==');
  }
  const [firstField] = Object.keys(route.fields);
  if (firstField) add(`70 KB ${firstField}`, main, 'application/x-www-form-urlencoded', encode('x', { ...route.fields, [firstField]: 'y'.repeat(70_000) }));
  for (const field of Object.keys(route.fields)) {
    for (const type of ['application/x-www-form-urlencoded', 'application/json', 'multipart/form-data; boundary=fuzzboundary']) {
      add(`NUL in ${field}`, main, type, encode(type, { ...route.fields, [field]: `a\u0000b` }));
    }
    for (const type of ['application/x-www-form-urlencoded', 'application/json']) {
      add(`controls in ${field}`, main, type, encode(type, { ...route.fields, [field]: `\u001b[31m\r\n\u007f` }));
    }
    add(`10 KB ${field}`, main, 'application/x-www-form-urlencoded', encode('x', { ...route.fields, [field]: 'x'.repeat(10_000) }));
    for (const value of WRONG_TYPES) add(`${field}=${JSON.stringify(value).slice(0, 20)}`, main, 'application/json', JSON.stringify({ ...route.fields, [field]: value }));
    add(`duplicate ${field}`, main, 'application/x-www-form-urlencoded', `${encode('x', route.fields)}&${field}=zwei`);
  }
  for (const [name, value] of Object.entries(route.json ?? {})) {
    const json = (v: unknown) => JSON.stringify({ ...route.fields, [name]: v });
    add(`json ${name}`, main, 'application/json', json(value));
    for (const wrong of WRONG_TYPES) {
      add(`json ${name}=${JSON.stringify(wrong).slice(0, 20)}`, main, 'application/json', json(wrong));
      if (Array.isArray(value)) {
        const items = value.map((item) => (typeof item === 'object' && item ? Object.fromEntries(Object.keys(item).map((key) => [key, wrong])) : wrong));
        add(`json ${name} parts=${JSON.stringify(wrong).slice(0, 20)}`, main, 'application/json', json(items));
      }
    }
    if (Array.isArray(value)) add(`json ${name} ×1000`, main, 'application/json', json(Array.from({ length: 1000 }, () => value[0])));
  }
  for (const body of ['[]', '"text"', '12', 'null', '{"a":' + '['.repeat(5000), '{"__proto__":{"admin":1}}']) add(`json ${body.slice(0, 10)}`, main, 'application/json', body);
  add('declared huge body', main, 'application/json', '{}', { 'Content-Length': String(300 * 1024 * 1024) });
  add('bad host', 'GET', '', undefined, { Host: 'exa mple:99999' });
  add('forwarded junk', main, 'application/x-www-form-urlencoded', encode('x', route.fields), { 'X-Forwarded-Host': '\u00ff:99999999', 'X-Forwarded-Proto': 'gopher', 'X-Forwarded-For': 'not-an-ip' });
  add('bad cookie', 'GET', '', undefined, { Cookie: '__session=%E0%A4%A; __toast=\u00ff\u00fe; cookie_consent=%7B; __device=%E0%A4%A' });
  add('bad device cookie', main, 'application/x-www-form-urlencoded', encode('x', route.fields), { Cookie: '__device=%E0%A4%A.x; __device=W1siYSIsImIiXV0%3D.forged' });
  add('bad query', 'GET', '', undefined, {});
  // Conform's reserved names with broken values (its parser threw on them) and a hand-made Remix data request.
  add('conform reserved names', main, 'application/x-www-form-urlencoded', `${encode('x', route.fields)}&__intent__=%7B&__state__=%7B`);
  add('legacy data request', main, 'application/x-www-form-urlencoded', encode('x', route.fields));
  const query = (item: Case, extra: string) => ({ ...item, path: `${item.path}${item.path.includes('?') ? '&' : '?'}${extra}` });
  return out.map((item) =>
    item.label.includes('bad query')
      ? query(item, `redirectTo=%E0%A4%A&token=%00&x=${'%'.repeat(3)}`)
      : item.label.includes('legacy data request')
        ? query(item, '_data=root')
        : item,
  );
}

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  // Lower limits: refused requests are cheap, so bcrypt runs a few dozen times, not hundreds.
  server = await startTestServer('sec_fuzz', { RATE_LIMIT_FACTOR: '0.2' });
  const email = `fuzz.${crypto.randomBytes(4).toString('hex')}@example.de`;
  const em = server.orm.em.fork();
  em.create(User, { email, password: await hashPassword('Fuzz-Passwort-1'), emailVerified: true, firstName: 'Fuzz', lastName: 'Test' });
  await em.flush();
  const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: 'Fuzz-Passwort-1' }) });
  cookie = sessionCookieOf(login);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe('fuzz: every form and API route', () => {
  it('answers no request with a 5xx', async () => {
    const all = ROUTES.flatMap(cases).filter((item) => !(item.signedIn && /\/(logout|api\/auth\/logout)/.test(item.path)));
    const failures: string[] = [];
    let sent = 0;
    let next = 0;
    // Sign-out routes run last, so the session survives the rest.
    const ordered = [...all, ...ROUTES.filter((route) => /logout/.test(route.path)).flatMap(cases).filter((item) => item.signedIn)];
    const worker = async () => {
      while (next < ordered.length) {
        const item = ordered[next++];
        const headers = { Origin: server.url, ...item.headers, ...(item.signedIn ? { Cookie: item.headers.Cookie ?? cookie } : {}) };
        try {
          const response = await rawRequest(server.url, { method: item.method, path: item.path, headers, body: item.body });
          sent++;
          if (response.status >= 500) failures.push(`${response.status} ${item.label}: ${response.body.toString().slice(0, 200)}`);
          // Remix's own English answers of a resource route (a missing loader or action) never reach a client.
          // (A page's error page is German; its hydration data may carry Remix's text, which nobody sees.)
          else if (!String(response.headers['content-type']).startsWith('text/html') && /Unexpected Server Error|did not provide/.test(response.body.toString())) {
            failures.push(`English Remix answer ${response.status} ${item.label}`);
          }
        } catch (error) {
          // The server may close the connection after refusing a body it will not read.
          if (!item.label.includes('declared huge body')) failures.push(`connection error ${item.label}: ${(error as Error).message}`);
          else sent++;
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    console.log(`[fuzz] ${sent} requests, ${failures.length} failures${failures.length ? `:\n${failures.join("\n")}` : ""}`);
    expect(failures).toEqual([]);
    expect(sent).toBe(ordered.length);
  }, 240_000);
});
