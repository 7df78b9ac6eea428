/**
 * The quote as the customer sees it: the A4 print view and the preview on the
 * edit page. Same content and order as the PDF (services/quote-pdf.server.ts);
 * the figures arrive formatted from the server (models/quotes.server.ts quoteView).
 */
export type QuoteDocumentView = {
  title: string;
  seller: { name: string; lines: string[] };
  /** The seller's logo (an /images/logo/… address, shown to its owner only), or null. */
  logo?: string | null;
  logoAlt?: string;
  customer: string[];
  meta: [string, string][];
  intro?: string;
  columns: { description: string; quantity: string; unitPrice: string; vat: string | null; total: string };
  lines: { description: string; quantity: string; unitPrice: string; vat: string | null; total: string }[];
  totals: [string, string, boolean?][];
  notes: string[];
  closingText: string;
  footer: string[];
};

/** A figure's cell: a table cell from 640 px, below that a row "Menge … 2" with its column name in front. */
const STACKED =
  'py-1 text-right max-sm:flex max-sm:justify-between max-sm:gap-3 max-sm:py-0 max-sm:pr-0 max-sm:before:font-normal max-sm:before:text-neutral-600 max-sm:before:content-[attr(data-label)_/_""]';

export function QuoteDocument({ view, branding, headingLevel = 2 }: { view: QuoteDocumentView; branding?: string | null; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const hasVat = view.columns.vat !== null;
  return (
    <article data-quote-document className="quote-document mx-auto w-full max-w-[210mm] bg-white p-4 text-[13px] leading-snug text-black sm:p-8 print:max-w-none print:p-0">
      <header className="flex flex-wrap items-start justify-between gap-4">
        {view.logo ? <img src={view.logo} alt={view.logoAlt ?? ''} className="max-h-[20mm] max-w-[50mm] object-contain object-left-top" data-quote-logo /> : <span />}
        <div className="ml-auto text-right">
          <p className="text-base font-bold">{view.seller.name}</p>
          {view.seller.lines.map((line) => (
            <p key={line} className="text-xs text-neutral-600">
              {line}
            </p>
          ))}
        </div>
      </header>
      <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:justify-between print:flex-row print:justify-between">
        <address className="not-italic">
          {view.customer.map((line, i) => (
            <span key={`${i}-${line}`} className="block">
              {line}
            </span>
          ))}
        </address>
        <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-0.5 text-xs">
          {view.meta.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-neutral-600">{label}</dt>
              <dd className="text-right">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <Heading className="mt-8 text-xl font-bold">{view.title}</Heading>
      {view.intro ? <p className="mt-2">{view.intro}</p> : null}
      {/*
        Below 640 px (a phone; paper is wider) each line is stacked: its description, then its figures
        with their column names, so nothing scrolls sideways. The roles keep the table for screen
        readers, which drop it once rows are no longer laid out as a table.
      */}
      {/* eslint-disable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role -- explicit table roles: Safari drops a table's semantics once its rows are display: block */}
      <div className="mt-4 sm:overflow-x-auto" data-quote-lines>
        <table role="table" className="w-full border-collapse text-left max-sm:block">
          <thead role="rowgroup" className="max-sm:sr-only">
            <tr role="row" className="border-b border-neutral-400">
              <th role="columnheader" scope="col" className="py-1 pr-2 font-semibold">{view.columns.description}</th>
              <th role="columnheader" scope="col" className="py-1 pr-2 text-right font-semibold">{view.columns.quantity}</th>
              <th role="columnheader" scope="col" className="py-1 pr-2 text-right font-semibold">{view.columns.unitPrice}</th>
              {hasVat ? <th role="columnheader" scope="col" className="py-1 pr-2 text-right font-semibold">{view.columns.vat}</th> : null}
              <th role="columnheader" scope="col" className="py-1 text-right font-semibold">{view.columns.total}</th>
            </tr>
          </thead>
          <tbody role="rowgroup" className="max-sm:block max-sm:border-t max-sm:border-neutral-400">
            {view.lines.map((line, i) => (
              <tr key={`${i}-${line.description}`} role="row" className="border-b border-neutral-200 align-top max-sm:block max-sm:py-1.5">
                <td role="cell" className="py-1 pr-2 break-words max-sm:block max-sm:pr-0 max-sm:font-semibold">{line.description}</td>
                <td role="cell" data-label={view.columns.quantity} className={`${STACKED} pr-2 tabular-nums`}>{line.quantity}</td>
                <td role="cell" data-label={view.columns.unitPrice} className={`${STACKED} pr-2 whitespace-nowrap tabular-nums`}>{line.unitPrice}</td>
                {hasVat ? <td role="cell" data-label={view.columns.vat ?? ''} className={`${STACKED} pr-2 whitespace-nowrap`}>{line.vat}</td> : null}
                <td role="cell" data-label={view.columns.total} className={`${STACKED} whitespace-nowrap tabular-nums max-sm:font-semibold`}>{line.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {/* eslint-enable jsx-a11y/no-redundant-roles, jsx-a11y/no-interactive-element-to-noninteractive-role */}
      <dl className="mt-3 ml-auto grid max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-0.5" data-quote-totals>
        {view.totals.map(([label, value, strong]) => (
          <div key={label} className="contents">
            <dt className={`text-right ${strong ? 'font-bold' : ''}`}>{label}</dt>
            <dd className={`text-right whitespace-nowrap tabular-nums ${strong ? 'font-bold' : ''}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {view.notes.map((note) => (
        <p key={note} className="mt-4">
          {note}
        </p>
      ))}
      {view.closingText ? <p className="mt-4 whitespace-pre-line">{view.closingText}</p> : null}
      {view.footer.length > 0 ? (
        <footer className="mt-8 border-t border-neutral-300 pt-2 text-xs text-neutral-600">
          {view.footer.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </footer>
      ) : null}
      {branding ? <p className="mt-6 text-center text-xs text-neutral-500">{branding}</p> : null}
    </article>
  );
}
