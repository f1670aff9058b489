import type { Locale } from '@tipcard/shared/constants';
import { formatMoney } from '@tipcard/shared/money/format';
import { t } from '../../lib/i18n.ts';
import { A4, COLORS, createPdf, drawFooter, drawLogo, pdfBytes, style } from '../../lib/pdf-document.ts';

export interface TariffFigures {
  feePercent: number;
  holdHours: number;
  verificationLimitCents: number;
}

const ROWS = [
  'registration',
  'qr_card',
  'tip',
  'hold',
  'payout',
  'payout_min',
  'payout_closing',
  'payout_time',
  'cards',
  'referral',
  'verification',
] as const;
const MARGIN = 48;

/** The tariff sheet: every fee and limit of the service, with the configurable ones taken from configuration. */
export async function renderTariffPdf(locale: Locale, figures: TariffFigures, footer: string[]): Promise<Buffer> {
  const tr = (key: string, vars?: Record<string, string | number>) => t(`documents.tariff.${key}`, vars, locale);
  const doc = createPdf({ title: `Tipcard — ${tr('title')}`, locale });
  const width = A4.width - MARGIN * 2;

  doc.rect(0, 0, A4.width, 176).fill(COLORS.ink);
  drawLogo(doc, MARGIN, 40, 28, 'dark');
  style(doc, 'bold', 30, COLORS.white).text(tr('title'), MARGIN, 92, { width });
  style(doc, 'regular', 11, '#c7d2e6').text(tr('subtitle'), MARGIN, 134, { width });

  const vars = {
    fee: figures.feePercent,
    count: figures.holdHours,
    limit: formatMoney(figures.verificationLimitCents, locale),
  };
  let y = 208;
  style(doc, 'semibold', 9, COLORS.muted);
  doc.text(tr('column_service').toUpperCase(), MARGIN + 12, y, { width: 260, characterSpacing: 0.6 });
  doc.text(tr('column_price').toUpperCase(), MARGIN + 290, y, { width: width - 302, characterSpacing: 0.6 });
  y += 20;
  ROWS.forEach((row, index) => {
    const label = tr(`rows.${row}.label`, vars);
    const price = tr(`rows.${row}.price`, vars);
    style(doc, 'regular', 10.5, COLORS.text);
    const height = Math.max(doc.heightOfString(label, { width: 262 }), doc.heightOfString(price, { width: width - 302 })) + 20;
    if (index % 2 === 0) doc.rect(MARGIN, y, width, height).fill(COLORS.primarySoft);
    style(doc, 'semibold', 10.5, COLORS.ink).text(label, MARGIN + 12, y + 10, { width: 262 });
    style(doc, 'regular', 10.5, COLORS.text).text(price, MARGIN + 290, y + 10, { width: width - 302 });
    y += height;
  });
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + width, y)
    .lineWidth(1)
    .strokeColor(COLORS.primary)
    .stroke();

  style(doc, 'regular', 9.5, COLORS.muted).text(tr('note'), MARGIN, y + 18, { width, lineGap: 3 });
  drawFooter(doc, footer, MARGIN);
  return pdfBytes(doc);
}
