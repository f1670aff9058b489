import type { Locale } from '@tipcard/shared/constants';
import { t } from '../../lib/i18n.ts';
import { A4, COLORS, MM, createPdf, drawLogo, pdfBytes, style } from '../../lib/pdf-document.ts';

export interface PrintableCard {
  publicName: string;
  title: string;
  donation: boolean;
  paymentUrl: string;
  qrPng: Buffer;
}

const CARD = { width: 100 * MM, height: 150 * MM };

/**
 * One card on an A4 sheet, ready to print and cut along the dashed line: the QR code, the public name and a
 * one-line instruction in the owner's language.
 */
export async function renderCardPdf(card: PrintableCard, locale: Locale): Promise<Buffer> {
  const tr = (key: string) => t(`documents.card.${key}`, undefined, locale);
  const doc = createPdf({ title: `Tipcard — ${card.publicName}`, locale });
  const x = (A4.width - CARD.width) / 2;
  const y = (A4.height - CARD.height) / 2;
  const inner = CARD.width - 40;

  doc.save();
  doc
    .roundedRect(x - 6, y - 6, CARD.width + 12, CARD.height + 12, 16)
    .dash(4, { space: 4 })
    .lineWidth(0.5)
    .strokeColor(COLORS.muted)
    .stroke();
  doc.restore();
  style(doc, 'regular', 8, COLORS.muted).text(tr('cut_here'), x, y - 22, { width: CARD.width, align: 'center' });

  doc.roundedRect(x, y, CARD.width, CARD.height, 12).fill(COLORS.white);
  doc.save();
  doc.roundedRect(x, y, CARD.width, CARD.height, 12).clip();
  doc.rect(x, y, CARD.width, 58).fill(COLORS.ink);
  doc.restore();
  doc.roundedRect(x, y, CARD.width, CARD.height, 12).lineWidth(0.75).strokeColor(COLORS.line).stroke();
  drawLogo(doc, x + 20, y + 17, 24, 'dark');

  style(doc, 'bold', 18, COLORS.ink).text(card.publicName, x + 20, y + 78, { width: inner, align: 'center' });
  style(doc, 'regular', 10, COLORS.muted).text(card.title, x + 20, doc.y + 2, { width: inner, align: 'center' });

  const qrSize = 64 * MM;
  doc.image(card.qrPng, x + (CARD.width - qrSize) / 2, y + 132, { width: qrSize });

  style(doc, 'semibold', 11.5, COLORS.ink).text(
    tr(card.donation ? 'instruction_donation' : 'instruction_tip'),
    x + 20,
    y + 140 + qrSize,
    {
      width: inner,
      align: 'center',
    },
  );
  style(doc, 'regular', 7.5, COLORS.muted).text(card.paymentUrl.replace(/^https?:\/\//, ''), x + 20, y + CARD.height - 26, {
    width: inner,
    align: 'center',
  });
  return pdfBytes(doc);
}
