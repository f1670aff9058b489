import type { Locale } from '@tipcard/shared/constants';
import { formatDate } from '@tipcard/shared/dates/format-date';
import { formatMoney } from '@tipcard/shared/money/format';
import { t } from '../../lib/i18n.ts';
import { A4, COLORS, createPdf, drawHairline, drawLogo, pdfBytes, style } from '../../lib/pdf-document.ts';

export interface DonationPdfInput {
  locale: Locale;
  /** A receipt names one payment; a statement every payment of its year. */
  title: string;
  donorName: string;
  donorCode: string;
  recipientName: string;
  lines: { date: Date; kind: 'one_off' | 'monthly'; amountCents: number }[];
}

const MARGIN = 48;

/** A donation receipt or annual statement (DESIGN "Invoices and donations"): donor and code, recipient, each payment, total. */
export async function renderDonationPdf(input: DonationPdfInput): Promise<Buffer> {
  const { locale } = input;
  const doc = createPdf({ title: input.title, locale });
  const width = A4.width - MARGIN * 2;
  drawLogo(doc, MARGIN, MARGIN, 28, 'light');
  style(doc, 'bold', 20, COLORS.ink).text(input.title, MARGIN, MARGIN + 56, { width });
  let y = MARGIN + 100;
  for (const [label, value] of [
    [t('donations.pdf.donor', {}, locale), input.donorName],
    [t('donations.pdf.code', {}, locale), input.donorCode],
    [t('donations.pdf.recipient', {}, locale), input.recipientName],
  ] as const) {
    style(doc, 'regular', 9, COLORS.muted).text(label, MARGIN, y, { width });
    style(doc, 'semibold', 12, COLORS.text).text(value, MARGIN, y + 12, { width });
    y += 38;
  }
  y += 10;
  const columns = { date: MARGIN, kind: MARGIN + 200, amount: MARGIN + width - 140 };
  style(doc, 'semibold', 9, COLORS.muted);
  doc.text(t('donations.pdf.date', {}, locale), columns.date, y);
  doc.text(t('donations.pdf.kind', {}, locale), columns.kind, y);
  doc.text(t('donations.pdf.amount', {}, locale), columns.amount, y, { width: 140, align: 'right' });
  y += 16;
  drawHairline(doc, MARGIN, y, width);
  y += 8;
  for (const line of input.lines) {
    if (y > A4.height - MARGIN - 80) {
      doc.addPage();
      y = MARGIN;
    }
    style(doc, 'regular', 11, COLORS.text);
    doc.text(formatDate(line.date, 'longDate', locale, { timeZone: 'UTC' }), columns.date, y);
    doc.text(t(`donations.kind.${line.kind}`, {}, locale), columns.kind, y);
    doc.text(formatMoney(line.amountCents, locale), columns.amount, y, { width: 140, align: 'right' });
    y += 20;
  }
  drawHairline(doc, MARGIN, y, width);
  y += 10;
  const total = input.lines.reduce((sum, line) => sum + line.amountCents, 0);
  style(doc, 'bold', 12, COLORS.ink);
  doc.text(t('donations.pdf.total', {}, locale), columns.date, y);
  doc.text(formatMoney(total, locale), columns.amount, y, { width: 140, align: 'right' });
  style(doc, 'regular', 9, COLORS.muted).text(t('donations.pdf.note', {}, locale), MARGIN, y + 40, { width });
  return pdfBytes(doc);
}
