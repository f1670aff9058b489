import { DEFAULT_LOCALE, type Locale } from '@tipcard/shared/constants';

/** The operator's legal details, as the legal pages show them (COMPANY_* configuration). */
export interface ReceiptCompany {
  name: string | undefined;
  registrationNumber: string | undefined;
  licence: string | undefined;
  address: string | undefined;
}

/** Everything a receipt shows, in no language yet. */
export interface ReceiptView {
  paymentId: string;
  reference: string;
  recipientName: string;
  /** A donation's donor and the code they gave for tax (docs/decisions/0042: the donation receipt too); null otherwise. */
  donor: { name: string; code: string } | null;
  /** What an invoice was for; null for tips and donations. */
  description: string | null;
  amountCents: number;
  /** The fee the payer chose to cover (0 when the recipient bore it: the payer never paid it). */
  feeCoveredCents: number;
  totalCents: number;
  refundedCents: number;
  status: 'paid' | 'partly_refunded' | 'refunded';
  paidAt: Date;
  card: { brand: string; last4: string } | null;
  /** The recipient card's thank-you to the payer (decision 0047): plain text, escaped wherever shown; null without. */
  thankYou: { cardId: string; text: string; imageUrl: string | null } | null;
  company: ReceiptCompany;
}

/** The receipt's path in a language (`/fr/receipts/…`): the default language at the root, others under their prefix. */
export const receiptPath = (locale: Locale, token: string, rest = '') =>
  `${locale === DEFAULT_LOCALE ? '' : `/${locale}`}/receipts/${token}${rest}`;
