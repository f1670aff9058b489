import type { PayeeCheckResult } from '@tipcard/shared/payouts/schemas';

/** What a payee-name check answers: the EPC VOP scheme's four answers, UK CoP's the same. */
export interface PayeeCheckAnswer {
  result: PayeeCheckResult;
  /** The name the account's bank holds; the schemes give it only with a close match. */
  bankName: string | null;
}

/**
 * The payee-name check (Verification of Payee for SEPA, Confirmation of Payee for UK accounts; decision 0043).
 * An implementation answers `not_possible` itself when the responding bank cannot be reached or does not take
 * part, as the schemes do; it throws `PayeeCheckRefused` only for a request the scheme would refuse (a malformed
 * account or name), which the service has ruled out before asking.
 */
export interface PayeeCheck {
  readonly name: 'sandbox';
  checkIban(request: { iban: string; name: string }): Promise<PayeeCheckAnswer>;
  checkUkAccount(request: { sortCode: string; accountNumber: string; name: string }): Promise<PayeeCheckAnswer>;
}

export class PayeeCheckRefused extends Error {
  constructor(readonly field: 'iban' | 'sort_code' | 'account_number' | 'name') {
    super(`The payee check refuses a malformed ${field}`);
    this.name = 'PayeeCheckRefused';
  }
}
