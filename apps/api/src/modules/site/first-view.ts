import type { Locale } from '@tipcard/shared/constants';
import { firstViewSchema, type FirstView } from '@tipcard/shared/site/first-view';
import type { Clock } from '../../lib/clock.ts';
import { verifyAccessToken, type AccessTokenKeys, type AuthService } from '../auth/auth.service.ts';
import type { BalancesService } from '../balances/balances.service.ts';
import type { CardsService } from '../cards/cards.service.ts';
import type { MeService } from '../me/me.service.ts';
import type { TransactionsService } from '../transactions/transactions.service.ts';

export type FirstViewService = ReturnType<typeof createFirstViewService>;

/**
 * The signed-in home page's first answers, read on the server for the user its access token names (decision 0063):
 * what `/me`, the private client's cards, balances and overview would answer that user, parsed by those calls' schemas. Null unless the token verifies, its session stands
 * and the app would show the overview: a deleted account (the restore page) or a user without a card (account
 * creation) get the plain skeleton.
 */
export function createFirstViewService(deps: {
  keys: AccessTokenKeys;
  clock: Clock;
  sessionIsLive: AuthService['sessionIsLive'];
  me: MeService;
  cards: CardsService;
  balances: BalancesService;
  transactions: TransactionsService;
}) {
  return {
    async ofToken(token: string, locale: Locale): Promise<FirstView | null> {
      const claims = await verifyAccessToken(deps.keys, token, deps.clock.now());
      if (!claims || !(await deps.sessionIsLive(claims))) return null;
      const me = await deps.me.get(claims.userId);
      // The app's client is the private one, the first (web `privateClientId`).
      const clientId = me.clients[0]?.id;
      if (me.deletion || !clientId) return null;
      const [cards, balances, overview] = await Promise.all([
        deps.cards.list(claims.userId, clientId),
        deps.balances.get(claims.userId, clientId),
        deps.transactions.overview(claims.userId, clientId, locale),
      ]);
      if (cards.length === 0) return null;
      return firstViewSchema.parse({ locale, me, cards, balances, overview });
    },
  };
}
