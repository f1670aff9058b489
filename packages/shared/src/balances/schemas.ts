import { z } from 'zod';

export const BALANCE_TYPES = ['main', 'hold'] as const;

/** Balances are integer cents (DESIGN "Money on the wire"). */
export const balancesSchema = z.object({
  account_balances: z.array(z.object({ type: z.enum(BALANCE_TYPES), balance: z.number().int() })),
  /** The hold, per time its part becomes available (the release job moves it to main then), earliest first. */
  hold_releases: z.array(z.object({ amount_cents: z.number().int(), release_at: z.string() })),
  currency: z.literal('EUR'),
});
export type Balances = z.infer<typeof balancesSchema>;
