import type { CardProductId } from '@tipcard/shared/card-orders/schemas';
import { COLORS, MM, createPdf, drawLogo, pdfBytes, style, type Pdf } from '../../lib/pdf-document.ts';

/** Trim sizes of the products (ISO/IEC 7810 ID-1 for the card) and the printer's bleed around them, in millimetres. */
export const PRINT_SIZES: Record<CardProductId, { widthMm: number; heightMm: number }> = {
  card: { widthMm: 85.6, heightMm: 54 },
  sticker: { widthMm: 50, heightMm: 50 },
};
export const BLEED_MM = 3;

export interface PrintJob {
  product: CardProductId;
  /** One page per item: the printer's imposition software expects each piece as a page. */
  quantity: number;
  publicName: string;
  /** The card's path-form payment page, which the QR code encodes. */
  paymentUrl: string;
  qrPng: Buffer;
}

/** Sets the page boxes a print shop reads: MediaBox/BleedBox = trim + bleed, TrimBox = the cut size. */
function setPrintBoxes(doc: Pdf, trim: { width: number; height: number }, bleed: number) {
  const page = doc.page as unknown as { dictionary: { data: Record<string, unknown> } };
  const round = (value: number) => Math.round(value * 1000) / 1000;
  page.dictionary.data.TrimBox = [bleed, bleed, bleed + trim.width, bleed + trim.height].map(round);
  page.dictionary.data.BleedBox = [0, 0, trim.width + 2 * bleed, trim.height + 2 * bleed].map(round);
}

/** The card: a dark band with the name and logo bleeding off the left, the QR code on white at the right. */
function drawCard(doc: Pdf, job: PrintJob, trim: { width: number; height: number }, bleed: number) {
  const qrSize = trim.height - 8 * MM;
  const qrX = bleed + trim.width - qrSize - 4 * MM;
  const bandWidth = qrX - 3 * MM;
  doc.rect(0, 0, bleed + bandWidth, trim.height + 2 * bleed).fill(COLORS.ink);
  drawLogo(doc, bleed + 5 * MM, bleed + 5 * MM, 7 * MM, 'dark');
  style(doc, 'bold', 13, COLORS.white).text(job.publicName, bleed + 5 * MM, bleed + 22 * MM, {
    width: bandWidth - 8 * MM,
    height: 18 * MM,
    ellipsis: true,
  });
  // The address under the name, for a guest whose camera cannot read the code; it wraps at the hyphens of the id.
  style(doc, 'regular', 5.5, '#cbd5e1').text(
    job.paymentUrl.replace(/^https?:\/\//, ''),
    bleed + 5 * MM,
    bleed + trim.height - 12 * MM,
    {
      width: bandWidth - 8 * MM,
      height: 8 * MM,
      ellipsis: true,
    },
  );
  doc.image(job.qrPng, qrX, bleed + (trim.height - qrSize) / 2, { width: qrSize });
}

/** The sticker: the QR code filling most of the square, the name under it. */
function drawSticker(doc: Pdf, job: PrintJob, trim: { width: number; height: number }, bleed: number) {
  const qrSize = trim.width - 14 * MM;
  doc.image(job.qrPng, bleed + (trim.width - qrSize) / 2, bleed + 3 * MM, { width: qrSize });
  style(doc, 'bold', 9, COLORS.ink).text(job.publicName, bleed + 3 * MM, bleed + qrSize + 4 * MM, {
    width: trim.width - 6 * MM,
    align: 'center',
    lineBreak: false,
    ellipsis: true,
  });
}

/**
 * The print-ready PDF of an order (DESIGN "Card shop"): one page per item, each page the trim size plus 3 mm bleed on
 * every side, with TrimBox and BleedBox set, the QR code as a lossless image. The same file is the user's preview.
 */
export async function renderPrintFile(job: PrintJob): Promise<Buffer> {
  const size = PRINT_SIZES[job.product];
  const trim = { width: size.widthMm * MM, height: size.heightMm * MM };
  const bleed = BLEED_MM * MM;
  const page: [number, number] = [trim.width + 2 * bleed, trim.height + 2 * bleed];
  const doc = createPdf({ title: `Tipcard ${job.product} — ${job.publicName}`, locale: 'en', size: page });
  for (let item = 0; item < job.quantity; item++) {
    if (item > 0) doc.addPage({ size: page, margin: 0 });
    setPrintBoxes(doc, trim, bleed);
    doc.rect(0, 0, page[0], page[1]).fill(COLORS.white);
    if (job.product === 'card') drawCard(doc, job, trim, bleed);
    else drawSticker(doc, job, trim, bleed);
  }
  return pdfBytes(doc);
}
