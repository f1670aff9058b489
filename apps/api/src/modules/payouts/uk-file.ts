import { transferAmount } from './sepa-file.ts';

/**
 * A UK bulk-payment CSV (Faster Payments / Bacs bulk upload, the columns most banks' bulk templates share): sort
 * code, account number, account name, amount in pounds-and-pence notation, payment reference. Bacs allows only
 * A–Z 0–9 . & / - and space in names and references (18 characters), so text is reduced to that. Pure.
 */
export interface UkTransfer {
  sortCode: string;
  accountNumber: string;
  name: string;
  amountCents: number;
  reference: string;
}

const bacsText = (text: string, max: number) =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9.&/\- ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();

export function buildUkBulkCsv(transfers: UkTransfer[]): string {
  const lines = transfers.map((transfer) => {
    if (!/^\d{6}$/.test(transfer.sortCode) || !/^\d{8}$/.test(transfer.accountNumber)) {
      throw new Error('A UK transfer needs a 6-digit sort code and an 8-digit account number');
    }
    // Nothing left after reduction contains a comma or a quote, so no cell needs quoting.
    return [
      transfer.sortCode,
      transfer.accountNumber,
      bacsText(transfer.name, 18) || 'UNKNOWN',
      transferAmount(transfer.amountCents),
      bacsText(transfer.reference, 18),
    ].join(',');
  });
  return `${['sort_code,account_number,account_name,amount,reference', ...lines].join('\r\n')}\r\n`;
}
