import { and, asc, count, eq, getTableColumns, gte, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.ts';
import { paymentAllocations, paymentReturns, payments, providerEvents } from '../../db/schema/payments.ts';
import type { Partition } from '../../jobs/job.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type AllocationRow = typeof paymentAllocations.$inferSelect;

/** Namespace of the advisory locks below (the first key), apart from other modules' locks. */
const SUBJECT_CHECKOUTS_LOCK = 1_002;

/** Queues checkouts of one subject until the transaction ends, so its velocity is counted and grown in one step. */
export async function lockSubjectCheckouts(tx: Executor, purpose: PaymentRow['purpose'], subjectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SUBJECT_CHECKOUTS_LOCK}, hashtext(${`${purpose}:${subjectId}`}))`);
}

/** Checkouts of a subject opened since `openedSince`, and its payments that failed since `failedSince`. */
export async function checkoutVelocity(
  tx: Executor,
  purpose: PaymentRow['purpose'],
  subjectId: string,
  openedSince: Date,
  failedSince: Date,
) {
  const [row] = await tx
    .select({
      recent: sql<number>`count(*) filter (where ${payments.createdAt} >= ${openedSince})::int`,
      failed: sql<number>`count(*) filter (where ${payments.status} = 'failed' and ${payments.updatedAt} >= ${failedSince})::int`,
    })
    .from(payments)
    .where(
      and(
        eq(payments.purpose, purpose),
        eq(payments.subjectId, subjectId),
        gte(payments.updatedAt, failedSince < openedSince ? failedSince : openedSince),
      ),
    );
  return { recent: row?.recent ?? 0, failed: row?.failed ?? 0 };
}

/** Inserts the payment unless its subject already has one with this idempotency key; answers the row it inserted. */
export async function insertPaymentOnce(tx: Executor, values: typeof payments.$inferInsert) {
  const [row] = await tx
    .insert(payments)
    .values(values)
    .onConflictDoNothing({ target: [payments.purpose, payments.subjectId, payments.idempotencyKey] })
    .returning();
  return row;
}

export async function findPaymentByKey(tx: Executor, purpose: PaymentRow['purpose'], subjectId: string, idempotencyKey: string) {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.purpose, purpose), eq(payments.subjectId, subjectId), eq(payments.idempotencyKey, idempotencyKey)));
  return row;
}

export async function findPayment(db: Executor, id: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function findPaymentForUpdate(tx: Executor, id: string) {
  const [row] = await tx.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

export async function updatePayment(tx: Executor, id: string, changes: Partial<typeof payments.$inferInsert>, now: Date) {
  const [row] = await tx
    .update(payments)
    .set({ ...changes, updatedAt: now })
    .where(eq(payments.id, id))
    .returning();
  return row!;
}

/** Claims one pending payment the reconciliation job should ask the provider about; others' claims are skipped. */
export function claimDueReconciliation(tx: Executor, now: Date) {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.reconcileDueAt, now)))
    .orderBy(asc(payments.reconcileDueAt))
    .limit(1)
    .for('update', { skipLocked: true });
}

/** The channel a recorded webhook event is announced on, so that a waiting applier starts at once (decision 0060). */
export const RECORDED_EVENTS_CHANNEL = 'provider_events';

/**
 * Records a webhook's verified event to be applied by the workers, and announces it on commit; false when this event
 * was recorded before (the unique key is the exactly-once guard). One statement: the NOTIFY goes only with an insert.
 */
export async function recordProviderEventOnce(
  db: Executor,
  values: { provider: string; eventId: string; type: string; paymentId: string | null; payload: Record<string, unknown> },
): Promise<boolean> {
  const result = await db.execute(sql`
    with inserted as (
      insert into ${providerEvents} (provider, event_id, type, payment_id, payload)
      values (${values.provider}, ${values.eventId}, ${values.type}, ${values.paymentId}, ${JSON.stringify(values.payload)}::jsonb)
      on conflict (provider, event_id) do nothing
      returning id
    )
    select id, pg_notify(${RECORDED_EVENTS_CHANNEL}, '') from inserted`);
  return rowsOf(result).length > 0;
}

export interface RecordedEvent {
  id: string;
  provider: string;
  payload: Record<string, unknown>;
  attempts: number;
}

/**
 * Claims up to `limit` recorded events that are due, oldest first, skipping those another applier holds. An event
 * waits while an earlier one of the same payment is still unapplied, so each payment's events apply in the order
 * they were recorded. With `partition`, only events of the payments whose subject (the card, invoice or plan paid)
 * falls in that part: appliers side by side then credit different recipients and rarely wait on each other's locks.
 */
export async function claimRecordedEvents(
  tx: Executor,
  now: Date,
  limit: number,
  partition?: Partition,
): Promise<RecordedEvent[]> {
  const inPartition = partition
    ? sql`and ((hashtext(coalesce(p.subject_id, e.payment_id)::text) & 2147483647) % ${partition.count}) = ${partition.index}`
    : sql``;
  const result = await tx.execute(sql`
    select e.id, e.provider, e.payload, e.attempts
    from ${providerEvents} e
    left join ${payments} p on p.id = e.payment_id
    where e.outcome is null
      and (e.retry_at is null or e.retry_at <= ${now})
      ${inPartition}
      and not exists (
        select 1 from ${providerEvents} earlier
        where earlier.outcome is null and earlier.payment_id = e.payment_id and earlier.sequence < e.sequence
      )
    order by e.sequence
    limit ${limit}
    for update of e skip locked`);
  return rowsOf<RecordedEvent>(result);
}

/** A PostgreSQL array literal of plain words (ids, outcome names): one parameter however many there are. */
const arrayLiteral = (words: string[]) => `{${words.join(',')}}`;

/** Sets the outcome of applied events in one statement, and lets go of what they carried. */
export async function setRecordedOutcomes(
  tx: Executor,
  outcomes: { id: string; outcome: NonNullable<(typeof providerEvents.$inferInsert)['outcome']> }[],
) {
  if (outcomes.length === 0) return;
  await tx.execute(sql`
    update ${providerEvents} set outcome = applied.outcome, payload = null, retry_at = null
    from (select unnest(${arrayLiteral(outcomes.map((o) => o.id))}::uuid[]) as id,
                 unnest(${arrayLiteral(outcomes.map((o) => o.outcome))}::text[]) as outcome) applied
    where ${providerEvents.id} = applied.id`);
}

/** One recorded event, claimed again by id to be applied on its own; none when it is applied or held elsewhere. */
export async function claimRecordedEvent(tx: Executor, id: string): Promise<RecordedEvent[]> {
  const result = await tx.execute(sql`
    select id, provider, payload, attempts from ${providerEvents}
    where id = ${id} and outcome is null
    for update skip locked`);
  return rowsOf<RecordedEvent>(result);
}

/** A recorded event not applied yet, by its provider's id, locked (after any batch that holds it ends); else none. */
export async function lockRecordedEvent(tx: Executor, provider: string, eventId: string): Promise<RecordedEvent[]> {
  const result = await tx.execute(sql`
    select id, provider, payload, attempts from ${providerEvents}
    where provider = ${provider} and event_id = ${eventId} and outcome is null
    for update`);
  return rowsOf<RecordedEvent>(result);
}

/**
 * Counts a failed attempt at a recorded event and puts the next one off: `firstMs` after the first failure, twice as
 * long after each further one, never more than `maxMs`. Answers the attempts made.
 */
export async function postponeRecordedEvent(db: Executor, id: string, now: Date, firstMs: number, maxMs: number) {
  const [row] = await db
    .update(providerEvents)
    .set({
      attempts: sql`${providerEvents.attempts} + 1`,
      retryAt: sql`${now}::timestamptz + least(${maxMs}::bigint, ${firstMs}::bigint * power(2, least(${providerEvents.attempts}, 30))::bigint) * interval '1 millisecond'`,
    })
    .where(and(eq(providerEvents.id, id), isNull(providerEvents.outcome)))
    .returning({ attempts: providerEvents.attempts });
  return row?.attempts ?? 0;
}

/** How many recorded events wait to be applied (the backlog the metrics and the bench read). */
export async function countRecordedEvents(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(providerEvents).where(isNull(providerEvents.outcome));
  return row?.n ?? 0;
}

/** Records a provider event; null when this event was seen before (the unique key is the exactly-once guard). */
export async function insertProviderEventOnce(tx: Executor, values: typeof providerEvents.$inferInsert) {
  const rows = await tx
    .insert(providerEvents)
    .values(values)
    .onConflictDoNothing({ target: [providerEvents.provider, providerEvents.eventId] })
    .returning({ id: providerEvents.id });
  return rows[0]?.id ?? null;
}

export async function setProviderEventOutcome(
  tx: Executor,
  id: string,
  outcome: (typeof providerEvents.$inferInsert)['outcome'],
) {
  await tx.update(providerEvents).set({ outcome }).where(eq(providerEvents.id, id));
}

export interface Capture {
  provider: string;
  providerRef: string;
  totalCents: number;
  currency: string;
  payerRef: string | null;
  card: { brand: string; last4: string } | null;
  customerRef: string | null;
  methodRef: string | null;
}

/** A PostgreSQL array literal of texts that may be null, each quoted: one parameter however many there are. */
const textArrayLiteral = (texts: (string | null | undefined)[]) =>
  `{${texts.map((text) => (text == null ? 'NULL' : `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(',')}}`;

/**
 * `markSucceeded` for many payments at once (a batch of captures, decision 0060), in one statement: each payment whose
 * capture matches it and that is not credited yet is marked succeeded; answers those rows (locked until commit), in no
 * particular order. Each payment must appear once.
 */
export async function markManySucceeded(tx: Executor, wanted: readonly { id: string; capture: Capture }[], now: Date) {
  // An amount that is not whole cents matches no payment (as a comparison with it would not), and stays out of the array.
  const captures = wanted.filter(({ capture }) => Number.isSafeInteger(capture.totalCents));
  if (captures.length === 0) return [];
  const column = <T>(of: (c: Capture) => T) => captures.map(({ capture }) => of(capture));
  // A charge of a saved method already names its customer and method; a checkout that saved one names them now.
  const saved = (c: Capture) => Boolean(c.customerRef && c.methodRef);
  const captured = sql`unnest(
      ${arrayLiteral(captures.map(({ id }) => id))}::uuid[],
      ${textArrayLiteral(column((c) => c.provider))}::text[],
      ${textArrayLiteral(column((c) => c.providerRef))}::text[],
      ${`{${column((c) => c.totalCents).join(',')}}`}::bigint[],
      ${textArrayLiteral(column((c) => c.currency))}::text[],
      ${textArrayLiteral(column((c) => c.payerRef))}::text[],
      ${textArrayLiteral(column((c) => c.card?.brand ?? null))}::text[],
      ${textArrayLiteral(column((c) => c.card?.last4 ?? null))}::text[],
      ${textArrayLiteral(column((c) => (saved(c) ? c.customerRef : null)))}::text[],
      ${textArrayLiteral(column((c) => (saved(c) ? c.methodRef : null)))}::text[]
    ) as captured(id, provider, provider_ref, total_cents, currency, payer_ref, card_brand, card_last4, customer_ref, method_ref)`;
  return tx
    .update(payments)
    .set({
      status: 'succeeded',
      payerRef: sql`captured.payer_ref`,
      cardBrand: sql`captured.card_brand`,
      cardLast4: sql`captured.card_last4`,
      customerRef: sql`coalesce(captured.customer_ref, ${payments.customerRef})`,
      methodRef: sql`case when captured.customer_ref is null then ${payments.methodRef} else captured.method_ref end`,
      updatedAt: now,
    })
    .from(sql`${captured}`)
    .where(
      and(
        sql`${payments.id} = captured.id`,
        sql`${payments.provider} = captured.provider`,
        sql`(${payments.providerRef} is null or ${payments.providerRef} = captured.provider_ref)`,
        sql`${payments.totalCents} = captured.total_cents`,
        sql`${payments.currency} = captured.currency`,
        inArray(payments.status, ['pending', 'failed', 'canceled']),
      ),
    )
    .returning(getTableColumns(payments));
}

/**
 * Marks a payment succeeded when the capture matches it (provider, reference, amount, currency) and it is not
 * credited yet; answers the row, or nothing when it does not qualify. The row stays locked until commit.
 */
export async function markSucceeded(tx: Executor, id: string, capture: Capture, now: Date) {
  const [row] = await markManySucceeded(tx, [{ id, capture }], now);
  return row;
}

export function insertAllocations(tx: Executor, values: (typeof paymentAllocations.$inferInsert)[]) {
  return tx.insert(paymentAllocations).values(values).returning();
}

/** A payment's allocations in their order, locked: refunds and the release job change them one at a time. */
export function findAllocationsForUpdate(tx: Executor, paymentId: string) {
  return tx
    .select()
    .from(paymentAllocations)
    .where(eq(paymentAllocations.paymentId, paymentId))
    .orderBy(asc(paymentAllocations.position))
    .for('update');
}

export async function updateAllocation(tx: Executor, id: string, changes: Partial<typeof paymentAllocations.$inferInsert>) {
  const [row] = await tx.update(paymentAllocations).set(changes).where(eq(paymentAllocations.id, id)).returning();
  return row!;
}

/**
 * What of a user's held shares is still to be released, summed per release time (earliest first): the parts of the
 * hold balance and when each moves to main.
 */
export function listHeldAmountsOfUser(db: Executor, userId: string) {
  const amount = sql<number>`sum(${paymentAllocations.netCents} - ${paymentAllocations.reversedNetCents})`.mapWith(Number);
  return db
    .select({ releaseDueAt: paymentAllocations.releaseDueAt, amountCents: amount })
    .from(paymentAllocations)
    .where(and(eq(paymentAllocations.userId, userId), isNull(paymentAllocations.releasedAt)))
    .groupBy(paymentAllocations.releaseDueAt)
    .having(sql`sum(${paymentAllocations.netCents} - ${paymentAllocations.reversedNetCents}) > 0`)
    .orderBy(asc(paymentAllocations.releaseDueAt));
}

/**
 * Claims up to `limit` user shares whose hold has ended, marking them released; others' claims are skipped. Answered
 * by user, so that every batch locks users' accounts in the same order and two batches never wait on each other.
 */
export async function claimDueAllocations(tx: Executor, now: Date, limit: number) {
  const due = tx
    .select({ id: paymentAllocations.id })
    .from(paymentAllocations)
    .where(and(isNull(paymentAllocations.releasedAt), lte(paymentAllocations.releaseDueAt, now)))
    .orderBy(paymentAllocations.releaseDueAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await tx
    .update(paymentAllocations)
    .set({ releasedAt: now })
    .where(inArray(paymentAllocations.id, due))
    .returning();
  const order = (row: AllocationRow) => `${row.userId ?? ''}:${row.id}`;
  return rows.sort((a, b) => (order(a) < order(b) ? -1 : 1));
}

export function listAllocations(db: Executor, paymentId: string) {
  return db
    .select()
    .from(paymentAllocations)
    .where(eq(paymentAllocations.paymentId, paymentId))
    .orderBy(asc(paymentAllocations.position));
}

/** Payments pending longer than the given time (the back office's reconciliation view). */
export function listPendingSince(db: Executor, before: Date, limit: number) {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.createdAt, before)))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** How many payments are pending longer than the given time (the back office's health snapshots). */
export async function countPendingSince(db: Executor, before: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.createdAt, before)));
  return row!.n;
}

/**
 * What each user received from the succeeded payments of one purpose and subject credited in [from, to): how many
 * shares and their net sum after refunds and disputes.
 */
export function sumSharesPerUser(
  db: Executor,
  filter: { purpose: PaymentRow['purpose']; subjectId: string; from: Date; to: Date },
) {
  return db
    .select({
      userId: sql<string>`${paymentAllocations.userId}`,
      count: sql<number>`count(*)::int`,
      sumCents: sql<number>`coalesce(sum(${paymentAllocations.netCents} - ${paymentAllocations.reversedNetCents}), 0)::bigint`,
    })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(
      and(
        eq(payments.purpose, filter.purpose),
        eq(payments.subjectId, filter.subjectId),
        isNotNull(paymentAllocations.userId),
        gte(paymentAllocations.createdAt, filter.from),
        lt(paymentAllocations.createdAt, filter.to),
      ),
    )
    .groupBy(paymentAllocations.userId);
}

/**
 * Per user, the shares given by these payments to these users (one pair per payment and user), net of what was
 * taken back: a venue tip's shares of one team (decision 0061), whose pairs the teams module recorded.
 */
export async function sumSharesOfPairs(db: Executor, pairs: readonly { paymentId: string; userId: string }[]) {
  if (pairs.length === 0) return [];
  const result = await db.execute(sql`
    select a.user_id as "userId", count(*)::int as count,
           coalesce(sum(a.net_cents - a.reversed_net_cents), 0)::bigint as "sumCents"
    from ${paymentAllocations} a
    join (select unnest(${arrayLiteral(pairs.map((pair) => pair.paymentId))}::uuid[]) as payment_id,
                 unnest(${arrayLiteral(pairs.map((pair) => pair.userId))}::uuid[]) as user_id) wanted
      on a.payment_id = wanted.payment_id and a.user_id = wanted.user_id
    group by a.user_id`);
  return rowsOf<{ userId: string; count: number; sumCents: number | string }>(result);
}

/**
 * What a user's shares received between two times brought the platform: the fees on them less what refunds and
 * disputes took back, and how many different payers (of payments not wholly taken back) they came from. A payment
 * whose provider named no payer counts as a payer of its own.
 */
export async function feesOfRecipient(
  db: Executor,
  userId: string,
  from: Date,
  to: Date,
): Promise<{ feesCents: number; payers: number }> {
  const [row] = await db
    .select({
      fees: sql<string>`coalesce(sum(${paymentAllocations.feeCents} - ${paymentAllocations.reversedFeeCents}), 0)::text`,
      payers: sql<number>`count(distinct coalesce(${payments.payerRef}, ${payments.id}::text)) filter (where ${paymentAllocations.reversedNetCents} + ${paymentAllocations.reversedFeeCents} < ${paymentAllocations.netCents} + ${paymentAllocations.feeCents})::int`,
    })
    .from(paymentAllocations)
    .innerJoin(payments, eq(payments.id, paymentAllocations.paymentId))
    .where(
      and(eq(paymentAllocations.userId, userId), gte(paymentAllocations.createdAt, from), lt(paymentAllocations.createdAt, to)),
    );
  return { feesCents: Number(row?.fees ?? 0), payers: Number(row?.payers ?? 0) };
}

/** The pending payments of these subjects, locked in id order (a deletion voids them). */
export function findPendingOfSubjectsForUpdate(tx: Executor, purpose: PaymentRow['purpose'], subjectIds: string[]) {
  return tx
    .select()
    .from(payments)
    .where(and(eq(payments.purpose, purpose), inArray(payments.subjectId, subjectIds), eq(payments.status, 'pending')))
    .orderBy(asc(payments.id))
    .for('update');
}

/** Records a payment to give back, due now; a second call for the same payment changes nothing. */
export async function insertReturnOnce(tx: Executor, paymentId: string, now: Date) {
  await tx
    .insert(paymentReturns)
    .values({ paymentId, dueAt: now, createdAt: now })
    .onConflictDoNothing({ target: paymentReturns.paymentId });
}

/**
 * Claims one due give-back by moving its due time on (a lease): the provider is called outside the transaction, and a
 * worker killed mid-call leaves the row due again once the lease ends.
 */
export async function claimDueReturn(tx: Executor, now: Date, leaseUntil: Date) {
  const [due] = await tx
    .select()
    .from(paymentReturns)
    .where(and(isNotNull(paymentReturns.dueAt), lte(paymentReturns.dueAt, now)))
    .orderBy(asc(paymentReturns.dueAt))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!due) return undefined;
  const [row] = await tx
    .update(paymentReturns)
    .set({ dueAt: leaseUntil, attempts: due.attempts + 1 })
    .where(eq(paymentReturns.paymentId, due.paymentId))
    .returning();
  return row!;
}

export async function finishReturn(tx: Executor, paymentId: string, now: Date) {
  await tx.update(paymentReturns).set({ dueAt: null, returnedAt: now }).where(eq(paymentReturns.paymentId, paymentId));
}

/** Payments whose id lies in the range (a short reference's ids, `uuidPrefixRange`): the primary key's index scans it. */
export function findPaymentsInIdRange(db: Executor, [low, high]: [string, string], limit: number) {
  return db
    .select()
    .from(payments)
    .where(and(gte(payments.id, low), lte(payments.id, high)))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** What the provider told us about one payment, in the order it came. */
export function listEventsOfPayment(db: Executor, paymentId: string, limit: number) {
  return db
    .select()
    .from(providerEvents)
    .where(eq(providerEvents.paymentId, paymentId))
    .orderBy(asc(providerEvents.receivedAt))
    .limit(limit);
}

/** How many payments are in each state (a metrics gauge; one indexed scan per scrape, cached by the caller). */
export async function countByStatus(db: Executor): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: payments.status, n: sql<number>`count(*)::int` })
    .from(payments)
    .groupBy(payments.status);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}
