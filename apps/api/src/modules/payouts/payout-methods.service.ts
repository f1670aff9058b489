import type { Locale } from '@tipcard/shared/constants';
import { checkSepaAccount, maskIban, maskUkAccount } from '@tipcard/shared/payouts/bank-details';
import type { PayeeCheck as PayeeCheckAnswerBody, PayoutMethod, payoutMethodBody } from '@tipcard/shared/payouts/schemas';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { t } from '../../lib/i18n.ts';
import type { MessagingService } from '../messaging/messaging.service.ts';
import { findUserById, requireOwnClient } from '../users/users.service.ts';
import { isVerificationApproved } from '../verification/verification.service.ts';
import { PayeeCheckRefused, type PayeeCheck, type PayeeCheckAnswer } from './payee-check.ts';
import { isInstantReachable } from './instant-reachability.ts';
import * as repo from './payouts.repository.ts';

type MethodBody = z.output<typeof payoutMethodBody>;

/** Enough for a SEPA and a UK account and a few old ones; more is more likely abuse than need. */
export const MAX_PAYOUT_METHODS = 10;

export function maskedAccountOf(details: {
  kind: 'sepa' | 'uk';
  iban: string | null;
  accountNumber: string | null;
  sortCode: string | null;
}): string {
  return details.kind === 'sepa' ? maskIban(details.iban!) : maskUkAccount(details.accountNumber!, details.sortCode!);
}

export function toPayoutMethod(row: repo.PayoutMethodRow): PayoutMethod {
  return {
    id: row.id,
    kind: row.kind,
    holder: row.holder,
    masked_account: maskedAccountOf(row),
    bic: row.bic,
    instant: isInstantReachable(row),
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    payee_check:
      row.payeeCheckResult && row.payeeCheckedAt
        ? { result: row.payeeCheckResult, bank_name: row.payeeCheckName, checked_at: row.payeeCheckedAt.toISOString() }
        : null,
  };
}

/** Field-level errors with the English text, as the error handler gives zod's (DESIGN "Wire format"). */
const fieldErrors = (errors: Partial<Record<string, string[]>>) =>
  new AppError('validation_failed', {
    validationErrors: Object.fromEntries(
      Object.entries(errors).map(([field, keys]) => [field, (keys ?? []).map((key) => t(key))]),
    ),
  });

interface AccountDetails {
  iban: string | null;
  bic: string | null;
  accountNumber: string | null;
  sortCode: string | null;
  holder: string;
}

/** The account as stored: IBAN and BIC checked with ibantools and normalised, or the UK account as the schema gave it. */
function accountDetails(body: MethodBody): AccountDetails {
  if (body.kind === 'sepa') {
    const checked = checkSepaAccount(body);
    if (!checked.ok) throw fieldErrors(checked.errors);
    return { iban: checked.iban, bic: checked.bic, accountNumber: null, sortCode: null, holder: body.holder_last_name };
  }
  return { iban: null, bic: null, accountNumber: body.account_number, sortCode: body.sort_code, holder: body.holder_name };
}

export type PayoutMethodsService = ReturnType<typeof createPayoutMethodsService>;

export function createPayoutMethodsService({
  db,
  clock,
  messages,
  payeeCheck,
}: {
  db: Database;
  clock: Clock;
  messages: Pick<MessagingService, 'enqueueSms'>;
  payeeCheck: PayeeCheck;
}) {
  /** Asks the account's bank whether the holder's name is the one it holds (VoP for an IBAN, CoP for a UK account). */
  async function askPayeeCheck(kind: MethodBody['kind'], details: AccountDetails): Promise<PayeeCheckAnswer> {
    try {
      return details.iban
        ? await payeeCheck.checkIban({ iban: details.iban, name: details.holder })
        : await payeeCheck.checkUkAccount({
            sortCode: details.sortCode!,
            accountNumber: details.accountNumber!,
            name: details.holder,
          });
    } catch (error) {
      if (!(error instanceof PayeeCheckRefused)) throw error;
      const field = error.field === 'name' ? (kind === 'sepa' ? 'holder_last_name' : 'holder_name') : error.field;
      throw fieldErrors({ [field]: ['validation.valid'] });
    }
  }

  /** Owned and not deleted, or 404: another user's method id reveals nothing. */
  async function ownLiveMethod(userId: string, methodId: string) {
    const method = await repo.findLiveMethod(db, methodId);
    if (!method || method.userId !== userId) throw new AppError('not_found');
    return method;
  }

  /**
   * After verification, a new destination for money is what an account takeover would do first: every change is
   * recorded and the phone on file is told, so the real owner can react. Both happen in the change's own
   * transaction, so no change commits without its record and its text.
   */
  async function recordChange(
    tx: Executor,
    userId: string,
    method: repo.PayoutMethodRow,
    action: 'added' | 'deleted' | 'made_default',
    locale: Locale,
  ) {
    if (!(await isVerificationApproved(tx, userId))) return;
    const masked = maskedAccountOf(method);
    await repo.insertMethodEvent(tx, { userId, methodId: method.id, action, maskedAccount: masked, createdAt: clock.now() });
    const user = await findUserById(tx, userId);
    if (user)
      await messages.enqueueSms(tx, { to: user.phone, body: t(`sms.payout_method_${action}`, { account: masked }, locale) });
  }

  return {
    async list(userId: string, clientId: string): Promise<PayoutMethod[]> {
      const client = await requireOwnClient(db, userId, clientId);
      return (await repo.listMethods(db, client.userId)).map(toPayoutMethod);
    },

    /** The payee-name check alone, so the user sees the bank's answer before saving (nothing is stored). */
    async checkPayee(userId: string, clientId: string, body: MethodBody): Promise<PayeeCheckAnswerBody> {
      await requireOwnClient(db, userId, clientId);
      const answer = await askPayeeCheck(body.kind, accountDetails(body));
      return { result: answer.result, bank_name: answer.bankName, checked_at: clock.now().toISOString() };
    },

    /**
     * Checks the account (ibantools for IBAN and BIC) and asks the payee check again, since the answer shown before
     * came from the client; anything but a match is saved only with `confirm_mismatch`. The first method becomes the
     * default.
     */
    async add(userId: string, clientId: string, body: MethodBody, locale: Locale): Promise<PayoutMethod> {
      const client = await requireOwnClient(db, userId, clientId);
      const details = accountDetails(body);
      const answer = await askPayeeCheck(body.kind, details);
      if (answer.result !== 'match' && !body.confirm_mismatch) throw new AppError('payee_check_unconfirmed');
      const checkedAt = clock.now();
      const method = await db.transaction(async (tx) => {
        await repo.lockUserMethods(tx, client.userId);
        const existing = await repo.listMethods(tx, client.userId);
        if (existing.length >= MAX_PAYOUT_METHODS) throw new AppError('payout_method_limit');
        const inserted = await repo.insertMethod(tx, {
          userId: client.userId,
          kind: body.kind,
          address: body.address,
          ...details,
          payeeCheckResult: answer.result,
          payeeCheckName: answer.bankName,
          payeeCheckedAt: checkedAt,
          isDefault: !existing.some((row) => row.isDefault),
          createdAt: checkedAt,
        });
        await recordChange(tx, client.userId, inserted, 'added', locale);
        return inserted;
      });
      return toPayoutMethod(method);
    },

    /** Soft delete; refused while a withdrawal to it is awaiting its code or in flight. The next oldest becomes default. */
    async remove(userId: string, methodId: string, locale: Locale): Promise<void> {
      const method = await ownLiveMethod(userId, methodId);
      await db.transaction(async (tx) => {
        await repo.lockUserMethods(tx, userId);
        if ((await repo.countOpenPayoutsOfMethod(tx, methodId)) > 0) throw new AppError('payout_method_in_use');
        await repo.softDeleteMethod(tx, methodId, clock.now());
        const rest = await repo.listMethods(tx, userId);
        if (method.isDefault && rest[0]) await repo.setDefaultMethod(tx, userId, rest[0].id);
        await recordChange(tx, userId, method, 'deleted', locale);
      });
    },

    async makeDefault(userId: string, methodId: string, locale: Locale): Promise<PayoutMethod> {
      const method = await ownLiveMethod(userId, methodId);
      if (method.isDefault) return toPayoutMethod(method);
      await db.transaction(async (tx) => {
        await repo.lockUserMethods(tx, userId);
        if (!(await repo.findLiveMethod(tx, methodId))) throw new AppError('not_found');
        await repo.setDefaultMethod(tx, userId, methodId);
        await recordChange(tx, userId, method, 'made_default', locale);
      });
      return toPayoutMethod({ ...method, isDefault: true });
    },
  };
}
