import { createRequire } from 'node:module';
import fs from 'node:fs';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';

/**
 * A quote as an A4 PDF (issue 26 §3), made on the server with pdfkit. Noto
 * Sans (TTF from the @expo-google-fonts/noto-sans package, read once from
 * node_modules, nothing fetched at run time) is embedded as a subset, so '€'
 * and umlauts are real text that can be selected and searched. The content is
 * what the print page shows, in the same order; figures come formatted from
 * the caller (models/quotes.server.ts), so page and PDF say the same.
 */

export type QuotePdfContent = {
  title: string;
  seller: { name: string; lines: string[] };
  customer: string[];
  meta: [label: string, value: string][];
  intro?: string;
  columns: { description: string; quantity: string; unitPrice: string; vat: string | null; total: string };
  lines: { description: string; quantity: string; unitPrice: string; vat: string | null; total: string }[];
  totals: [label: string, value: string, strong?: boolean][];
  notes: string[];
  closingText: string;
  footer: string[];
  /** 'Erstellt mit Druckpreis' for free users; absent for Premium. */
  branding?: string;
  /** Logo bytes (PNG/JPEG), optional. */
  logo?: Buffer | null;
};

const require = createRequire(import.meta.url);
let fonts: { regular: fontkit.Font; bold: fontkit.Font } | undefined;

/**
 * Parsed once per process and shared by every document: parsing the font's
 * tables took most of a PDF's time when each document read the file anew.
 * (Each document still makes its own subset.)
 */
function loadFonts() {
  const open = (file: string) => fontkit.create(fs.readFileSync(require.resolve(`@expo-google-fonts/noto-sans/${file}`)));
  fonts ??= { regular: open('400Regular/NotoSans_400Regular.ttf'), bold: open('700Bold/NotoSans_700Bold.ttf') };
  return fonts;
}

const MM = 72 / 25.4;
const MARGIN = 20 * MM;
const GREY = '#555555';

/** The PDF's bytes. Deterministic for the same content (fixed dates in the info dictionary, no random ids). */
export async function renderQuotePdf(content: QuotePdfContent, { createdAt }: { createdAt: Date }): Promise<Buffer> {
  const { regular, bold } = loadFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: content.title, Creator: 'Druckpreis', Producer: 'Druckpreis', CreationDate: createdAt, ModDate: createdAt },
    lang: 'de-DE',
    displayTitle: true,
    autoFirstPage: true,
    bufferPages: false,
  });
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  const left = MARGIN;

  // Seller block, top right; logo top left when there is one.
  const top = doc.y;
  if (content.logo) {
    try {
      doc.image(content.logo, left, top, { fit: [50 * MM, 20 * MM] });
    } catch {
      // A logo pdfkit cannot read is left out rather than failing the quote.
    }
  }
  doc.font('bold').fontSize(11).text(content.seller.name, left, top, { width, align: 'right' });
  doc.font('regular').fontSize(9).fillColor(GREY);
  for (const line of content.seller.lines) doc.text(line, { width, align: 'right' });
  doc.fillColor('black');

  // Customer address block.
  doc.moveDown(2);
  const blockTop = Math.max(doc.y, top + 45 * MM);
  doc.font('regular').fontSize(10).text(content.customer.join('\n'), left, blockTop, { width: width * 0.55 });
  const afterCustomer = doc.y;

  // Number, dates: right column.
  doc.fontSize(9);
  let metaY = blockTop;
  for (const [label, value] of content.meta) {
    doc.font('regular').fillColor(GREY).text(label, left + width * 0.6, metaY, { width: width * 0.2 });
    doc.font('regular').fillColor('black').text(value, left + width * 0.8, metaY, { width: width * 0.2, align: 'right' });
    metaY = doc.y + 2;
  }
  doc.y = Math.max(afterCustomer, metaY) + 10 * MM;

  doc.font('bold').fontSize(16).text(content.title, left, doc.y, { width });
  if (content.intro) doc.moveDown(0.5).font('regular').fontSize(10).text(content.intro, { width });
  doc.moveDown(1);

  // Lines table.
  const hasVat = content.columns.vat !== null;
  const cols = hasVat
    ? [0.46, 0.1, 0.16, 0.1, 0.18]
    : [0.56, 0.1, 0.16, 0, 0.18];
  const xs = cols.reduce<number[]>((acc, _c, i) => [...acc, i === 0 ? left : acc[i - 1] + cols[i - 1] * width], []);
  const row = (cells: (string | null)[], font: 'regular' | 'bold') => {
    const y = doc.y;
    doc.font(font).fontSize(9.5);
    let bottom = y;
    cells.forEach((cell, i) => {
      if (cell === null || cols[i] === 0) return;
      doc.text(cell, xs[i], y, { width: cols[i] * width - 4, align: i === 0 ? 'left' : 'right' });
      bottom = Math.max(bottom, doc.y);
    });
    doc.y = bottom + 3;
    if (doc.y > doc.page.height - MARGIN - 40) {
      doc.addPage();
    }
  };
  const rule = () => {
    doc.moveTo(left, doc.y).lineTo(left + width, doc.y).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.y += 4;
  };
  const { columns } = content;
  row([columns.description, columns.quantity, columns.unitPrice, columns.vat, columns.total], 'bold');
  rule();
  for (const line of content.lines) row([line.description, line.quantity, line.unitPrice, line.vat, line.total], 'regular');
  rule();

  // Totals, right-aligned.
  for (const [label, value, strong] of content.totals) {
    const y = doc.y;
    doc.font(strong ? 'bold' : 'regular').fontSize(strong ? 11 : 9.5);
    doc.text(label, left + width * 0.4, y, { width: width * 0.4, align: 'right' });
    doc.text(value, left + width * 0.8, y, { width: width * 0.2, align: 'right' });
    doc.y += 2;
  }
  doc.moveDown(1);
  doc.font('regular').fontSize(9.5);
  for (const note of content.notes) doc.text(note, left, doc.y, { width });
  if (content.closingText) doc.moveDown(1).text(content.closingText, left, doc.y, { width });

  // Footer: bank and tax details, branding.
  doc.moveDown(2);
  doc.fontSize(8).fillColor(GREY);
  for (const line of content.footer) doc.text(line, left, doc.y, { width });
  if (content.branding) doc.moveDown(1).text(content.branding, left, doc.y, { width, align: 'center' });
  doc.end();
  return done;
}

/** The HTTP answer for a quote's PDF: private, a file name the browser keeps. */
export function quotePdfResponse({ bytes, filename }: { bytes: Buffer; filename: string }): Response {
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(bytes.length),
      'Content-Disposition': `inline; filename="${filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
      // nosniff comes with every response from the server (scripts/lib/server.ts), once.
    },
  });
}
