import { z } from 'zod';
import { LOCALES } from '../constants.ts';
import { meSchema } from '../auth/me-schema.ts';
import { balancesSchema } from '../balances/schemas.ts';
import { cardSchema } from '../cards/schemas.ts';
import { overviewSchema } from '../transactions/schemas.ts';

/**
 * What the server reads for a signed-in visitor's home page (decision 0063): the answers the overview starts with
 * (`/me`, the private client's cards, balances and figures) for the user the access token's cookie names, in the
 * language the app will start in. From them the page's skeleton draws the balance tiles.
 */
export const firstViewSchema = z.object({
  locale: z.enum(LOCALES),
  me: meSchema,
  cards: z.array(cardSchema),
  balances: balancesSchema,
  overview: overviewSchema,
});
export type FirstView = z.infer<typeof firstViewSchema>;
