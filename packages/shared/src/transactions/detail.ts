import { z } from 'zod';

/**
 * What a history row is about, stored as facts (kind, names, masked account) rather than as a sentence, so every
 * reader sees it in their own language: the app, the CSV export and any message render it with
 * `describeTransaction` from the `transactions:detail.*` texts. Rows written before it existed have no detail and
 * show their stored (English) description.
 */
export const transactionDetailSchema = z.discriminatedUnion('kind', [
  /** A guest's tip through a personal card, named by the card's title. */
  z.object({ kind: z.literal('tip'), card: z.string() }),
  /** A share of a tip to a team card, named by the team's title. */
  z.object({ kind: z.literal('team_tip'), team: z.string() }),
  /** A share of a tip to a venue card (decision 0058), named by the venue and the team whose part it came from. */
  z.object({ kind: z.literal('venue_tip'), venue: z.string(), team: z.string() }),
  /** A payment of one of the user's invoices, named by the invoice's description. */
  z.object({ kind: z.literal('invoice'), invoice: z.string() }),
  /** A one-off donation, named by the donor. */
  z.object({ kind: z.literal('donation'), donor: z.string() }),
  /** One charge of a monthly donation plan, named by the donor. */
  z.object({ kind: z.literal('monthly_donation'), donor: z.string() }),
  /** A withdrawal to the masked account it went to. */
  z.object({ kind: z.literal('payout'), account: z.string() }),
  /** A referral reward, named by the invited friend's masked phone. */
  z.object({ kind: z.literal('referral'), friend: z.string() }),
  /** The giver's side of a closing gift: their balance given to a charity card at their deletion, named by its public name. */
  z.object({ kind: z.literal('closing_gift_given'), charity: z.string() }),
  /** The charity's side of a closing gift: no giver is named, as the giver's account is being deleted (decision 0029). */
  z.object({ kind: z.literal('closing_gift') }),
  /** Money a team's admin moved to the user after a period was locked (decision 0059), named by the team and month. */
  z.object({ kind: z.literal('team_adjustment'), team: z.string(), month: z.string() }),
  /** The giver's side of that adjustment: money moved from their balance to another member's. */
  z.object({ kind: z.literal('team_adjustment_given'), team: z.string(), month: z.string() }),
]);
export type TransactionDetail = z.infer<typeof transactionDetailSchema>;

/** A translator of `namespace:key` texts with placeholders: i18next's `t` in the app, the server's `t` in the API. */
export type Translate = (key: string, vars: Record<string, string>) => string;

/** The row's line in the reader's language; the stored description for rows older than details. */
export function describeTransaction(
  row: { detail?: TransactionDetail | null | undefined; description: string },
  translate: Translate,
): string {
  const detail = row.detail;
  if (!detail) return row.description;
  const { kind, ...vars } = detail;
  return translate(`transactions:detail.${kind}`, vars);
}
