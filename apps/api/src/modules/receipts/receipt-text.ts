import { formatDate } from '@tipcard/shared/dates/format-date';
import { formatMoney } from '@tipcard/shared/money/format';
import { typeset } from '@tipcard/shared/i18n/typography';
import { formatLanguage, t, type TextLanguage } from '../../lib/i18n.ts';
import type { ReceiptView } from './receipt-view.ts';

/** Card brands as their owners write them; an unknown one is shown as the provider names it. */
const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  maestro: 'Maestro',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  diners: 'Diners Club',
};
const brandName = (brand: string) => BRANDS[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);

/** The receipt's lines, label and value, in a language: the page and the PDF show the same ones in the same order. */
export function receiptLines(view: ReceiptView, locale: TextLanguage): { label: string; value: string; strong?: boolean }[] {
  const written = formatLanguage(locale);
  // Through the same typography filter as the texts: an amount never breaks before its € sign.
  const money = (cents: number) => typeset(formatMoney(cents, written), written);
  return [
    ...(view.donor
      ? [
          { label: t('donations.pdf.donor', {}, locale), value: view.donor.name },
          ...(view.donor.code ? [{ label: t('donations.pdf.code', {}, locale), value: view.donor.code }] : []),
        ]
      : []),
    { label: t('receipts:paid_to', {}, locale), value: view.recipientName },
    ...(view.description ? [{ label: t('receipts:description', {}, locale), value: view.description }] : []),
    { label: t('receipts:amount', {}, locale), value: money(view.amountCents) },
    ...(view.feeCoveredCents > 0 ? [{ label: t('receipts:fee_covered', {}, locale), value: money(view.feeCoveredCents) }] : []),
    { label: t('receipts:total', {}, locale), value: money(view.totalCents), strong: true },
    ...(view.refundedCents > 0 ? [{ label: t('receipts:refunded', {}, locale), value: money(view.refundedCents) }] : []),
    { label: t('receipts:date', {}, locale), value: formatDate(view.paidAt, 'longDate', written, { timeZone: 'UTC' }) },
    { label: t('receipts:reference', {}, locale), value: view.reference },
    ...(view.card
      ? [
          {
            label: t('receipts:method', {}, locale),
            value: t('receipts:card', { brand: brandName(view.card.brand), last4: view.card.last4 }, locale),
          },
        ]
      : []),
    { label: t('receipts:status', {}, locale), value: t(`receipts:status_${view.status}`, {}, locale) },
  ];
}

/** The operator's legal details as lines (name, registration number, licence, address), those configured only. */
export function companyLines(view: ReceiptView, locale: TextLanguage): string[] {
  const { company } = view;
  return [
    company.name ?? '',
    company.registrationNumber ? t('receipts:registration', { number: company.registrationNumber }, locale) : '',
    company.licence ? t('receipts:licence', { licence: company.licence }, locale) : '',
    company.address ?? '',
  ].filter(Boolean);
}
