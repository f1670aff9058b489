import type { QueryClient } from '@tanstack/react-query';
import { firstViewSchema } from '@tipcard/shared/site/first-view';
import { overviewFiguresQuery } from '../features/overview/api/use-overview-figures.ts';
import { currentLocale } from '../lib/i18n.ts';
import { readShellData } from '../lib/shell-data.ts';
import { balancesQuery } from './session/use-balances.ts';
import { cardsQueryKey } from './session/use-my-card.ts';
import { meQueryKey } from './session/use-me.ts';

let taken = false;

/**
 * The overview's first answers that the server put into a signed-in home page (decision 0063), taken as those calls'
 * answers, as of the page's start: the session guard and the overview then show at once, over the skeleton that
 * already drew the balances, without asking again. Once per page load (a later sign-in as someone else asks); the
 * figures, whose latest lines are written in a language, only in the language the app started in.
 */
export function takeFirstView(queryClient: QueryClient): void {
  if (taken) return;
  taken = true;
  const parsed = firstViewSchema.safeParse(readShellData<{ firstView?: unknown }>()?.firstView);
  if (!parsed.success) return;
  const { me, cards, balances, overview, locale } = parsed.data;
  const clientId = me.clients[0]?.id;
  const updatedAt = Math.round(performance.timeOrigin);
  queryClient.setQueryData(meQueryKey, me, { updatedAt });
  queryClient.setQueryData(cardsQueryKey(clientId), cards, { updatedAt });
  queryClient.setQueryData(balancesQuery(clientId).queryKey, balances, { updatedAt });
  if (locale === currentLocale()) queryClient.setQueryData(overviewFiguresQuery(clientId).queryKey, overview, { updatedAt });
}
