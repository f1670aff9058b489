import type {
  AccountState,
  DeletionPreview,
  DeletionStatementBody,
  LanguageChoice,
  NotificationChoices,
} from '@tipcard/shared/account/schemas';
import { closingPayoutSplit } from '@tipcard/shared/payouts/schemas';
import type { Locale } from '@tipcard/shared/constants';
import type { ErrorCode } from '@tipcard/shared/errors/error-codes';
import type { Database, Executor } from '../../db/client.ts';
import type { ReadRouter } from '../../db/read-replica.ts';
import type { ErrorReporter } from '../../lib/error-reporting.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { erasePhoneTraces, revokeAllSessions } from '../auth/auth.service.ts';
import { eraseCardsOfUser, findCardRecipient } from '../cards/cards.service.ts';
import {
  closeUserAccounts,
  lastPostingOf,
  lockBalances,
  postEntry,
  userBalances,
  type UserAccountRef,
} from '../ledger/ledger.service.ts';
import { eraseMessagesTo, eraseNotices, erasePushSubscriptions } from '../messaging/messaging.service.ts';
import { hasOpenPayouts, type PayoutsService } from '../payouts/payouts.service.ts';
import { eraseTicketsOfUser } from '../support/support.service.ts';
import { zip } from '../../lib/zip.ts';
import type { CardsService } from '../cards/cards.service.ts';
import type { DonationsService } from '../donations/donations.service.ts';
import type { InvoicesService } from '../invoices/invoices.service.ts';
import type { TeamsService } from '../teams/teams.service.ts';
import type { TipsService } from '../tips/tips.service.ts';
import type { MeService } from '../me/me.service.ts';
import { exportPayoutsCsv, purgeBankDetailsOfUser } from '../payouts/payouts.service.ts';
import { exportTicketsOfUser } from '../support/support.service.ts';
import { purgeTransactionsOfUser, recordClosingGift, type TransactionsService } from '../transactions/transactions.service.ts';
import { purgeVerificationsOfUser, type VerificationService } from '../verification/verification.service.ts';
import {
  claimDueErasure,
  claimDuePurge,
  findUserById,
  lockUser,
  markErased,
  markPurged,
  requireOwnClient,
  restoreDeadline,
  setDeletion,
  updateLanguage,
  updateNotificationChoices,
  type User,
} from '../users/users.service.ts';

/**
 * A reason the account cannot be deleted yet, asked inside the deletion's transaction once the user's ledger accounts
 * are locked (see `requestDeletion` for what comes before).
 */
export type DeletionBlocker = (tx: Executor, userId: string, now: Date) => Promise<ErrorCode | null>;

/** How long the law keeps an erased account's ledger, transaction and verification records (DESIGN). */
export const RETENTION_YEARS = 5;

/** The moment before which an erasure is old enough for the purge. */
export function purgeCutoff(now: Date): Date {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff;
}

const userAccounts = (userId: string): UserAccountRef[] => [
  { userId, kind: 'main' },
  { userId, kind: 'hold' },
  { userId, kind: 'debt' },
];

/**
 * Money on the account in any form, each with its own reason: a chargeback debt, money on hold (not withdrawable
 * yet: the deletion waits for its release), or an available balance (a closing payout empties it first). The
 * accounts are locked: a tip being credited at this moment either lands first (and the deletion is refused) or
 * waits for the deletion.
 */
const balanceBlocker: DeletionBlocker = async (tx, userId) => {
  const [main, hold, debt] = userAccounts(userId);
  const balanceOf = await lockBalances(tx, [main!, hold!, debt!]);
  if (balanceOf(debt!) !== 0) return 'deletion_debt';
  if (balanceOf(hold!) !== 0) return 'deletion_balance_on_hold';
  return balanceOf(main!) !== 0 ? 'deletion_balance' : null;
};

type Gift = NonNullable<NonNullable<DeletionStatementBody>['gift']>;

/**
 * The closing gift (docs/decisions/0029): the whole available balance, exactly as the preview showed it, goes to the
 * owner of another user's charity card, on their main at once (nothing in it can be charged back), with a history row
 * on each side. No fee. Inside the deletion's transaction, under the user's lock: the checks that follow refuse money
 * on hold, a debt or a withdrawal under way, and roll the gift back with them.
 */
async function giveBalance(tx: Executor, userId: string, gift: Gift, now: Date): Promise<void> {
  const card = await findCardRecipient(tx, gift.card_id);
  if (!card || card.activityType !== 'DONATION') throw new AppError('gift_not_charity');
  if (card.userId === userId) throw new AppError('gift_own_card');
  const main: UserAccountRef = { userId, kind: 'main' };
  const charity: UserAccountRef = { userId: card.userId, kind: 'main' };
  // All in one statement, in id order (no deadlock with a gift the other way). The charity's main is locked before its
  // owner is read: their own deletion locks it too (its balance check), so either the gift lands first and that
  // deletion is refused with the balance, or the gift sees the deletion, as a payment's credit does (decision 0024).
  const balanceOf = await lockBalances(tx, [...userAccounts(userId), charity]);
  const owner = await findUserById(tx, card.userId);
  if (!owner || owner.deletedAt) throw new AppError('gift_not_charity');
  if (balanceOf(main) !== gift.amount_cents) throw new AppError('closing_balance_changed');
  const { applied } = await postEntry(tx, {
    kind: 'closing_gift',
    // Named by main's state: a repeat of this gift moves nothing, a gift after a restore and new tips is a new one.
    reference: `closing-gift:${userId}:${await lastPostingOf(tx, main)}`,
    postings: [
      { account: main, amountCents: -gift.amount_cents },
      { account: charity, amountCents: gift.amount_cents },
    ],
  });
  if (applied)
    await recordClosingGift(
      tx,
      { giverId: userId, charityId: card.userId, cardId: card.cardId, charity: card.publicName, amountCents: gift.amount_cents },
      now,
    );
}

const payoutBlocker: DeletionBlocker = async (tx, userId, now) =>
  (await hasOpenPayouts(tx, userId, now)) ? 'deletion_pending_payout' : null;

const deletedState = (deletedAt: Date): AccountState => ({
  status: 'deleted',
  restore_until: restoreDeadline(deletedAt).toISOString(),
});

export type AccountService = ReturnType<typeof createAccountService>;

/** The account's life after sign-up: the deletion statement, restore within 30 days, and the erasure after. */
interface Deps {
  db: Database;
  /** The data export reads from the replica when it is fresh enough (decision 0038). */
  reads: ReadRouter;
  clock: Clock;
  blockers?: DeletionBlocker[];
  /** Where a deleted account found with money on hold at its erasure is reported (docs/decisions/0024). */
  errors: Pick<ErrorReporter, 'message'>;
  /** What the deletion ends, each module its own part, inside the deletion's transaction. */
  tips: Pick<TipsService, 'voidTipsTo'>;
  donations: Pick<DonationsService, 'voidGiftsTo' | 'endPlansTo'>;
  invoices: Pick<InvoicesService, 'cancelOpenOfUser'>;
  teams: Pick<TeamsService, 'leaveOnDeletion'>;
  /** The other modules' own views of the user's data, for the export (each checks ownership itself). */
  me: Pick<MeService, 'get'>;
  cards: Pick<CardsService, 'list'>;
  transactions: Pick<TransactionsService, 'exportCsv'>;
  verification: Pick<VerificationService, 'get'>;
  /** The closing payout the deletion statement confirms (docs/decisions/0025). */
  payouts: Pick<PayoutsService, 'checkClosingCode' | 'confirmClosing'>;
}

const choicesOf = (user: User): NotificationChoices => ({
  sms_support_replies: user.smsSupportReplies,
  sms_payouts: user.smsPayouts,
  sms_refunds: user.smsRefunds,
});

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export function createAccountService({
  db,
  reads,
  clock,
  blockers = [],
  errors,
  tips,
  donations,
  invoices,
  teams,
  me,
  cards,
  transactions,
  verification,
  payouts,
}: Deps) {
  const checks = [balanceBlocker, payoutBlocker, ...blockers];

  return {
    /**
     * GET /user/deletion_statements/preview: what the statement will do, asked with the same checks, so the dialog
     * says it before "Yes, delete". Money on hold, a debt, a withdrawal under way or a team admin role block it; an
     * available balance is paid out whole by a closing payout first (`closingPayoutSplit`); else it deletes at once.
     */
    async deletionPreview(userId: string): Promise<DeletionPreview> {
      const now = clock.now();
      return db.transaction(async (tx) => {
        const balances = await userBalances(tx, userId);
        const found: string[] = [];
        for (const check of checks) {
          const reason = await check(tx, userId, now);
          // An available balance is not a blocker here: it is what the closing payout is for.
          if (reason && reason !== 'deletion_balance') found.push(reason);
        }
        const closing = balances.main > 0 ? closingPayoutSplit(balances.main) : null;
        return {
          outcome: found.length > 0 ? 'blocked' : closing ? 'closing_payout' : 'delete',
          blockers: found,
          available_cents: balances.main,
          held_cents: balances.hold,
          closing: closing && { amount_cents: closing.amountCents, fee_cents: closing.feeCents },
        };
      });
    },

    /**
     * POST /user/deletion_statements: refused with its reason while money or a withdrawal under way remains; an
     * available balance goes with the closing payout given in the body, confirmed by its code in this same transaction
     * (both happen or neither), or, the user's choice, as a gift to a charity card (`giveBalance`). Everything that
     * could still bring money in ends (pending checkouts of the user's cards, invoices and plans are voided, open
     * invoices canceled, team memberships ended with an admin's role handed over, monthly plans to them canceled and
     * their donors told), every session ends, the cards stop taking payments, and the account waits 30 days for a
     * restore (which brings none of those back). Money that still arrives is given back to its payer (payments).
     * Asking again answers the same.
     */
    async requestDeletion(userId: string, body?: DeletionStatementBody): Promise<AccountState> {
      const closing =
        body?.closing_payout && (await payouts.checkClosingCode(userId, body.closing_payout.id, body.closing_payout.code));
      const now = clock.now();
      return db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        if (!user || user.erasedAt) throw new AppError('unauthorized');
        if (user.deletedAt) return deletedState(user.deletedAt);
        // Rows are locked in the order a provider's event locks them (the payment; its team or invoice; the ledger
        // accounts, in the checks; a donation plan), so a payment arriving now and this deletion never wait on each
        // other in a circle.
        await tips.voidTipsTo(tx, userId);
        await donations.voidGiftsTo(tx, userId);
        await invoices.cancelOpenOfUser(tx, userId, now);
        await teams.leaveOnDeletion(tx, userId, now);
        if (closing) await payouts.confirmClosing(tx, closing, now);
        if (body?.gift) await giveBalance(tx, userId, body.gift, now);
        for (const check of checks) {
          const reason = await check(tx, userId, now);
          if (reason) throw new AppError(reason);
        }
        await donations.endPlansTo(tx, userId, now);
        await setDeletion(tx, userId, { deletedAt: now, erasureDueAt: restoreDeadline(now) });
        await revokeAllSessions(tx, userId, now);
        return deletedState(now);
      });
    },

    /** POST /user/restore: within 30 days of the deletion the account is back as it was (cards take payments again). */
    async restore(userId: string): Promise<AccountState> {
      const now = clock.now();
      await db.transaction(async (tx) => {
        const user = await lockUser(tx, userId);
        if (!user || user.erasedAt) throw new AppError('unauthorized');
        if (!user.deletedAt) return;
        if (now >= restoreDeadline(user.deletedAt)) throw new AppError('restore_expired');
        await setDeletion(tx, userId, { deletedAt: null, erasureDueAt: null });
      });
      return { status: 'active', restore_until: null };
    },

    async notificationChoices(userId: string, clientId: string): Promise<NotificationChoices> {
      await requireOwnClient(db, userId, clientId);
      const user = await findUserById(db, userId);
      return choicesOf(user!);
    },

    async setNotificationChoices(userId: string, clientId: string, choices: NotificationChoices): Promise<NotificationChoices> {
      await requireOwnClient(db, userId, clientId);
      const user = await updateNotificationChoices(db, userId, {
        smsSupportReplies: choices.sms_support_replies,
        smsPayouts: choices.sms_payouts,
        smsRefunds: choices.sms_refunds,
      });
      return choicesOf(user!);
    },

    async language(userId: string, clientId: string): Promise<LanguageChoice> {
      await requireOwnClient(db, userId, clientId);
      const user = await findUserById(db, userId);
      return { language: user!.language };
    },

    async setLanguage(userId: string, clientId: string, choice: LanguageChoice): Promise<LanguageChoice> {
      await requireOwnClient(db, userId, clientId);
      await updateLanguage(db, userId, choice.language);
      return choice;
    },

    /**
     * GET /clients/{id}/export: the user's data as a ZIP (DESIGN "Account deletion and data export"): the profile,
     * cards, tickets and verification (status and dates, never the documents) as JSON; transactions and payouts as
     * CSV. Only the user's own rows: every part is read through the owning module, by the user's id.
     */
    async exportData(userId: string, clientId: string, locale: Locale): Promise<{ fileName: string; content: Buffer }> {
      const now = clock.now();
      const [profile, cardList, transactionsCsv, verificationStatus] = await Promise.all([
        me.get(userId),
        cards.list(userId, clientId),
        transactions.exportCsv(userId, clientId, {}, locale),
        verification.get(userId, clientId),
      ]);
      const reader = await reads.reader('export', `user:${userId}`);
      const [payoutsCsv, tickets] = await Promise.all([
        exportPayoutsCsv(reader, userId, now),
        exportTicketsOfUser(reader, userId),
      ]);
      const content = zip(
        [
          { name: 'profile.json', content: json({ ...profile, exported_at: now.toISOString() }) },
          { name: 'cards.json', content: json(cardList) },
          { name: 'transactions.csv', content: transactionsCsv },
          { name: 'payouts.csv', content: payoutsCsv },
          { name: 'tickets.json', content: json(tickets) },
          { name: 'verification.json', content: json(verificationStatus) },
        ],
        now,
      );
      return { fileName: `tipcard-data-${now.toISOString().slice(0, 10)}.zip`, content };
    },

    /**
     * The erasure job's one item: a deleted account past its restore window loses its personal data (phone,
     * cards' public profile and photo, support tickets, texts sent and sign-in codes); the ledger, transactions,
     * payouts and verification stay under the user's id, now pseudonymous, as the law requires. Its ledger accounts
     * close (docs/decisions/0028): a returned closing payout on main is kept for its owner in `unclaimed_funds`, a debt
     * left by a refund or a lost dispute after the deletion is written off, and so is whatever moves onto them later.
     * Money on hold cannot be there (a deletion waits for its release): found anyway, it is reported as an error for
     * finance, and the erasure goes ahead on time (docs/decisions/0024).
     */
    async eraseOne(now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const user = await claimDueErasure(tx, now);
        if (!user) return false;
        await closeUserAccounts(tx, user.id, now);
        const { hold } = await userBalances(tx, user.id);
        if (hold !== 0) {
          errors.message('a deleted account still holds money on hold at its erasure', {
            tags: { job: 'account.erase' },
            extra: { user_id: user.id, hold_cents: hold },
          });
        }
        await erase(tx, user, now);
        return true;
      });
    },

    /**
     * The purge job's one item: five years after its erasure, an account's kept records go (docs/decisions/0013
     * "Purge"): verification requests with their documents, the transaction history, the bank details of its
     * withdrawals. The ledger's postings stay as they are, amounts on accounts that now name no one: deleting them
     * would unbalance their entries and the platform's own accounts.
     */
    async purgeOne(now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        const user = await claimDuePurge(tx, purgeCutoff(now));
        if (!user) return false;
        await purgeVerificationsOfUser(tx, user.id);
        await purgeTransactionsOfUser(tx, user.id);
        await purgeBankDetailsOfUser(tx, user.id);
        await markPurged(tx, user.id, now);
        return true;
      });
    },
  };
}

async function erase(tx: Executor, user: User, now: Date): Promise<void> {
  await eraseCardsOfUser(tx, user.id);
  await eraseTicketsOfUser(tx, user.id);
  await eraseMessagesTo(tx, user.phone);
  await erasePushSubscriptions(tx, user.id);
  await eraseNotices(tx, user.id);
  await erasePhoneTraces(tx, user.phone);
  await revokeAllSessions(tx, user.id, now);
  // The phone is unique and may sign up again as a new person: the pseudonym keeps the row and frees the number.
  await markErased(tx, user.id, { phone: `erased:${user.id}`, erasedAt: now });
}
