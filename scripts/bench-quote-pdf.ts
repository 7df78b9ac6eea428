/**
 * `npx tsx scripts/bench-quote-pdf.ts [count]`: renders a typical quote (three
 * lines, two VAT rates, a discount, full seller details) as PDF `count` times
 * (default 200) with the app's own view and PDF code, and prints its size and
 * the time per PDF (first one cold, then the median and 95th percentile).
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Quote } from '../app/entities';
import { quoteView } from '../app/models/quote-view';
import { renderQuotePdf } from '../app/services/quote-pdf.server';

const count = Math.max(1, Number(process.argv[2] ?? 200));
const strings = JSON.parse(fs.readFileSync(path.resolve('public/locales/de/quotes.json'), 'utf8')) as Record<string, unknown>;
/** i18next's `t` for the quotes namespace, enough for the view: nested keys, {{placeholders}}. */
function t(key: string, options: Record<string, unknown> = {}): string {
  const value = key
    .replace(/^quotes:/, '')
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);
  return String(value ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name] ?? ''));
}

const quote = {
  id: '00000000-0000-4000-8000-000000000000',
  number: 'A-2026-0042',
  status: 'draft',
  quoteDate: '2026-11-26',
  validUntil: '2026-12-10',
  customerName: 'Jörg Weiß',
  customerAddress: 'Hauptstraße 1\n12345 Musterstadt',
  customerEmail: 'joerg@example.de',
  lines: [
    { kind: 'product', description: 'Drachenfigur groß, rot (PLA, 0,2 mm)', quantity: 2, unitPriceCents: 2499, vatRate: 19 },
    { kind: 'shipping', description: 'Versand DHL Paket 2 kg', quantity: 1, unitPriceCents: 549, vatRate: 19 },
    { kind: 'free', description: 'Fachbuch „Drachen drucken“', quantity: 1, unitPriceCents: 1070, vatRate: 7 },
  ],
  discountBasisPoints: 1000,
  seller: {
    businessName: 'Müllers 3D-Druckerei',
    address: 'Werkstraße 5\n80331 München',
    email: 'angebote@mueller-3d.example',
    phone: '089 123456',
    taxId: 'DE123456789',
    smallBusiness: false,
    bankDetails: 'IBAN DE02 1203 0000 0000 2020 51\nBIC BYLADEM1001',
    logoPath: null,
  },
  closingText: 'Wir freuen uns auf Ihren Auftrag.\nMit freundlichen Grüßen, Anna Müller',
  createdAt: new Date('2026-11-26T09:00:00Z'),
} as unknown as Quote;

// QUOTE_PDF_LOGO=<a JPEG as the upload stores it>: the figures with a logo.
const content = { ...quoteView(quote, t, '2026-11-26'), branding: t('doc.branding'), logo: process.env.QUOTE_PDF_LOGO ? fs.readFileSync(process.env.QUOTE_PDF_LOGO) : null };
const times: number[] = [];
let size = 0;
for (let i = 0; i < count; i++) {
  const start = performance.now();
  const bytes = await renderQuotePdf(content, { createdAt: quote.createdAt });
  times.push(performance.now() - start);
  size = bytes.length;
  if (i === 0 && process.env.QUOTE_PDF_OUT) fs.writeFileSync(process.env.QUOTE_PDF_OUT, bytes);
}
const [cold, ...warm] = times;
warm.sort((a, b) => a - b);
const pick = (q: number) => (warm.length ? warm[Math.min(warm.length - 1, Math.floor(q * warm.length))] : cold);
console.log(`[bench] quote PDF: ${(size / 1024).toFixed(1)} KB, cold ${cold.toFixed(1)} ms, then median ${pick(0.5).toFixed(1)} ms, p95 ${pick(0.95).toFixed(1)} ms (${count} PDFs)`);
