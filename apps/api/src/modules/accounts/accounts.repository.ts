import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { ledgerAccounts } from '../../db/schema.ts';

export function listUserLedgerAccounts(db: Executor, userId: string) {
  return db
    .select({ kind: ledgerAccounts.kind, balanceCents: ledgerAccounts.balanceCents })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.ownerUserId, userId));
}
