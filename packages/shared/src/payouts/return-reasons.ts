/**
 * ISO 20022 return reasons a bank sends a payout back with (pacs.004 / camt.054 / pain.002), with their meaning in English for
 * the back office. The user reads them in their language: `payouts:return_reasons.<code>` in the four catalogs.
 */
export const RETURN_REASONS = {
  AB05: 'Timeout at the creditor agent (SEPA Instant)',
  AC01: 'Incorrect account number',
  AC04: 'Closed account number',
  AC06: 'Blocked account',
  AG01: 'Transaction forbidden',
  AM04: 'Insufficient funds',
  AM05: 'Duplication',
  BE04: 'Missing creditor address',
  MD07: 'End customer deceased',
  MS02: 'Not specified reason by customer',
  MS03: 'Not specified reason by agent',
  RC01: 'Bank identifier incorrect',
  RR01: 'Missing debtor account or identification',
  RR02: "Missing debtor's name or address",
  RR03: "Missing creditor's name or address",
  RR04: 'Regulatory reason',
} as const;
export type ReturnReasonCode = keyof typeof RETURN_REASONS;
export const returnReasonCodes = Object.keys(RETURN_REASONS) as [ReturnReasonCode, ...ReturnReasonCode[]];

/**
 * The code a stored return reason starts with ("AC04 Closed account number"), or null when the bank gave none we know:
 * the rails and the operator keep the code and its English meaning together in one text.
 */
export function returnReasonCode(stored: string | null): ReturnReasonCode | null {
  const code = stored?.trim().slice(0, 4).toUpperCase();
  return code !== undefined && code in RETURN_REASONS ? (code as ReturnReasonCode) : null;
}
