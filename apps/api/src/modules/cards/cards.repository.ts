import { and, asc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { likeLiteral } from '../../db/like.ts';
import { cards } from '../../db/schema/cards.ts';
import { files } from '../../db/schema/files.ts';
import { teams } from '../../db/schema/teams.ts';
import { venueCards } from '../../db/schema/venue-tips.ts';
import { clients, users } from '../../db/schema/users.ts';

export type CardRow = typeof cards.$inferSelect;
export type NewCardRow = typeof cards.$inferInsert;
export type CardChanges = Partial<Omit<NewCardRow, 'id' | 'clientId' | 'isPrivate' | 'createdAt' | 'updatedAt'>>;

/** The name of the partial unique index that allows one private card per client. */
export const ONE_PRIVATE_CARD_INDEX = 'cards_one_private_per_client_key';

export function listCardsOfClient(db: Executor, clientId: string) {
  return db.select().from(cards).where(eq(cards.clientId, clientId)).orderBy(asc(cards.createdAt), asc(cards.id));
}

export async function countCardsOfClient(db: Executor, clientId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(cards)
    .where(eq(cards.clientId, clientId));
  return row?.count ?? 0;
}

export async function findCard(db: Executor, cardId: string): Promise<CardRow | undefined> {
  const [row] = await db.select().from(cards).where(eq(cards.id, cardId));
  return row;
}

/** The card row locked until the end of the caller's transaction (photo replacement). */
export async function findCardForUpdate(db: Executor, cardId: string): Promise<CardRow | undefined> {
  const [row] = await db.select().from(cards).where(eq(cards.id, cardId)).for('update');
  return row;
}

/** The private card of a user: the card of the user's private client. */
export async function findPrivateCardOfUser(db: Executor, userId: string): Promise<CardRow | undefined> {
  const [row] = await db
    .select({ card: cards })
    .from(cards)
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .where(and(eq(clients.userId, userId), eq(cards.isPrivate, true)))
    .orderBy(asc(cards.createdAt))
    .limit(1);
  return row?.card;
}

export async function insertCard(db: Executor, values: NewCardRow): Promise<CardRow> {
  const [row] = await db.insert(cards).values(values).returning();
  return row!;
}

/** Applies `changes` and moves `updated_at` to the database's now. */
export async function updateCard(db: Executor, cardId: string, changes: CardChanges): Promise<CardRow | undefined> {
  const [row] = await db
    .update(cards)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(cards.id, cardId))
    .returning();
  return row;
}

/** Hands a card to another client (a team card follows its team's admin). */
export async function moveCard(db: Executor, cardId: string, clientId: string): Promise<void> {
  await db
    .update(cards)
    .set({ clientId, updatedAt: sql`now()` })
    .where(eq(cards.id, cardId));
}

/**
 * A photo of a card (its own, or the one beside its thank-you): file id, type and bytes; undefined when the card or
 * that photo does not exist.
 */
export async function findCardPhoto(db: Executor, cardId: string, column: 'photoFileId' | 'thankYouPhotoFileId' = 'photoFileId') {
  const [row] = await db
    .select({ fileId: files.id, mime: files.mime, content: files.content })
    .from(cards)
    .innerJoin(files, eq(files.id, cards[column]))
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .innerJoin(users, eq(users.id, clients.userId))
    // A deleted account's card is "no longer active": its photo is not public either.
    .where(and(eq(cards.id, cardId), isNull(users.deletedAt)));
  return row;
}

/** A card with the user it pays (through its client), for the guest's payment. */
export async function findCardWithOwner(db: Executor, cardId: string) {
  const [row] = await db
    .select({ card: cards, userId: clients.userId, ownerDeletedAt: users.deletedAt })
    .from(cards)
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .innerJoin(users, eq(users.id, clients.userId))
    .where(eq(cards.id, cardId));
  return row;
}

function preparePublicCardRead(db: Executor) {
  return db
    .select({
      card: cards,
      ownerDeletedAt: users.deletedAt,
      // A card of a team or of a venue (decision 0058): its page names who shares its tips.
      teamCard: sql<boolean>`exists (select 1 from ${teams} where ${teams.cardId} = ${cards.id}) or exists (select 1 from ${venueCards} where ${venueCards.cardId} = ${cards.id})`,
    })
    .from(cards)
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .innerJoin(users, eq(users.id, clients.userId))
    .where(eq(cards.id, sql.placeholder('cardId')))
    .prepare('public_card_read');
}
const publicCardReads = new WeakMap<Executor, ReturnType<typeof preparePublicCardRead>>();

/**
 * What every guest page and GET /api/public/cards/{id} read: the card, whether its owner deleted the account and
 * whether it is a team card, in one round trip of a statement prepared once per database (DESIGN "Scale-out": the
 * hot read neither builds its SQL in drizzle nor is planned by PostgreSQL per request).
 */
export async function findPublicCardRow(db: Executor, cardId: string) {
  let read = publicCardReads.get(db);
  if (!read) {
    read = preparePublicCardRead(db);
    publicCardReads.set(db, read);
  }
  const [row] = await read.execute({ cardId });
  return row;
}

/** The cards of a user (through their clients), locked: the erasure clears what they show. */
export async function lockCardsOfUser(tx: Executor, userId: string): Promise<CardRow[]> {
  const rows = await tx
    .select({ card: cards })
    .from(cards)
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .where(eq(clients.userId, userId))
    .for('update', { of: cards });
  return rows.map((row) => row.card);
}

/** Adds one guest rating to the card's running sum and count. */
export async function addRating(db: Executor, cardId: string, rating: number): Promise<void> {
  await db
    .update(cards)
    .set({ ratingSum: sql`${cards.ratingSum} + ${rating}`, ratingCount: sql`${cards.ratingCount} + 1` })
    .where(eq(cards.id, cardId));
}

/** Counts many guests' ratings at once, each card's summed, in one statement; cards updated in id order. */
export async function addRatings(db: Executor, ratings: readonly { cardId: string; rating: number }[]): Promise<void> {
  if (ratings.length === 0) return;
  const cardIds = `{${ratings.map((r) => r.cardId).join(',')}}`;
  const values = `{${ratings.map((r) => r.rating).join(',')}}`;
  await db.execute(sql`
    update ${cards} set rating_sum = ${cards.ratingSum} + added.sum, rating_count = ${cards.ratingCount} + added.n
    from (
      select card_id, sum(rating)::int as sum, count(*)::int as n
      from unnest(${cardIds}::uuid[], ${values}::int[]) as rated(card_id, rating)
      group by card_id order by card_id
    ) added
    where ${cards.id} = added.card_id`);
}

/** Every card of a user, through their clients (back office). */
export function listCardsOfUser(db: Executor, userId: string) {
  return db
    .select({ card: cards })
    .from(cards)
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .where(eq(clients.userId, userId))
    .orderBy(asc(cards.createdAt));
}

/** The owners of cards whose public name or title contains the text (back office search). */
export function searchCardOwnersByName(db: Executor, text: string, limit: number) {
  const pattern = `%${likeLiteral(text)}%`;
  return db
    .selectDistinct({ userId: clients.userId })
    .from(cards)
    .innerJoin(clients, eq(clients.id, cards.clientId))
    .where(or(ilike(cards.publicName, pattern), ilike(cards.title, pattern)))
    .limit(limit);
}
