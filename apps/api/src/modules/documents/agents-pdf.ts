import QRCode from 'qrcode';
import type { Locale } from '@tipcard/shared/constants';
import { ACTIVITY_TYPES } from '@tipcard/shared/constants';
import { t } from '../../lib/i18n.ts';
import { A4, COLORS, createPdf, drawFooter, drawLogo, pdfBytes, style } from '../../lib/pdf-document.ts';

const MARGIN = 48;
const STEPS = ['one', 'two', 'three'] as const;
const BENEFITS = ['free', 'payout', 'speed', 'teams', 'cards', 'languages'] as const;

/**
 * The print-for-agents sheet: what an agent hands to a venue. It explains the service, and leaves room for the
 * agent's name and referral code, written by hand, next to a QR code to the sign-up page.
 */
export async function renderAgentsPdf(locale: Locale, publicUrl: string, footer: string[]): Promise<Buffer> {
  const tr = (key: string) => t(`documents.agents.${key}`, undefined, locale);
  const doc = createPdf({ title: `Tipcard — ${tr('title')}`, locale });
  const width = A4.width - MARGIN * 2;

  // The band grows with the title and lead, which are longer in some languages.
  const titleHeight = style(doc, 'bold', 26, COLORS.white).heightOfString(tr('title'), { width: width - 40 });
  const leadHeight = style(doc, 'regular', 10.5, COLORS.white).heightOfString(tr('lead'), { width: width - 40, lineGap: 2.5 });
  const bandHeight = 76 + titleHeight + 8 + leadHeight + 22;
  doc.rect(0, 0, A4.width, bandHeight).fill(COLORS.ink);
  drawLogo(doc, MARGIN, 30, 26, 'dark');
  style(doc, 'bold', 26, COLORS.white).text(tr('title'), MARGIN, 76, { width: width - 40 });
  style(doc, 'regular', 10.5, '#c7d2e6').text(tr('lead'), MARGIN, 76 + titleHeight + 8, { width: width - 40, lineGap: 2.5 });

  let y = bandHeight + 18;
  const heading = (text: string) => {
    style(doc, 'bold', 12.5, COLORS.ink).text(text, MARGIN, y, { width });
    y = doc.y + 6;
  };

  heading(tr('for_whom_title'));
  const columnWidth = (width - 16) / 2;
  ACTIVITY_TYPES.forEach((type, index) => {
    const x = MARGIN + (index % 2) * (columnWidth + 16);
    const rowY = y + Math.floor(index / 2) * 16;
    doc.circle(x + 4, rowY + 6, 2.5).fill(COLORS.accent);
    style(doc, 'regular', 10.5, COLORS.text).text(t(`common.activity_types.${type}`, undefined, locale), x + 14, rowY, {
      width: columnWidth - 14,
    });
  });
  y += Math.ceil(ACTIVITY_TYPES.length / 2) * 16 + 8;

  heading(tr('steps_title'));
  STEPS.forEach((step, index) => {
    doc.circle(MARGIN + 11, y + 10, 11).fill(COLORS.primary);
    style(doc, 'bold', 10, COLORS.white).text(String(index + 1), MARGIN, y + 4.5, { width: 22, align: 'center' });
    style(doc, 'semibold', 11, COLORS.ink).text(tr(`steps.${step}.title`), MARGIN + 34, y + 1, { width: width - 34 });
    style(doc, 'regular', 10, COLORS.muted).text(tr(`steps.${step}.text`), MARGIN + 34, doc.y + 2, {
      width: width - 34,
      lineGap: 2,
    });
    y = doc.y + 8;
  });

  heading(tr('benefits_title'));
  for (const benefit of BENEFITS) {
    doc.circle(MARGIN + 4, y + 6, 2.5).fill(COLORS.accent);
    style(doc, 'regular', 10, COLORS.text).text(tr(`benefits.${benefit}`), MARGIN + 14, y, { width: width - 14 });
    y = doc.y + 4;
  }

  // The agent's box: handwriting lines on the left, the sign-up QR code on the right.
  // Pinned above the footer's rule (drawFooter), so the sheet always ends the same way.
  const boxHeight = 116;
  const boxY = A4.height - MARGIN - 40 - boxHeight;
  doc.roundedRect(MARGIN, boxY, width, boxHeight, 12).fill(COLORS.primarySoft);
  style(doc, 'bold', 12, COLORS.ink).text(tr('agent_title'), MARGIN + 20, boxY + 16, { width: width - 190 });
  for (const [index, key] of (['agent_name', 'agent_code'] as const).entries()) {
    const lineY = boxY + 54 + index * 36;
    style(doc, 'regular', 9, COLORS.muted).text(tr(key), MARGIN + 20, lineY - 14, { width: width - 190 });
    doc
      .moveTo(MARGIN + 20, lineY + 10)
      .lineTo(MARGIN + width - 170, lineY + 10)
      .lineWidth(0.75)
      .strokeColor(COLORS.muted)
      .stroke();
  }
  const signUpUrl = `${publicUrl}/registration`;
  const qr = await QRCode.toBuffer(signUpUrl, {
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 360,
    color: { dark: COLORS.ink, light: '#ffffff' },
  });
  doc.image(qr, MARGIN + width - 112, boxY + 10, { width: 84 });
  style(doc, 'semibold', 8, COLORS.ink).text(tr('scan_to_sign_up'), MARGIN + width - 130, boxY + 98, {
    width: 120,
    align: 'center',
  });

  drawFooter(doc, footer, MARGIN);
  return pdfBytes(doc);
}
