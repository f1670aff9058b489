import type { Balances } from '@tipcard/shared/balances/schemas';
import type { Database } from '../../db/client.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { heldAmountsOfUser } from '../payments/payments.service.ts';
import { requireOwnClient } from '../users/users.service.ts';

export type BalancesService = ReturnType<typeof createBalancesService>;

export function createBalancesService({ db }: { db: Database }) {
  return {
    /**
     * The balances of a client's owner: main and hold, each 0 until money moves (spec 3), and when each part of the
     * hold becomes available.
     */
    async get(userId: string, clientId: string): Promise<Balances> {
      const client = await requireOwnClient(db, userId, clientId);
      const [balances, held] = await Promise.all([userBalances(db, client.userId), heldAmountsOfUser(db, client.userId)]);
      return {
        account_balances: [
          { type: 'main', balance: balances.main },
          { type: 'hold', balance: balances.hold },
        ],
        hold_releases: held.flatMap(({ releaseDueAt, amountCents }) =>
          releaseDueAt ? [{ amount_cents: amountCents, release_at: releaseDueAt.toISOString() }] : [],
        ),
        currency: 'EUR',
      };
    },
  };
}
