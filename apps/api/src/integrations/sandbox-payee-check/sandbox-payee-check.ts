import { isSepaIban } from '@tipcard/shared/payouts/bank-details';
import type { PayeeCheck, PayeeCheckAnswer } from '../../modules/payouts/payee-check.ts';
import { PayeeCheckRefused } from '../../modules/payouts/payee-check.ts';

/**
 * The sandbox's bank accounts (README "Payouts", the table in decision 0043). Any other well-formed account answers `match`, as if
 * its bank held exactly the name given, so ordinary test data needs no confirmation. These reach the other answers:
 * the name held, typed with a letter or two wrong (or its words in another order) → `close_match` with that name;
 * anything further off → `no_match`; the `not_possible` accounts never answer, whatever the name.
 */
export const SANDBOX_PAYEE_ACCOUNTS = {
  sepa: [
    { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP', holder: 'Dupont' },
    { iban: 'ES7921000813610123456789', bic: 'CAIXESBB', holder: 'García López' },
    { iban: 'DE02120300000000202051', bic: 'BYLADEM1001', holder: null },
  ],
  uk: [
    { sortCode: '404784', accountNumber: '70872490', holder: 'Jane Smith' },
    { sortCode: '200000', accountNumber: '55779911', holder: null },
  ],
} as const;

/** Names compared as the schemes' matching rules do: case, accents, punctuation and spacing do not count. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

const sortedWords = (name: string) => name.split(' ').sort().join(' ');

/** The answer for a name given against the name the bank holds (null: the bank cannot be asked). */
export function compareNames(given: string, held: string | null): PayeeCheckAnswer {
  if (held === null) return { result: 'not_possible', bankName: null };
  const a = normalizeName(given);
  const b = normalizeName(held);
  if (a === b) return { result: 'match', bankName: null };
  if (editDistance(a, b) <= 2 || sortedWords(a) === sortedWords(b)) return { result: 'close_match', bankName: held };
  return { result: 'no_match', bankName: null };
}

function checkName(name: string) {
  const trimmed = name.trim();
  // The EPC scheme carries the name in at most 140 characters, and a name must have a letter to compare.
  if (trimmed.length === 0 || trimmed.length > 140 || !/\p{L}/u.test(trimmed)) throw new PayeeCheckRefused('name');
  return trimmed;
}

/** The default payee check (PAYEE_CHECK=sandbox): the table above, answered at once, deterministic. */
export function createSandboxPayeeCheck(): PayeeCheck {
  return {
    name: 'sandbox',
    async checkIban({ iban, name }) {
      if (!isSepaIban(iban)) throw new PayeeCheckRefused('iban');
      const given = checkName(name);
      const account = SANDBOX_PAYEE_ACCOUNTS.sepa.find((item) => item.iban === iban);
      return account ? compareNames(given, account.holder) : { result: 'match', bankName: null };
    },
    async checkUkAccount({ sortCode, accountNumber, name }) {
      if (!/^\d{6}$/.test(sortCode)) throw new PayeeCheckRefused('sort_code');
      if (!/^\d{8}$/.test(accountNumber)) throw new PayeeCheckRefused('account_number');
      const given = checkName(name);
      const account = SANDBOX_PAYEE_ACCOUNTS.uk.find(
        (item) => item.sortCode === sortCode && item.accountNumber === accountNumber,
      );
      return account ? compareNames(given, account.holder) : { result: 'match', bankName: null };
    },
  };
}
