import type { Locale } from '@tipcard/shared/constants';
import { t } from '../../lib/i18n.ts';
import { A4, COLORS, createPdf, drawFooter, drawLogo, pdfBytes, style } from '../../lib/pdf-document.ts';
import { companyLines, receiptLines } from './receipt-text.ts';
import type { ReceiptView } from './receipt-view.ts';

const MARGIN = 48;

/** The thank-you photo's box on the page: small beside the lines, so the receipt stays one page. */
const PHOTO_BOX: [number, number] = [160, 120];

/**
 * The payer's receipt on one A4 page: the same lines as the receipt page, the recipient's thank-you (with its photo,
 * the stored JPEG) below them, the operator's details at the foot.
 */
export async function renderReceiptPdf(view: ReceiptView, locale: Locale, thankYouPhoto: Buffer | null = null): Promise<Buffer> {
  const title = t('receipts:title', { reference: view.reference }, locale);
  const doc = createPdf({ title, locale, author: view.company.name });
  const width = A4.width - MARGIN * 2;
  drawLogo(doc, MARGIN, MARGIN, 28, 'light');
  style(doc, 'bold', 20, COLORS.ink).text(title, MARGIN, MARGIN + 56, { width });
  let y = MARGIN + 100;
  const valueX = MARGIN + 200;
  for (const line of receiptLines(view, locale)) {
    style(doc, 'regular', 10, COLORS.muted).text(line.label, MARGIN, y, { width: 190 });
    style(doc, line.strong ? 'bold' : 'semibold', 12, COLORS.text).text(line.value, valueX, y - 1, { width: width - 200 });
    y = Math.max(doc.y, y + 14) + 10;
  }
  if (view.thankYou) {
    if (thankYouPhoto) {
      doc.image(thankYouPhoto, MARGIN, y + 16, { fit: PHOTO_BOX });
      y += PHOTO_BOX[1] + 8;
    }
    style(doc, 'bold', 11, COLORS.ink).text(t('receipts:thank_you_from', { name: view.recipientName }, locale), MARGIN, y + 16, {
      width,
    });
    style(doc, 'regular', 11, COLORS.text).text(view.thankYou.text, MARGIN, doc.y + 4, { width });
    y = doc.y;
  }
  style(doc, 'regular', 9, COLORS.muted).text(t('receipts:quote', {}, locale), MARGIN, y + 16, { width });
  drawFooter(doc, companyLines(view, locale), MARGIN);
  return pdfBytes(doc);
}
