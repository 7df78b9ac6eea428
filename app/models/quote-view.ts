import type { Quote } from '../entities';
import { formatCents, lineTotalCents, quoteTotals, type QuoteTotals } from '../domain/quote-totals';
import { displayStatus, formatIsoDate, parseLogoPath } from '../domain/quotes';

/**
 * What a quote shows, formatted once (German): the print page, the preview and
 * the PDF read the same view, so they say the same. Pure (the caller hands in
 * `t`), so the PDF benchmark runs it outside the server too.
 */

export function totalsOf(quote: Pick<Quote, 'lines' | 'discountBasisPoints' | 'seller'>): QuoteTotals {
  return quoteTotals(quote.lines, { discountBasisPoints: quote.discountBasisPoints, smallBusiness: quote.seller.smallBusiness });
}

export type QuoteView = ReturnType<typeof quoteView>;

/** Everything the print page and the PDF show, formatted once (German). */
export function quoteView(quote: Quote, t: (key: string, options?: Record<string, unknown>) => string, today: string) {
  const totals = totalsOf(quote);
  const smallBusiness = quote.seller.smallBusiness;
  const seller = quote.seller;
  const sellerLines = [
    ...seller.address.split('\n').filter(Boolean),
    ...(seller.phone ? [t('quotes:doc.phone', { phone: seller.phone })] : []),
    ...(seller.email ? [seller.email] : []),
  ];
  const totalsRows: [string, string, boolean?][] = [];
  if (totals.discountCents > 0) {
    totalsRows.push([t('quotes:doc.subtotal'), formatCents(totals.subtotalCents)]);
    totalsRows.push([t('quotes:doc.discount', { percent: formatPercentValue(quote.discountBasisPoints / 100) }), `−${formatCents(totals.discountCents)}`]);
  }
  if (!smallBusiness) {
    totalsRows.push([t('quotes:doc.net'), formatCents(totals.netCents)]);
    for (const vat of totals.vat) totalsRows.push([t('quotes:doc.vat', { rate: formatPercentValue(vat.rate) }), formatCents(vat.cents)]);
  }
  totalsRows.push([t('quotes:doc.gross'), formatCents(totals.grossCents), true]);
  const footer = [
    ...(seller.taxId ? [t('quotes:doc.taxId', { taxId: seller.taxId })] : []),
    ...(seller.bankDetails ? [t('quotes:doc.bank', { bank: seller.bankDetails.replace(/\n/g, ' · ') })] : []),
  ];
  return {
    id: quote.id,
    number: quote.number,
    status: displayStatus(quote, today),
    isDraft: quote.status === 'draft',
    title: t('quotes:doc.title', { number: quote.number }),
    seller: { name: seller.businessName || t('quotes:doc.sellerMissing'), lines: sellerLines },
    /** The logo saved with the quote (its address; the PDF reads the file), or null. */
    logo: parseLogoPath(seller.logoPath) ? seller.logoPath : null,
    logoAlt: t('quotes:logo.alt', { name: seller.businessName }),
    customer: [quote.customerName, ...(quote.customerAddress ?? '').split('\n').filter(Boolean)],
    meta: [
      [t('quotes:doc.number'), quote.number],
      [t('quotes:doc.date'), formatIsoDate(quote.quoteDate)],
      [t('quotes:doc.validUntil'), formatIsoDate(quote.validUntil)],
    ] as [string, string][],
    intro: t('quotes:doc.intro'),
    columns: {
      description: t('quotes:doc.description'),
      quantity: t('quotes:doc.quantity'),
      unitPrice: t('quotes:doc.unitPrice'),
      vat: smallBusiness ? null : t('quotes:doc.vatRate'),
      total: t('quotes:doc.total'),
    },
    lines: quote.lines.map((line) => ({
      description: line.description,
      quantity: String(line.quantity),
      unitPrice: formatCents(line.unitPriceCents),
      vat: smallBusiness ? null : `${formatPercentValue(line.vatRate)} %`,
      total: formatCents(lineTotalCents(line)),
    })),
    totals: totalsRows,
    notes: [smallBusiness ? t('quotes:doc.smallBusiness') : t('quotes:doc.pricesInclVat')],
    closingText: quote.closingText,
    footer,
    totalGrossCents: totals.grossCents,
  };
}

function formatPercentValue(value: number): string {
  return new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2 }).format(value);
}

