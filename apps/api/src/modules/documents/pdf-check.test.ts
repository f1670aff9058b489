import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { checkPdf } from '../../lib/pdf-check.ts';
import { renderAgentsPdf } from './agents-pdf.ts';
import { renderCardPdf } from './card-pdf.ts';
import { renderTariffPdf } from './tariff-pdf.ts';

describe('checkPdf on the documents we make', () => {
  it('passes the project’s own tariff, agents and card PDFs', async () => {
    const footer = ['Tipcard SIA', 'Rīga'];
    expect(
      await checkPdf(await renderTariffPdf('lv', { feePercent: 5, holdHours: 72, verificationLimitCents: 1_500_000 }, footer)),
    ).toBe('safe');
    expect(await checkPdf(await renderAgentsPdf('en', 'https://tipcard.example', footer))).toBe('safe');
    const qrPng = await QRCode.toBuffer('https://tipcard.example/payment/abc');
    const card = {
      publicName: 'Anna Bērziņa',
      title: 'Barista',
      donation: false,
      paymentUrl: 'https://tipcard.example/payment/abc',
      qrPng,
    };
    expect(await checkPdf(await renderCardPdf(card, 'fr'))).toBe('safe');
  });
});
