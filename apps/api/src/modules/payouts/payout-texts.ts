import { formatMoney } from '@tipcard/shared/money/format';
import { returnReasonCode } from '@tipcard/shared/payouts/return-reasons';
import type { Executor } from '../../db/client.ts';
import { t } from '../../lib/i18n.ts';
import { enqueueSmsAt } from '../messaging/messaging.service.ts';
import { findUserById } from '../users/users.service.ts';
import { maskedAccountOf } from './payout-methods.service.ts';
import type { PayoutRow } from './payouts.repository.ts';

/** A short reference the SMS and the user's screen share, so a code can be told apart from another payout's. */
export const payoutRef = (payoutId: string) => payoutId.slice(0, 8).toUpperCase();

/** The payout's destination as the user's screen and texts show it. */
export const maskedDestination = (row: PayoutRow) =>
  maskedAccountOf({ kind: row.destKind, iban: row.destIban, accountNumber: row.destAccountNumber, sortCode: row.destSortCode });

/**
 * The bank's answer told to the user, in the caller's transaction (the one applying it) and in the user's language
 * now (docs/decisions/0032: it may have changed since the withdrawal was asked), unless they turned these texts off
 * in Settings; a return names the bank's reason in that language (docs/decisions/0049). Only the code is a security
 * message.
 */
export async function textPayoutOutcome(
  tx: Executor,
  payout: PayoutRow,
  outcome: 'paid' | 'returned',
  now: Date,
  reason: string | null = null,
): Promise<void> {
  const user = await findUserById(tx, payout.userId);
  // An erased account has no phone left to text (its money is settled: docs/decisions/0028).
  if (!user?.smsPayouts || user.erasedAt) return;
  const body = t(
    `sms.payout_${outcome}`,
    {
      ref: payoutRef(payout.id),
      amount: formatMoney(payout.amountCents, user.language),
      account: maskedDestination(payout),
      reason: t(`payouts.return_reasons.${returnReasonCode(reason) ?? 'unknown'}`, {}, user.language),
    },
    user.language,
  );
  await enqueueSmsAt(tx, { to: user.phone, body }, now);
}
