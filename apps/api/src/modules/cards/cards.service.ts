import type { Card } from '@tipcard/shared/cards/schemas';
import type { Executor } from '../../db/client.ts';

// Placeholder until the cards module lands (being written now).
export async function findPrivateCardOfUser(_db: Executor, _userId: string): Promise<Card | null> {
  return null;
}
