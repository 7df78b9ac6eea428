import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { BusinessDetails, MailOutbox, Project, Quote, User } from '../../app/entities';
import { deliverPendingMails } from '../../app/services/mail.server';
import { consumeRateLimit } from '../../app/services/rate-limit.server';
import { createQuote, deleteQuotesOfUser, exportQuotesOfUser, quotePdf, saveBusinessDetails, setQuoteStatus } from '../../app/models/quotes.server';
import type { UserContext } from '../../app/services/request-context.server';
import { loader as listLoader, action as listAction } from '../../app/routes/api+/quotes';
import { loader as oneLoader, action as oneAction } from '../../app/routes/api+/quotes.$id';
import { loader as pdfLoader } from '../../app/routes/api+/quotes.$id.pdf';
import { action as sendAction } from '../../app/routes/api+/quotes.$id.send';
import { loader as pagePdfLoader } from '../../app/routes/_account+/angebote.$id[.pdf]';
import { action as projectsAction } from '../../app/routes/api+/projects';
import { apiRequest, call, randomIp, signedInUser, useAuthTestApp, type Handler } from '../setup/auth-app';
import { useTestSmtpServer } from '../setup/smtp-server';

const app = useAuthTestApp('quotes');
const mailServer = useTestSmtpServer();

async function saveDetails(user: User) {
  await saveBusinessDetails(contextOf(user), {
    businessName: 'Testdruck', address: 'Weg 1\n12345 Ort', email: 'angebote@testdruck.example',
    phone: null, taxId: null, smallBusiness: false, bankDetails: null, validityDays: 14, closingText: '',
  });
}

async function seller({ premium = false } = {}) {
  const { user, cookie } = await signedInUser(app.orm, { premium });
  const ip = randomIp();
  return { user, cookie, ip };
}

const projectPayload = {
  name: 'Drachenfigur groß',
  quantity: 2,
  filamentWeight: 120,
  filamentPricePerKg: 25,
  printTime: 6,
  printerWattage: 150,
  electricityRate: 0.35,
  preparationTime: 15,
  postProcessingTime: 20,
  hourlyRate: 25,
  packagingCost: 1,
  shippingCost: 5.49,
  marketplaceFeePercentage: 0,
  marketplaceFeeFixed: 0,
  profitMargin: 30,
  targetPrice: 0,
  printerCost: 600,
  printerLifetimeHours: 5000,
};

const api = {
  createProject: async (cookie: string, body: unknown = projectPayload) => {
    const response = await call(projectsAction as Handler, apiRequest('/api/projects', 'POST', body, { cookie }));
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string };
  },
  list: (cookie: string) => call(listLoader as Handler, apiRequest('/api/quotes', 'GET', undefined, { cookie })),
  create: (cookie: string, body: unknown) => call(listAction as Handler, apiRequest('/api/quotes', 'POST', body, { cookie })),
  get: (cookie: string, id: string) => call(oneLoader as Handler, apiRequest(`/api/quotes/${id}`, 'GET', undefined, { cookie }), { id }),
  put: (cookie: string, id: string, body: unknown) => call(oneAction as Handler, apiRequest(`/api/quotes/${id}`, 'PUT', body, { cookie }), { id }),
  delete: (cookie: string, id: string) => call(oneAction as Handler, apiRequest(`/api/quotes/${id}`, 'DELETE', undefined, { cookie }), { id }),
  pdf: (cookie: string, id: string) => call(pdfLoader as Handler, apiRequest(`/api/quotes/${id}/pdf`, 'GET', undefined, { cookie }), { id }),
  send: (cookie: string, id: string, body: unknown, ip = '127.0.0.1') =>
    call(sendAction as Handler, apiRequest(`/api/quotes/${id}/send`, 'POST', body, { cookie, ip }), { id }),
};

async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

function contextOf(user: User, now = new Date()): UserContext {
  return { em: app.em(), user, sessionId: '', ip: '127.0.0.1', now, hasSession: true, privateResponse: true } as UserContext;
}

const draftBody = (overrides: Record<string, unknown> = {}) => ({
  customerName: 'Erika Mustermann',
  customerAddress: 'Hauptstraße 1\n12345 Musterstadt',
  customerEmail: 'erika@example.de',
  quoteDate: '2026-11-26',
  validUntil: '2026-12-10',
  lines: [
    { kind: 'product', description: 'Drachenfigur groß', quantity: 2, unitPrice: '24,99', vatRate: 19 },
    { kind: 'shipping', description: 'Versand DHL Paket', quantity: 1, unitPrice: 5.49, vatRate: 19 },
    { kind: 'free', description: 'Fachbuch Drachen', quantity: 1, unitPrice: '10,70', vatRate: 7 },
  ],
  discountPercent: '10',
  closingText: 'Wir freuen uns auf Ihren Auftrag.',
  ...overrides,
});

describe('quotes JSON API (issue 26 §4)', () => {
  it('POST { projectId, customerName } makes a numbered draft priced by the engine; GET, PUT, DELETE work on it', async () => {
    const { cookie } = await seller();
    const project = await api.createProject(cookie);
    const created = await api.create(cookie, { projectId: project.id, customerName: 'Erika Mustermann' });
    expect(created.status).toBe(201);
    const quote = await created.json();
    const year = new Date().getFullYear();
    expect(quote).toMatchObject({ number: `A-${year}-0001`, status: 'draft', customerName: 'Erika Mustermann', projectId: project.id });
    expect(quote.lines).toHaveLength(1);
    expect(quote.lines[0]).toMatchObject({ kind: 'product', description: 'Drachenfigur groß', quantity: 2, vatRate: 19 });
    expect(quote.lines[0].unitPrice).toBeGreaterThan(0);
    expect(quote.totalGross).toBeCloseTo(quote.lines[0].unitPrice * 2, 2);

    const updated = await api.put(cookie, quote.id, draftBody());
    expect(updated.status).toBe(200);
    const body = await updated.json();
    // 2 × 24,99 + 5,49 = 55,47 (19 %), 10,70 (7 %); 10 % off each: 49,92 and 9,63.
    expect(body.totalGross).toBe(59.55);
    expect(body.vat).toEqual([
      { rate: 19, amount: 7.97 },
      { rate: 7, amount: 0.63 },
    ]);
    expect(body.totalNet).toBe(50.95);

    expect((await api.get(cookie, quote.id)).status).toBe(200);
    const listed = await (await api.list(cookie)).json();
    expect(listed.map((q: { id: string }) => q.id)).toEqual([quote.id]);
    expect((await api.delete(cookie, quote.id)).status).toBe(204);
    expect((await api.get(cookie, quote.id)).status).toBe(404);
  });

  it('German 400s for bad input, never a 500', async () => {
    const { cookie } = await seller();
    const project = await api.createProject(cookie);
    const missing = await api.create(cookie, { projectId: project.id });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors.customerName).toEqual(['Bitte ausfüllen.']);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Max' })).json();
    for (const bad of [
      draftBody({ lines: [] }),
      draftBody({ lines: [{ description: 'x', quantity: 0, unitPrice: 1 }] }),
      draftBody({ lines: [{ description: 'x', quantity: 1, unitPrice: '1,234.5' }] }),
      draftBody({ validUntil: '2026-11-01' }),
      draftBody({ quoteDate: '2026-02-30' }),
      draftBody({ customerName: 'a\u0000b' }),
      draftBody({ discountPercent: 150 }),
      draftBody({ customerEmail: 'keine-adresse' }),
      draftBody({ lines: 'nope' }),
    ]) {
      const response = await api.put(cookie, quote.id, bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect((await response.json()).message).toBe('Bitte prüfen Sie Ihre Eingaben.');
    }
    // Huge and odd numbers: the field's German bound, never zod's English "expected number" (1e308 € was one).
    for (const [line, expected] of [
      [{ description: 'x', quantity: 1, unitPrice: 1e308 }, 'Der Preis muss zwischen 0 und 1.000.000 € liegen.'],
      [{ description: 'x', quantity: 1e308, unitPrice: 1 }, 'Die Menge muss eine ganze Zahl zwischen 1 und 100.000 sein.'],
      [{ description: 'x', quantity: 1, unitPrice: 1, vatRate: -1e308 }, 'Der Steuersatz muss zwischen 0 und 100 % liegen.'],
      [7, 'Diese Position ist unvollständig. Bitte prüfen Sie Beschreibung, Menge und Preis.'],
    ] as const) {
      const response = await api.put(cookie, quote.id, draftBody({ lines: [line] }));
      expect(response.status).toBe(400);
      expect((await response.json()).errors, JSON.stringify(line)).toEqual({ lines: [expected] });
    }
    const discount = await api.put(cookie, quote.id, draftBody({ discountPercent: 1e308 }));
    expect((await discount.json()).errors).toEqual({ discountPercent: ['Der Rabatt muss zwischen 0 und 100 % liegen.'] });
    const malformed = await api.put(cookie, quote.id, '{nope');
    expect(malformed.status).toBe(400);
  });

  it("another seller's quote is 404 everywhere (IDOR), and so is another seller's project", async () => {
    const owner = await seller();
    const attacker = await seller();
    const project = await api.createProject(owner.cookie);
    const quote = await (await api.create(owner.cookie, { projectId: project.id, customerName: 'Erika' })).json();
    expect((await api.get(attacker.cookie, quote.id)).status).toBe(404);
    expect((await api.put(attacker.cookie, quote.id, draftBody())).status).toBe(404);
    expect((await api.put(attacker.cookie, quote.id, { bad: true })).status).toBe(404);
    expect((await api.delete(attacker.cookie, quote.id)).status).toBe(404);
    expect((await api.pdf(attacker.cookie, quote.id)).status).toBe(404);
    expect((await api.send(attacker.cookie, quote.id, { to: 'x@example.de', subject: 'S', message: 'M' })).status).toBe(404);
    expect((await api.create(attacker.cookie, { projectId: project.id, customerName: 'Erika' })).status).toBe(404);
    expect(await (await api.list(attacker.cookie)).json()).toEqual([]);
    expect((await api.get(owner.cookie, 'not-a-uuid')).status).toBe(404);
    expect((await api.list('')).status).toBe(401);
    // The owner's quote is untouched.
    expect((await api.get(owner.cookie, quote.id)).status).toBe(200);
  });
});

describe('GET /angebote/<id>.pdf', () => {
  it("an unknown, malformed or someone else's id answers the German 404 page, not the English 'Not Found'", async () => {
    const owner = await seller();
    const project = await api.createProject(owner.cookie);
    const quote = await (await api.create(owner.cookie, { projectId: project.id, customerName: 'Erika' })).json();
    const attacker = await seller();
    const get = (cookie: string, id: string) =>
      call(pagePdfLoader as Handler, apiRequest(`/angebote/${id}.pdf`, 'GET', undefined, { cookie }), { id });
    const mine = await get(owner.cookie, quote.id);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toContain('application/pdf');
    for (const id of [quote.id, '00000000-0000-4000-8000-000000000000', 'kein-angebot']) {
      const response = await get(attacker.cookie, id);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      const body = await response.text();
      expect(body).toContain('Seite nicht gefunden');
      expect(body).toContain('lang="de"');
      expect(body).not.toContain('Not Found');
    }
  });
});

describe('numbering', () => {
  it('parallel saves never share a number; a deleted draft’s number is not reused', async () => {
    const { cookie } = await seller();
    const project = await api.createProject(cookie);
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.create(cookie, { projectId: project.id, customerName: `Kunde ${i}` })),
    );
    const numbers = await Promise.all(responses.map(async (response) => (await response.json()).number as string));
    const year = new Date().getFullYear();
    expect(new Set(numbers).size).toBe(8);
    expect([...numbers].sort()).toEqual(Array.from({ length: 8 }, (_, i) => `A-${year}-${String(i + 1).padStart(4, '0')}`));
    const list = await (await api.list(cookie)).json();
    const eighth = list.find((q: { number: string }) => q.number === `A-${year}-0008`);
    expect((await api.delete(cookie, eighth.id)).status).toBe(204);
    const next = await (await api.create(cookie, { projectId: project.id, customerName: 'Neu' })).json();
    expect(next.number).toBe(`A-${year}-0009`);
  });

  it('numbers restart per year and per seller', async () => {
    const { user, cookie } = await seller();
    const other = await seller();
    const project = await api.createProject(cookie);
    const lateDecember = new Date('2026-12-31T22:30:00Z'); // 23:30 in Berlin: still 2026
    const newYear = new Date('2026-12-31T23:30:00Z'); // 00:30 on 1 January 2027 in Berlin
    const a = await createQuote(contextOf(user, lateDecember), { projectId: project.id, customerName: 'A', customerAddress: null, customerEmail: null });
    const b = await createQuote(contextOf(user, newYear), { projectId: project.id, customerName: 'B', customerAddress: null, customerEmail: null });
    const c = await createQuote(contextOf(user, newYear), { projectId: project.id, customerName: 'C', customerAddress: null, customerEmail: null });
    expect([a, b, c].map((r) => (r.kind === 'ok' ? [r.value.number, r.value.quoteDate] : r.kind))).toEqual([
      ['A-2026-0001', '2026-12-31'],
      ['A-2027-0001', '2027-01-01'],
      ['A-2027-0002', '2027-01-01'],
    ]);
    const otherProject = await api.createProject(other.cookie);
    const theirs = await createQuote(contextOf(other.user, newYear), { projectId: otherProject.id, customerName: 'D', customerAddress: null, customerEmail: null });
    expect(theirs.kind === 'ok' && theirs.value.number).toBe('A-2027-0001');
  });
});

describe('snapshot, PDF, mail', () => {
  it('a quote keeps its figures and seller details when the project and the business details change; its PDF too', async () => {
    const { user, cookie } = await seller();
    await saveBusinessDetails(contextOf(user), {
      businessName: 'Müllers 3D-Druckerei',
      address: 'Werkstraße 5\n80331 München',
      email: 'angebote@mueller-3d.example',
      phone: '089 123456',
      taxId: 'DE123456789',
      smallBusiness: false,
      bankDetails: 'IBAN DE02 1203 0000 0000 2020 51',
      validityDays: 30,
      closingText: 'Mit freundlichen Grüßen',
    });
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Jörg Weiß' })).json();
    await api.put(cookie, quote.id, draftBody({ customerName: 'Jörg Weiß', quoteDate: quote.quoteDate, validUntil: quote.validUntil }));
    const before = await (await api.get(cookie, quote.id)).json();
    const pdfBefore = await pdfText(new Uint8Array(await (await api.pdf(cookie, quote.id)).arrayBuffer()));

    // Change everything the quote came from.
    await app.em().nativeUpdate(Project, { id: project.id }, { name: 'Umbenannt', hourlyRate: 99, quantity: 7 });
    await saveBusinessDetails(contextOf(user), {
      businessName: 'Ganz Anders GmbH',
      address: 'Neue Straße 9\n10115 Berlin',
      email: 'neu@anders.example',
      phone: null,
      taxId: null,
      smallBusiness: true,
      bankDetails: null,
      validityDays: 7,
      closingText: '',
    });

    const after = await (await api.get(cookie, quote.id)).json();
    expect({ ...after, updatedAt: undefined }).toEqual({ ...before, updatedAt: undefined });
    const pdfAfter = await pdfText(new Uint8Array(await (await api.pdf(cookie, quote.id)).arrayBuffer()));
    expect(pdfAfter).toBe(pdfBefore);
    expect(pdfAfter).toContain('Müllers 3D-Druckerei');
    expect(pdfAfter).not.toContain('Ganz Anders');
  });

  it('the PDF: A4, under 100 KB, its text read back shows number, customer, lines, totals, € and umlauts; branding only for free users', async () => {
    for (const premium of [false, true]) {
      const { user, cookie } = await seller({ premium });
      await saveBusinessDetails(contextOf(user), {
        businessName: 'Schöne Drucke', address: 'Straße 1\n12345 Ort', email: 'info@schoene-drucke.example',
        phone: null, taxId: '12/345/67890', smallBusiness: false, bankDetails: null, validityDays: 14, closingText: 'Grüße aus Köln',
      });
      const project = await api.createProject(cookie);
      const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Jörg Weiß' })).json();
      await api.put(cookie, quote.id, draftBody({ customerName: 'Jörg Weiß' }));
      const response = await api.pdf(cookie, quote.id);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('application/pdf');
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.length).toBeLessThan(100 * 1024);
      expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
      const text = await pdfText(bytes);
      for (const expected of [
        quote.number, 'Jörg Weiß', 'Hauptstraße 1', 'Drachenfigur groß', 'Versand DHL Paket', 'Fachbuch Drachen',
        '24,99 €', '49,98 €', 'Rabatt 10 %', 'Summe netto', '50,95 €', 'zzgl. 19 % USt.', '7,97 €', 'zzgl. 7 % USt.', '0,63 €',
        'Gesamtbetrag', '59,55 €', 'Schöne Drucke', 'Wir freuen uns auf Ihren Auftrag.', 'Steuernummer/USt-IdNr.: 12/345/67890',
      ]) {
        expect(text, expected).toContain(expected);
      }
      expect(text.includes('Erstellt mit Druckpreis')).toBe(!premium);
    }
  });

  it('50 lines flow onto more pages; the last line and the total are in the PDF', async () => {
    const { cookie } = await seller();
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Viele Positionen' })).json();
    const lines = Array.from({ length: 50 }, (_, i) => ({ kind: 'free', description: `Position ${i + 1} mit einer längeren Beschreibung, die umbrechen darf`, quantity: 1, unitPrice: '1,00', vatRate: 19 }));
    expect((await api.put(cookie, quote.id, draftBody({ lines, discountPercent: 0 }))).status).toBe(200);
    const response = await api.pdf(cookie, quote.id);
    expect(response.status).toBe(200);
    const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(text).toContain('Position 50 mit');
    expect(text).toContain('50,00 €');
    expect(text).toMatch(/-- 2 of \d+ --/);
  });

  it('a project priced beyond the quote limits gives a line within them, not an error', async () => {
    const { cookie } = await seller();
    const project = await api.createProject(cookie, { ...projectPayload, quantity: 1 });
    // Beyond what the calculator form accepts, as a stored row might hold.
    await app.em().nativeUpdate(Project, { id: project.id }, { hourlyRate: 9_999_999, preparationTime: 99_999 });
    const created = await api.create(cookie, { projectId: project.id, customerName: 'Groß' });
    expect(created.status).toBe(201);
    expect((await created.json()).totalGross).toBeLessThanOrEqual(1_000_000);
  });

  it('§ 19 seller: no VAT line, the note instead', async () => {
    const { user, cookie } = await seller();
    await saveBusinessDetails(contextOf(user), {
      businessName: 'Klein & Fein', address: 'Weg 2\n54321 Dorf', email: 'klein@example.de',
      phone: null, taxId: null, smallBusiness: true, bankDetails: null, validityDays: 14, closingText: '',
    });
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Kunde' })).json();
    expect(quote.lines[0].vatRate).toBe(0);
    expect(quote.vat).toEqual([]);
    const text = await pdfText(new Uint8Array(await (await api.pdf(cookie, quote.id)).arrayBuffer()));
    expect(text).toContain('Gemäß § 19 UStG wird keine Umsatzsteuer berechnet.');
    expect(text).not.toContain('USt.');
    expect(text).not.toContain('Summe netto');
  });

  it('send: the PDF attached through SMTP, Reply-To the seller, status Versendet; then read-only, copyable', async () => {
    const { user, cookie, ip } = await seller();
    await saveBusinessDetails(contextOf(user), {
      businessName: 'Müllers 3D-Druckerei', address: 'Werkstraße 5\n80331 München', email: 'angebote@mueller-3d.example',
      phone: null, taxId: null, smallBusiness: false, bankDetails: null, validityDays: 14, closingText: '',
    });
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
    const before = mailServer.server.messages.length;
    const sent = await api.send(cookie, quote.id, { to: 'erika@kunde.example', subject: `Ihr Angebot ${quote.number}`, message: 'Guten Tag,\nanbei unser Angebot.' }, ip);
    expect(sent.status).toBe(200);
    expect((await sent.json()).status).toBe('sent');
    const row = await app.em().findOneOrFail(MailOutbox, { to: 'erika@kunde.example' });
    expect(row.attachments?.[0]).toMatchObject({ filename: `Angebot-${quote.number}.pdf`, contentType: 'application/pdf' });

    await deliverPendingMails({ em: app.em() });
    await mailServer.server.waitFor(before + 1);
    const mail = mailServer.server.messages[mailServer.server.messages.length - 1];
    expect(mail.envelope.to).toEqual(['erika@kunde.example']);
    // Reply-To: the seller's verified account address, never the unverified business e-mail (phishing).
    expect(mail.header('reply-to')).toContain(user.email);
    expect(mail.header('reply-to')).not.toContain('angebote@mueller-3d.example');
    expect(mail.header('from')).not.toContain('mueller-3d');
    // The fixed line after the seller's free text: who sent it, via Druckpreis, where to report it.
    const sentVia = `Diese E-Mail hat Müllers 3D-Druckerei über Druckpreis versendet (Druckpreis-Konto: ${user.email}). Druckpreis hat ihren Inhalt nicht geprüft. Kommt sie Ihnen verdächtig vor, melden Sie sie bitte:`;
    expect(mail.text.replace(/\s+/g, ' ')).toContain(sentVia);
    expect(mail.text).toMatch(/melden Sie sie bitte: https?:\/\/[^\s]+\/kontakt/);
    expect(mail.text.indexOf('anbei unser Angebot.')).toBeLessThan(mail.text.indexOf('über Druckpreis versendet'));
    expect(mail.subject).toBe(`Ihr Angebot ${quote.number}`);
    expect(mail.text).toContain('anbei unser Angebot.');
    expect(mail.raw).toMatch(/Content-Type: application\/pdf; name=Angebot-A-\d{4}-0001\.pdf/);
    const base64 = /Content-Disposition: attachment; filename=Angebot-[^\r\n]+\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(mail.raw)?.[1];
    const attached = Buffer.from(base64!.replace(/\s/g, ''), 'base64');
    expect(attached.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(new Uint8Array(attached))).toContain(quote.number);
    // Sent: the attachment is no longer kept in the outbox.
    expect((await app.em().findOneOrFail(MailOutbox, { id: row.id })).attachments).toBeNull();

    // Read-only now.
    const edit = await api.put(cookie, quote.id, draftBody());
    expect(edit.status).toBe(403);
    expect((await edit.json()).message).toContain('bereits versendet');
    expect((await api.delete(cookie, quote.id)).status).toBe(403);
  });

  it('an edit racing the send: the mailed PDF is the stored quote; the losing edit is 403 "bereits versendet" (row lock, PostgreSQL)', async () => {
    const { user, cookie } = await seller();
    await saveDetails(user);
    const project = await api.createProject(cookie);
    const outcomes = new Set<number>();
    for (let i = 0; i < 4; i++) {
      const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
      const to = `rennen-edit-${i}-${user.id.slice(0, 8)}@kunde.example`;
      const edit = draftBody({ lines: [{ kind: 'free', description: 'Teurer Teil', quantity: 1, unitPrice: 999, vatRate: 19 }] });
      const [sent, put] = await Promise.all([
        api.send(cookie, quote.id, { to, subject: 'Angebot', message: 'Anbei.' }, randomIp()),
        api.put(cookie, quote.id, edit),
      ]);
      expect(sent.status).toBe(200);
      outcomes.add(put.status);
      if (put.status !== 200) {
        expect(put.status).toBe(403);
        expect((await put.json()).message).toContain('bereits versendet');
      }
      const stored = await app.em().fork().findOneOrFail(Quote, { id: quote.id });
      expect(stored.status).toBe('sent');
      const outbox = await app.em().fork().findOneOrFail(MailOutbox, { to });
      const text = await pdfText(new Uint8Array(Buffer.from(outbox.attachments![0].contentBase64, 'base64')));
      const edited = stored.lines.some((line) => line.unitPriceCents === 99900);
      expect(edited).toBe(put.status === 200);
      if (edited) expect(text).toContain('999,00');
      else expect(text).not.toContain('999,00');
    }
    expect([...outcomes].every((status) => status === 200 || status === 403)).toBe(true);
  });

  it('status by hand on the locked row: a draft only to Versendet, then Angenommen; a racing edit of a draft marked sent is 403', async () => {
    const { user, cookie } = await seller();
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
    const ctx = () => contextOf(user);
    expect((await setQuoteStatus(ctx(), quote.id, 'accepted')).kind).toBe('forbidden');
    expect((await setQuoteStatus(ctx(), '00000000-0000-4000-8000-000000000000', 'sent')).kind).toBe('notFound');
    const [marked, put] = await Promise.all([
      setQuoteStatus(ctx(), quote.id, 'sent'),
      api.put(cookie, quote.id, draftBody({ lines: [{ kind: 'free', description: 'Teil', quantity: 1, unitPrice: 999, vatRate: 19 }] })),
    ]);
    expect(marked).toMatchObject({ kind: 'ok', value: { status: 'sent' } });
    expect([200, 403]).toContain(put.status);
    expect((await setQuoteStatus(ctx(), quote.id, 'accepted'))).toMatchObject({ kind: 'ok', value: { status: 'accepted' } });
    const stored = await app.em().fork().findOneOrFail(Quote, { id: quote.id });
    expect(stored.status).toBe('accepted');
    expect(stored.sentAt).toBeInstanceOf(Date);
  });

  it('a delete racing the send: one wins, never a 500; a sent quote is never deleted, a deleted one never mailed', async () => {
    const { user, cookie } = await seller();
    await saveDetails(user);
    const project = await api.createProject(cookie);
    for (let i = 0; i < 4; i++) {
      const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
      const to = `rennen-delete-${i}-${user.id.slice(0, 8)}@kunde.example`;
      const [sent, deleted] = await Promise.all([
        api.send(cookie, quote.id, { to, subject: 'Angebot', message: 'Anbei.' }, randomIp()),
        api.delete(cookie, quote.id),
      ]);
      const stored = await app.em().fork().findOne(Quote, { id: quote.id });
      const mailed = await app.em().fork().count(MailOutbox, { to });
      if (sent.status === 200) {
        expect(deleted.status).toBe(403);
        expect((await deleted.json()).message).toContain('bereits versendet');
        expect(stored?.status).toBe('sent');
        expect(mailed).toBe(1);
      } else {
        expect(sent.status).toBe(404);
        expect((await sent.json()).message).toMatch(/nicht gefunden/i);
        expect([200, 204]).toContain(deleted.status);
        expect(stored).toBeNull();
        expect(mailed).toBe(0);
      }
    }
  });

  it('no quote goes to a customer while the seller\u2019s business details are missing', async () => {
    const { user, cookie } = await seller();
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
    const body = { to: 'kunde-ohne@example.de', subject: 'Angebot', message: 'Hallo' };
    const refused = await api.send(cookie, quote.id, body);
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toMatch(/Geschäftsdaten/);
    expect(await app.em().count(MailOutbox, { to: 'kunde-ohne@example.de' })).toBe(0);
    // Filled in, and the draft saved again (it takes the seller's details as they are now): it goes.
    await saveDetails(user);
    const current = await (await api.get(cookie, quote.id)).json();
    expect((await api.put(cookie, quote.id, { customerName: 'Erika', quoteDate: current.quoteDate, validUntil: current.validUntil, lines: current.lines.map((line: { description: string; quantity: number; unitPrice: number; vatRate: number }) => ({ description: line.description, quantity: line.quantity, unitPrice: line.unitPrice, vatRate: line.vatRate })) })).status).toBe(200);
    expect((await api.send(cookie, quote.id, body)).status).toBe(200);
  });

  it('the send cap: 20 quotes per seller and hour, counted in PostgreSQL; a refused send mails nothing', async () => {
    const { user, cookie } = await seller();
    await saveDetails(user);
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
    const body = { to: 'kunde@example.de', subject: 'Angebot', message: 'Hallo' };
    for (let i = 0; i < 20; i++) {
      // Different IPs: the per-seller counter is what stops it.
      expect((await api.send(cookie, quote.id, body, randomIp())).status).toBe(200);
    }
    const refused = await api.send(cookie, quote.id, body, randomIp());
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(await app.em().count(MailOutbox, { to: 'kunde@example.de' })).toBe(20);
  });

  it('PDFs are capped per seller (each costs a worker about 0,1 s): past 120 in an hour, a 429', async () => {
    const { cookie, user } = await seller();
    const project = await api.createProject(cookie);
    const quote = await (await api.create(cookie, { projectId: project.id, customerName: 'Erika' })).json();
    expect((await api.pdf(cookie, quote.id)).status).toBe(200);
    // The other 119 of the hour, counted the way the route counts them (rendering 119 PDFs would take long).
    for (let i = 0; i < 119; i++) await consumeRateLimit(app.em(), 'quotePdf', { ip: randomIp(), email: `user:${user.id}` });
    const refused = await api.pdf(cookie, quote.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});

describe('account deletion and export helpers', () => {
  it('exportQuotesOfUser lists the business details and quotes; deleteQuotesOfUser removes them', async () => {
    const { user, cookie } = await seller();
    await saveBusinessDetails(contextOf(user), {
      businessName: 'Export GmbH', address: 'A 1\n1 B', email: 'e@example.de',
      phone: null, taxId: null, smallBusiness: false, bankDetails: null, validityDays: 14, closingText: '',
    });
    const project = await api.createProject(cookie);
    await api.create(cookie, { projectId: project.id, customerName: 'Erika' });
    const exported = await exportQuotesOfUser(app.em(), user.id);
    expect(exported.businessDetails?.businessName).toBe('Export GmbH');
    expect(exported.quotes).toHaveLength(1);
    await deleteQuotesOfUser(app.em(), user.id);
    expect(await app.em().count(Quote, { user: user.id })).toBe(0);
    expect(await app.em().count(BusinessDetails, { user: user.id })).toBe(0);
    const pdf = await quotePdf(contextOf(user), exported.quotes[0].id);
    expect(pdf.kind).toBe('notFound');
  });
});
