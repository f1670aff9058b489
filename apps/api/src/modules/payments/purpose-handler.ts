import type { TransactionDetail } from '@tipcard/shared/transactions/detail';
import type { Transaction } from '../../db/client.ts';
import type { PlatformAccountKind } from '../ledger/ledger.service.ts';
import type { PaymentPurpose } from './payment-provider.ts';
import type { AllocationRow, PaymentRow } from './payments.repository.ts';

/** The payer's rating carried by a payment's plans (a tip's, a team tip's), or null. */
export const payerRatingOf = (plans: AllocationPlan[]): number | null =>
  plans.find((plan) => 'history' in plan)?.history.rating ?? null;

/** Who receives what of a succeeded payment. The shares of a payment sum to its total (nets plus fees). */
export type AllocationPlan =
  | {
      userId: string;
      netCents: number;
      feeCents: number;
      /** The recipient's history row: what it was (rendered in the reader's language), and what the payer wrote. */
      history: { detail: TransactionDetail; message: string | null; rating: number | null };
    }
  | { platform: PlatformAccountKind; netCents: number; feeCents: number };

/**
 * What one purpose of money means (DESIGN "Payments for many purposes"). It lives in its feature's module (`tips`,
 * `teams`, `orders`, `invoices`, `donations`) and is registered once in the composition root; `payments` calls it
 * inside the transaction that applies a provider event, and knows nothing else about the purpose.
 */
export interface PurposeHandler {
  readonly purpose: PaymentPurpose;
  /**
   * Decides the recipients when the payment succeeds (e.g. the card's owner, or the team's members at this moment). No
   * recipient at all (a team with no member left), or a recipient whose account is deleted: the payment is given back.
   */
  allocate(tx: Transaction, payment: PaymentRow, now: Date): Promise<AllocationPlan[]>;
  /**
   * `allocate` for many payments of this purpose at once, in as few statements as it can (a batch of provider events
   * applied together, decision 0060): the plans of each payment, in the order given, exactly as `allocate` answers
   * them. A purpose that has it is credited in sets; one without is credited one payment at a time, in order.
   */
  allocateMany?(tx: Transaction, payments: readonly PaymentRow[], now: Date): Promise<AllocationPlan[][]>;
  /**
   * The purpose's own records of a success (a card's rating, an order placed), after the money was credited; `plans`
   * are what `allocate` answered, so nothing it read has to be read again.
   */
  onSucceeded?(
    tx: Transaction,
    payment: PaymentRow,
    allocations: AllocationRow[],
    now: Date,
    plans: AllocationPlan[],
  ): Promise<void>;
  /**
   * `onSucceeded` for many successes of this purpose credited together, in as few statements as it can; when a purpose
   * has it, it is called instead of `onSucceeded` (a batch of one included).
   */
  onSucceededMany?(
    tx: Transaction,
    successes: readonly { payment: PaymentRow; allocations: AllocationRow[]; plans: AllocationPlan[] }[],
    now: Date,
  ): Promise<void>;
  /** After refunds or disputes took back (or gave back) part of a credited payment. */
  onAdjusted?(tx: Transaction, payment: PaymentRow, allocations: AllocationRow[], now: Date): Promise<void>;
  /** A payment that will not be charged (failed or canceled): e.g. an order goes back to awaiting payment. */
  onClosed?(tx: Transaction, payment: PaymentRow, now: Date): Promise<void>;
}
