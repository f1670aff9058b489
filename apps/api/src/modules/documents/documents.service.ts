import type { Locale } from '@tipcard/shared/constants';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { paymentUrlOf, type CardsService } from '../cards/cards.service.ts';
import { listClients } from '../users/users.service.ts';
import { renderAgentsPdf } from './agents-pdf.ts';
import { renderCardPdf } from './card-pdf.ts';
import { renderTariffPdf } from './tariff-pdf.ts';

export interface DocumentsService {
  tariff(locale: Locale): Promise<Buffer>;
  agents(locale: Locale): Promise<Buffer>;
  /** The owner's card as a printable sheet; another user's card (or none) is a 404. */
  cardSheet(userId: string, cardId: string, locale: Locale): Promise<Buffer>;
}

/** The owner's cards for the card sheet, the operator's details for the small print, the tariff's figures. */
export interface DocumentsDeps {
  db: Database;
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
  db,
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
      // The QR call checks ownership first: another user's card id answers 404 here.
      const qr = await cards.qrCode(userId, cardId, { url: paymentUrl, format: 'png' });
      const clients = await listClients(db, userId);
      const owned = (await Promise.all(clients.map((client) => cards.list(userId, client.id)))).flat();
      const card = owned.find((item) => item.id === cardId);
      if (!card) throw new AppError('not_found');
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
