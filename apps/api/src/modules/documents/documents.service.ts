import type { Locale } from '@tipcard/shared/constants';
import type { Config } from '../../config.ts';
import { paymentUrlOf, type CardsService } from '../cards/cards.service.ts';
import { renderAgentsPdf } from './agents-pdf.ts';
import { renderCardPdf } from './card-pdf.ts';
import { renderTariffPdf } from './tariff-pdf.ts';

export interface DocumentsService {
  tariff(locale: Locale): Promise<Buffer>;
  agents(locale: Locale): Promise<Buffer>;
  /** A card the user holds or may use (a venue card's admin) as a printable sheet; another user's card (or none) is a 404. */
  cardSheet(userId: string, cardId: string, locale: Locale): Promise<Buffer>;
}

/** The owner's cards for the card sheet, the operator's details for the small print, the tariff's figures. */
export interface DocumentsDeps {
  cards: CardsService;
  publicUrl: string;
  site: Config['site'];
  feePercent: number;
  holdHours: number;
  verificationLimitCents: number;
}

/** The operator's configured details for the small print, then the site's address. */
function footerOf(site: Config['site'], publicUrl: string): string[] {
  return [
    site.companyName,
    site.companyRegistrationNumber,
    site.companyLicence,
    site.companyAddress,
    site.supportEmail,
    site.supportPhone,
    publicUrl.replace(/^https?:\/\//, ''),
  ].filter((line): line is string => Boolean(line));
}

export function createDocumentsService({
  cards,
  publicUrl,
  site,
  feePercent,
  holdHours,
  verificationLimitCents,
}: DocumentsDeps): DocumentsService {
  const footer = footerOf(site, publicUrl);
  // The tariff and agent sheets depend only on configuration, which changes with a restart: render each once.
  const cache = new Map<string, Promise<Buffer>>();
  const once = (key: string, render: () => Promise<Buffer>) => {
    let pdf = cache.get(key);
    if (!pdf) {
      pdf = render();
      cache.set(key, pdf);
      pdf.catch(() => cache.delete(key));
    }
    return pdf;
  };
  const figures = { feePercent, holdHours, verificationLimitCents };

  return {
    tariff: (locale) => once(`tariff-${locale}`, () => renderTariffPdf(locale, figures, footer)),
    agents: (locale) => once(`agents-${locale}`, () => renderAgentsPdf(locale, publicUrl, footer)),
    async cardSheet(userId, cardId, locale) {
      const paymentUrl = paymentUrlOf(publicUrl, cardId);
      // Another user's card id answers 404 here.
      const card = await cards.usableCard(userId, cardId);
      const qr = await cards.qrCode(userId, cardId, { url: paymentUrl, format: 'png' });
      return renderCardPdf(
        {
          publicName: card.public_name,
          title: card.title,
          donation: card.activity_type === 'DONATION',
          paymentUrl,
          qrPng: qr.body as Buffer,
        },
        locale,
      );
    },
  };
}

export { renderCardPdf, type PrintableCard } from './card-pdf.ts';
