/**
 * The quote as the customer sees it: the A4 print view and the preview on the
 * edit page. Same content and order as the PDF (services/quote-pdf.server.ts);
 * the figures arrive formatted from the server (models/quotes.server.ts quoteView).
 */
export type QuoteDocumentView = {
  title: string;
  seller: { name: string; lines: string[] };
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

export function QuoteDocument({ view, branding, headingLevel = 2 }: { view: QuoteDocumentView; branding?: string | null; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const hasVat = view.columns.vat !== null;
  return (
    <article data-quote-document className="quote-document mx-auto w-full max-w-[210mm] bg-white p-4 text-[13px] leading-snug text-black sm:p-8 print:max-w-none print:p-0">
      <header className="text-right">
        <p className="text-base font-bold">{view.seller.name}</p>
        {view.seller.lines.map((line) => (
          <p key={line} className="text-xs text-neutral-600">
            {line}
          </p>
        ))}
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
      <div className="mt-4 overflow-x-auto">
        <table className="w-full border-collapse text-left">
          <thead>
            <tr className="border-b border-neutral-400">
              <th scope="col" className="py-1 pr-2 font-semibold">{view.columns.description}</th>
              <th scope="col" className="py-1 pr-2 text-right font-semibold">{view.columns.quantity}</th>
              <th scope="col" className="py-1 pr-2 text-right font-semibold">{view.columns.unitPrice}</th>
              {hasVat ? <th scope="col" className="py-1 pr-2 text-right font-semibold">{view.columns.vat}</th> : null}
              <th scope="col" className="py-1 text-right font-semibold">{view.columns.total}</th>
            </tr>
          </thead>
          <tbody>
            {view.lines.map((line, i) => (
              <tr key={`${i}-${line.description}`} className="border-b border-neutral-200 align-top">
                <td className="py-1 pr-2 break-words">{line.description}</td>
                <td className="py-1 pr-2 text-right tabular-nums">{line.quantity}</td>
                <td className="py-1 pr-2 text-right whitespace-nowrap tabular-nums">{line.unitPrice}</td>
                {hasVat ? <td className="py-1 pr-2 text-right whitespace-nowrap">{line.vat}</td> : null}
                <td className="py-1 text-right whitespace-nowrap tabular-nums">{line.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
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
