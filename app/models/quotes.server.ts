import type { PreparedRead } from '../services/prepared-query.server';
import { plainRowTable } from '../services/plain-rows.server';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { effectiveVatPercent, minimumPriceWithVat } from '../calculator/engine';
import { BusinessDetails, Project, Quote, QuoteCounter, type QuoteLine, type QuoteSeller } from '../entities';
import { getServerT } from '../i18n.server';
import { enqueueMail, MailAddressError } from '../services/mail.server';
import { consumeRateLimit } from '../services/rate-limit.server';
import type { UserContext } from '../services/request-context.server';
import { renderQuotePdf, type QuotePdfContent } from '../services/quote-pdf.server';
import { searchText } from '../lib/search-text';
import { isPremium } from '../domain/permissions';
import { quoteGreeting, type QuoteGreeting } from '../domain/quote-greeting';
import { projectEngineInput } from './projects.server';
import { eurosToCents, lineTotalCents } from '../domain/quote-totals';
import { quoteView, totalsOf } from './quote-view';
import { logoBytes, releaseLogo } from './business-logo.server';

export { quoteView, totalsOf, type QuoteView } from './quote-view';
import {
  addDays,
  berlinDate,
  DEFAULT_VALIDITY_DAYS,
  displayStatus,
  formatIsoDate,
  MAX_QUANTITY,
  MAX_QUOTE_SEARCH_LENGTH,
  MAX_QUOTE_TOTAL_CENTS,
  MAX_UNIT_PRICE_CENTS,
  QUOTES_PAGE_SIZE,
  QUOTE_DISPLAY_STATUSES,
  SETTABLE_STATUSES,
  type BusinessDetailsInput,
  type CreateQuoteInput,
  type QuoteDisplayStatus,
  type QuoteInput,
  type SendQuoteInput,
} from '../domain/quotes';
import { fieldErrors, forbidden, invalid, notFound, ok, rateLimited, type Failure, type Result } from '../domain/result';

/**
 * Quotes (Angebote, issue 26): operations `(ctx, input) => Result`, scoped by
 * owner (another user's id is "not found"). A quote is a snapshot: its lines,
 * prices and the seller's details are copied into the row when it is saved,
 * so later changes to the project, the library or the business details never
 * change it. Drafts can be edited; a sent quote only copied.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isId = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

export const NOT_DRAFT_REASON = 'quotes:errors.notDraft';

// ---------------------------------------------------------------------------
// Business details

export async function getBusinessDetails(ctx: Pick<UserContext, 'em' | 'user'>): Promise<BusinessDetails | null> {
  return ctx.em.findOne(BusinessDetails, { user: ctx.user.id });
}

export async function saveBusinessDetails(ctx: UserContext, input: BusinessDetailsInput): Promise<Result<BusinessDetails>> {
  const existing = await getBusinessDetails(ctx);
  const details = existing ?? ctx.em.create(BusinessDetails, { user: ctx.user.id, ...input } as never);
  ctx.em.assign(details, input);
  // Two first saves at once: the unique user_id makes the second an update of the first.
  if (!existing) {
    await ctx.em.upsert(details);
  }
  await ctx.em.flush();
  return ok(details);
}

/** Who a seller's printed sheets name at the top: the business name of the Geschäftsdaten, else the person's name, else the address. */
function sellerNameOf(user: UserContext['user'], businessName: string | null | undefined): string {
  const person = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return businessName?.trim() || person || user.email;
}

/** The seller's name for the print sheet (sellerNameOf), as one read of the calculator's batched statement (calculator-projects.server.ts). */
export function sellerDisplayNameRead(ctx: Pick<UserContext, 'em' | 'user'>): PreparedRead<string> {
  const table = plainRowTable(ctx.em, BusinessDetails);
  return {
    sql: `select ${table.column('businessName')} as "businessName" from ${table.table} where ${table.column('user')} = ? limit 1`,
    params: [ctx.user.id],
    read: ([row]) => sellerNameOf(ctx.user, row ? String(row.businessName ?? '') : null),
  };
}

/** The profile card's values (null: nothing saved yet). */
export function businessDetailsFormValues(details: BusinessDetails | null) {
  if (!details) return null;
  return {
    businessName: details.businessName,
    address: details.address,
    email: details.email,
    phone: details.phone ?? null,
    taxId: details.taxId ?? null,
    smallBusiness: details.smallBusiness,
    bankDetails: details.bankDetails ?? null,
    validityDays: details.validityDays,
    closingText: details.closingText,
  };
}

function sellerSnapshot(details: BusinessDetails | null): QuoteSeller {
  return {
    businessName: details?.businessName ?? '',
    address: details?.address ?? '',
    email: details?.email ?? '',
    phone: details?.phone ?? null,
    taxId: details?.taxId ?? null,
    smallBusiness: details?.smallBusiness ?? false,
    bankDetails: details?.bankDetails ?? null,
    logoPath: details?.logoPath ?? null,
  };
}

// ---------------------------------------------------------------------------
// Numbering

/**
 * The next number of this seller and year, in the caller's transaction: the
 * upsert takes the counter row's lock until commit, so parallel saves queue
 * and each gets its own; a rolled-back save gives its number back, a deleted
 * draft does not (the counter never goes down).
 */
async function nextQuoteNumber(em: EntityManager, userId: string, year: number): Promise<string> {
  const rows: { last_number: number }[] = await em.execute(
    `insert into quote_counters (user_id, year, last_number) values (?, ?, 1)
     on conflict (user_id, year) do update set last_number = quote_counters.last_number + 1
     returning last_number`,
    [userId, year],
  );
  return `A-${year}-${String(rows[0].last_number).padStart(4, '0')}`;
}

// ---------------------------------------------------------------------------
// Create, read, list

/** The project's line: its name, quantity and the calculation's minimum price (incl. VAT, or net for § 19) per piece. */
function projectLine(project: Project, smallBusiness: boolean): QuoteLine {
  const input = { ...projectEngineInput(project), ...(smallBusiness ? { smallBusiness: true } : {}) };
  const total = minimumPriceWithVat(input);
  const quantity = Math.min(Math.max(1, Math.round(project.quantity)), MAX_QUANTITY);
  // Within the limits a seller could type (a calculation can price far beyond them).
  const unit = total === null ? 0 : eurosToCents(total / quantity);
  const unitPriceCents = Math.min(unit, MAX_UNIT_PRICE_CENTS, Math.floor(MAX_QUOTE_TOTAL_CENTS / quantity));
  return {
    kind: 'product',
    description: project.name.slice(0, 300),
    quantity,
    unitPriceCents,
    vatRate: effectiveVatPercent(input),
  };
}

export async function createQuote(ctx: UserContext, input: CreateQuoteInput): Promise<Result<Quote>> {
  if (!isId(input.projectId)) return notFound();
  const project = await ctx.em.findOne(Project, { id: input.projectId, user: ctx.user.id });
  if (!project) return notFound();
  const details = await getBusinessDetails(ctx);
  const seller = sellerSnapshot(details);
  const line = projectLine(project, seller.smallBusiness || Boolean(project.extraInputs?.smallBusiness));
  const today = berlinDate(ctx.now);
  return insertQuote(ctx, {
    project,
    customerName: input.customerName,
    customerAddress: input.customerAddress,
    customerEmail: input.customerEmail,
    quoteDate: today,
    validUntil: addDays(today, details?.validityDays ?? DEFAULT_VALIDITY_DAYS),
    lines: [line],
    discountBasisPoints: 0,
    seller,
    closingText: details?.closingText ?? '',
  });
}

type NewQuote = Pick<Quote, 'customerName' | 'quoteDate' | 'validUntil' | 'lines' | 'seller' | 'closingText' | 'discountBasisPoints'> & {
  project: Project | null;
  customerAddress: string | null;
  customerEmail: string | null;
};

async function insertQuote(ctx: UserContext, values: NewQuote): Promise<Result<Quote>> {
  return ctx.em.transactional(async (em) => {
    const number = await nextQuoteNumber(em, ctx.user.id, Number(values.quoteDate.slice(0, 4)));
    const quote = em.create(Quote, {
      ...values,
      user: ctx.user.id,
      number,
      status: 'draft',
      totalGrossCents: totalsOf(values).grossCents,
    } as never) as Quote;
    em.persist(quote);
    await em.flush();
    return ok(quote);
  });
}

export async function getQuote(ctx: Pick<UserContext, 'em' | 'user'>, id: unknown): Promise<Result<Quote>> {
  if (!isId(id)) return notFound();
  const quote = await ctx.em.findOne(Quote, { id, user: ctx.user.id });
  return quote ? ok(quote) : notFound();
}

export type QuoteListItem = {
  id: string;
  number: string;
  customerName: string;
  quoteDate: string;
  validUntil: string;
  status: QuoteDisplayStatus;
  totalGrossCents: number;
};
export type QuotePage = { items: QuoteListItem[]; page: number; hasNext: boolean; q: string; status: QuoteDisplayStatus | '' };

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of the user's quotes, newest first; `q` matches the number or the customer, `status` as shown (expired is derived). */
export async function listQuotes(
  ctx: UserContext,
  { q = '', status = '', page = 1, pageSize = QUOTES_PAGE_SIZE }: { q?: string; status?: string; page?: number; pageSize?: number } = {},
): Promise<QuotePage> {
  const query = searchText(q, MAX_SEARCH);
  const wanted = (QUOTE_DISPLAY_STATUSES as readonly string[]).includes(status) ? (status as QuoteDisplayStatus) : '';
  const current = Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
  const today = berlinDate(ctx.now);
  const where: Record<string, unknown> = { user: ctx.user.id };
  if (query) where.$or = [{ number: { $ilike: likePattern(query) } }, { customerName: { $ilike: likePattern(query) } }];
  if (wanted === 'expired') Object.assign(where, { status: 'sent', validUntil: { $lt: today } });
  else if (wanted === 'sent') Object.assign(where, { status: 'sent', validUntil: { $gte: today } });
  else if (wanted) where.status = wanted;
  const rows = await ctx.em.find(Quote, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: pageSize + 1,
    offset: (current - 1) * pageSize,
    fields: ['id', 'number', 'customerName', 'quoteDate', 'validUntil', 'status', 'totalGrossCents'],
  });
  const items = rows.slice(0, pageSize).map((quote) => ({
    id: quote.id,
    number: quote.number,
    customerName: quote.customerName,
    quoteDate: quote.quoteDate,
    validUntil: quote.validUntil,
    status: displayStatus(quote, today),
    totalGrossCents: quote.totalGrossCents,
  }));
  return { items, page: current, hasNext: rows.length > pageSize, q: query, status: wanted };
}
const MAX_SEARCH = MAX_QUOTE_SEARCH_LENGTH;

export async function listAllQuotes(ctx: UserContext): Promise<Quote[]> {
  return ctx.em.find(Quote, { user: ctx.user.id }, { orderBy: { createdAt: 'desc', id: 'desc' } });
}

// ---------------------------------------------------------------------------
// Change

function linesOf(input: QuoteInput, smallBusiness: boolean): QuoteLine[] {
  return input.lines.map((line) => ({
    kind: line.kind,
    description: line.description,
    quantity: line.quantity,
    unitPriceCents: line.unitPrice,
    vatRate: smallBusiness ? 0 : line.vatRate,
  }));
}

/**
 * The quote's row, locked until the caller's transaction ends (SELECT … FOR UPDATE, read afresh):
 * send, save and delete of one quote queue on it, so an edit or delete racing 'Per E-Mail senden'
 * either comes first (the mail carries the edit; the send of a deleted quote is 404) or sees the
 * quote sent ('bereits versendet'), never a mailed PDF that differs from the stored quote.
 */
async function lockQuote(em: EntityManager, userId: string, id: string): Promise<Quote | null> {
  return em.findOne(Quote, { id, user: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** Saves a draft: its lines and customer as given, the seller's details as they are now. */
export async function updateQuote(ctx: UserContext, id: unknown, input: QuoteInput): Promise<Result<Quote>> {
  if (!isId(id)) return notFound();
  const seller = sellerSnapshot(await getBusinessDetails(ctx));
  let previousLogo: string | null = null;
  const result = await ctx.em.transactional(async (em): Promise<Result<Quote>> => {
    const quote = await lockQuote(em, ctx.user.id, id);
    if (!quote) return notFound();
    if (quote.status !== 'draft') return forbidden(NOT_DRAFT_REASON);
    previousLogo = quote.seller.logoPath;
    em.assign(quote, {
      customerName: input.customerName,
      customerAddress: input.customerAddress,
      customerEmail: input.customerEmail,
      quoteDate: input.quoteDate,
      validUntil: input.validUntil,
      lines: linesOf(input, seller.smallBusiness),
      discountBasisPoints: Math.round(input.discountPercent * 100),
      closingText: input.closingText,
      seller,
    });
    quote.totalGrossCents = totalsOf(quote).grossCents;
    await em.flush();
    return ok(quote);
  });
  // A draft saved again takes today's logo; the one it had goes unless something else shows it.
  if (result.kind === 'ok' && previousLogo && previousLogo !== seller.logoPath) await releaseLogo(ctx.em, previousLogo, ctx.user.id);
  return result;
}

/** Only drafts can be deleted; their number stays used. */
export async function deleteQuote(ctx: UserContext, id: unknown): Promise<Result<{ number: string }>> {
  if (!isId(id)) return notFound();
  let logo: string | null = null;
  const result = await ctx.em.transactional(async (em): Promise<Result<{ number: string }>> => {
    const quote = await lockQuote(em, ctx.user.id, id);
    if (!quote) return notFound();
    if (quote.status !== 'draft') return forbidden('quotes:errors.deleteNotDraft');
    logo = quote.seller.logoPath;
    const { number } = quote;
    await em.remove(quote).flush();
    return ok({ number });
  });
  // The logo it was saved with goes too, unless the business details or another quote show it.
  if (result.kind === 'ok' && logo) await releaseLogo(ctx.em, logo, ctx.user.id);
  return result;
}

/** A new draft with the same customer and lines, today's date, a new number and the seller's details as they are now. */
export async function copyQuote(ctx: UserContext, id: unknown): Promise<Result<Quote>> {
  const found = await getQuote(ctx, id);
  if (found.kind !== 'ok') return found;
  const original = found.value;
  const details = await getBusinessDetails(ctx);
  const today = berlinDate(ctx.now);
  return insertQuote(ctx, {
    project: original.project ?? null,
    customerName: original.customerName,
    customerAddress: original.customerAddress ?? null,
    customerEmail: original.customerEmail ?? null,
    quoteDate: today,
    validUntil: addDays(today, details?.validityDays ?? DEFAULT_VALIDITY_DAYS),
    lines: original.lines.map((line) => ({ ...line })),
    discountBasisPoints: original.discountBasisPoints,
    seller: sellerSnapshot(details),
    closingText: original.closingText,
  });
}

/** Versendet, Angenommen, Abgelehnt. A draft becomes 'sent' by sending or by marking it; nothing goes back to draft. */
export async function setQuoteStatus(ctx: UserContext, id: unknown, status: unknown): Promise<Result<Quote>> {
  if (!isId(id)) return notFound();
  return ctx.em.transactional(async (em): Promise<Result<Quote>> => {
    // On the locked row, as send, save and delete: a draft marked 'sent' while it is saved stays as saved.
    const quote = await lockQuote(em, ctx.user.id, id);
    if (!quote) return notFound();
    if (!(SETTABLE_STATUSES as readonly unknown[]).includes(status)) return forbidden('quotes:errors.status');
    if (quote.status === 'draft' && status !== 'sent') return forbidden('quotes:errors.statusFromDraft');
    if (quote.status === 'draft') quote.sentAt = ctx.now;
    quote.status = status as Quote['status'];
    await em.flush();
    return ok(quote);
  });
}

// ---------------------------------------------------------------------------
// Output: the figures as shown, the PDF, the mail

/** The PDF of a quote. Free users' PDFs carry 'Erstellt mit Druckpreis'. */
export async function quotePdf(ctx: UserContext, id: unknown): Promise<Result<{ bytes: Buffer; filename: string }>> {
  const found = await getQuote(ctx, id);
  if (found.kind !== 'ok') return found;
  const limit = await consumeRateLimit(ctx.em, 'quotePdf', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  return ok(await pdfOf(ctx, found.value));
}

async function pdfOf(ctx: UserContext, quote: Quote): Promise<{ bytes: Buffer; filename: string }> {
  const t = await getServerT('quotes');
  const view = quoteView(quote, t, berlinDate(ctx.now));
  const content: QuotePdfContent = {
    ...view,
    branding: isPremium(ctx.user, ctx.now) ? undefined : t('quotes:doc.branding'),
    logo: await logoBytes(quote.seller.logoPath, ctx.user.id),
  };
  const bytes = await renderQuotePdf(content, { createdAt: quote.createdAt });
  return { bytes, filename: `Angebot-${quote.number}.pdf` };
}

function greetingText(t: (key: string, options?: Record<string, unknown>) => string, greeting: QuoteGreeting): string {
  return 'name' in greeting ? t(`quotes:send.greeting.${greeting.kind}`, { name: greeting.name }) : t(`quotes:send.greeting.${greeting.kind}`);
}

/** The mail text the send form starts with (the seller edits it). */
export async function defaultSendText(ctx: UserContext, quote: Quote): Promise<{ subject: string; message: string }> {
  const t = await getServerT('quotes');
  const sender = quote.seller.businessName || [ctx.user.firstName, ctx.user.lastName].filter(Boolean).join(' ');
  return {
    subject: t('quotes:send.defaultSubject', { number: quote.number, sender }),
    // Whom to greet (a contact person, a company, a person: domain/quote-greeting.ts), put before the
    // text rather than into it: i18next 23 interpolates a placeholder that a value brings along
    // ('z. Hd. X {{number}}' in the customer's address would become the quote's number).
    message: `${greetingText(t, quoteGreeting(quote.customerName, quote.customerAddress))}\n\n${t('quotes:send.defaultMessage', {
      number: quote.number,
      validUntil: formatIsoDate(quote.validUntil),
      sender,
    })}`,
  };
}

/**
 * Mails the quote's PDF to the customer through the outbox (in the same
 * transaction as the status change to 'sent'), Reply-To the seller's business
 * address. A per-seller hourly cap (rate_limits, `quoteSend`) keeps it from
 * being used to mail strangers in bulk. The address is used for nothing else.
 */
export async function sendQuote(ctx: UserContext, id: unknown, input: SendQuoteInput): Promise<Result<Quote>> {
  const found = await getQuote(ctx, id);
  if (found.kind !== 'ok') return found;
  const early = sendRefusal(found.value);
  if (early) return early;
  const limit = await consumeRateLimit(ctx.em, 'quoteSend', { ip: ctx.ip, email: `user:${ctx.user.id}` });
  if (!limit.allowed) return rateLimited(limit.retryAfterSeconds);
  try {
    // The row stays locked from reading it to the outbox row and 'sent': the PDF is made from the
    // quote as stored, and no save or delete can come between (lockQuote).
    return await ctx.em.transactional(async (em): Promise<Result<Quote>> => {
      const row = await lockQuote(em, ctx.user.id, found.value.id);
      if (!row) return notFound();
      const refusal = sendRefusal(row);
      if (refusal) return refusal;
      const pdf = await pdfOf(ctx, row);
      await enqueueMail(em, {
        to: input.to,
        replyTo: quoteReplyTo(ctx.user),
        template: 'quote',
        data: { subject: input.subject, message: input.message, sender: senderName(ctx, row), accountEmail: ctx.user.email },
        attachments: [{ filename: pdf.filename, contentType: 'application/pdf', contentBase64: pdf.bytes.toString('base64') }],
      });
      if (row.status === 'draft') {
        row.status = 'sent';
        row.sentAt = ctx.now;
      }
      if (!row.customerEmail) row.customerEmail = input.to;
      await em.flush();
      return ok(row);
    });
  } catch (error) {
    // An address the outbox refuses (stricter than the form's check): the field's message, not a 500.
    if (error instanceof MailAddressError) return fieldErrors({ to: ['quotes:errors.email'] }, { message: 'quotes:errors.invalidInput' });
    throw error;
  }
}

/**
 * Reply-To of a quote mail: the seller's verified account address only. The business e-mail is free
 * text nobody confirmed; as Reply-To it would let a fresh account mail in anyone's name (phishing).
 * The business e-mail still stands on the PDF.
 */
export function quoteReplyTo(user: UserContext['user']): string | undefined {
  return user.emailVerified ? user.email : undefined;
}

function senderName(ctx: UserContext, quote: Quote): string {
  const name = quote.seller.businessName.trim() || [ctx.user.firstName, ctx.user.lastName].filter(Boolean).join(' ').trim();
  return name || ctx.user.email;
}

function sendRefusal(quote: Quote): Failure | null {
  if (quote.status === 'rejected' || quote.status === 'accepted') return forbidden('quotes:errors.sendClosed');
  // A customer gets no quote without the seller's name, address and e-mail (the PDF's sender block
  // and the Reply-To): the seller fills the Geschäftsdaten and saves the draft again.
  if (!quote.seller.businessName.trim() || !quote.seller.address.trim() || !quote.seller.email.trim()) return invalid('quotes:errors.sellerMissingForSend');
  return null;
}

// ---------------------------------------------------------------------------
// API view, account deletion, export

export function toApiQuote(quote: Quote, today: string) {
  const totals = totalsOf(quote);
  return {
    id: quote.id,
    number: quote.number,
    status: displayStatus(quote, today),
    projectId: quote.project?.id ?? null,
    quoteDate: quote.quoteDate,
    validUntil: quote.validUntil,
    customerName: quote.customerName,
    customerAddress: quote.customerAddress ?? null,
    customerEmail: quote.customerEmail ?? null,
    lines: quote.lines.map((line) => ({
      kind: line.kind,
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPriceCents / 100,
      vatRate: line.vatRate,
      total: lineTotalCents(line) / 100,
    })),
    discountPercent: quote.discountBasisPoints / 100,
    closingText: quote.closingText,
    seller: quote.seller,
    totalNet: totals.netCents / 100,
    vat: totals.vat.map((vat) => ({ rate: vat.rate, amount: vat.cents / 100 })),
    totalGross: totals.grossCents / 100,
    sentAt: quote.sentAt?.toISOString() ?? null,
    createdAt: quote.createdAt.toISOString(),
    updatedAt: quote.updatedAt.toISOString(),
  };
}

/** For the account deletion (issue 20): the foreign keys cascade too; this makes it explicit and testable. */
export async function deleteQuotesOfUser(em: EntityManager, userId: string): Promise<void> {
  await em.nativeDelete(Quote, { user: userId });
  await em.nativeDelete(QuoteCounter, { user: userId });
  await em.nativeDelete(BusinessDetails, { user: userId });
}

/** For the data export (issue 20): business details and every quote as the API shows them. */
export async function exportQuotesOfUser(em: EntityManager, userId: string, now = new Date()) {
  const details = await em.findOne(BusinessDetails, { user: userId });
  const quotes = await em.find(Quote, { user: userId }, { orderBy: { createdAt: 'asc' } });
  const today = berlinDate(now);
  return {
    businessDetails: details
      ? {
          businessName: details.businessName,
          address: details.address,
          email: details.email,
          phone: details.phone ?? null,
          taxId: details.taxId ?? null,
          smallBusiness: details.smallBusiness,
          bankDetails: details.bankDetails ?? null,
          logoPath: details.logoPath ?? null,
          validityDays: details.validityDays,
          closingText: details.closingText,
        }
      : null,
    quotes: quotes.map((quote) => toApiQuote(quote, today)),
  };
}
