import { z } from 'zod';

export const BALANCE_TYPES = ['main', 'hold'] as const;

/** Balances are integer cents (DESIGN "Money on the wire"). */
export const balancesSchema = z.object({
  account_balances: z.array(z.object({ type: z.enum(BALANCE_TYPES), balance: z.number().int() })),
  currency: z.literal('EUR'),
});
export type Balances = z.infer<typeof balancesSchema>;
