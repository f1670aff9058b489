import { BALANCE_TYPES, type Account } from '@tipcard/shared/accounts/schemas';
import type { Executor } from '../../db/client.ts';
import { requireOwnClient } from '../users/users.service.ts';
import { listUserLedgerAccounts } from './accounts.repository.ts';

/** The balances of a client's owner: main and hold, each 0 until money moves (spec 3). */
export async function getClientAccount(db: Executor, userId: string, clientId: string): Promise<Account> {
  const client = await requireOwnClient(db, userId, clientId);
  const accounts = await listUserLedgerAccounts(db, client.userId);
  return {
    account_balances: BALANCE_TYPES.map((type) => ({
      type,
      balance: accounts.find((account) => account.kind === type)?.balanceCents ?? 0,
    })),
    currency: 'EUR',
  };
}
