/**
 * The simulator's global invariants, read from the database (and the simulator's model of what it asked for) after
 * every step, and in full at the end once the workers have drained. Each broken one is recorded once by name with
 * its first occurrence (`World.fail`); the name is what the shrinker keeps failing.
 */
import { checkLedgerInvariants } from '../../apps/api/src/modules/transactions/transactions.service.ts';
import { ACTIONS, balancesOf, periodFingerprint } from './actions.ts';
import type { World } from './world.ts';

/** Work that may still be in flight for a few worker ticks (webhook delay, hold, a job's tick) is judged after this. */
export const GRACE_MS = 10_000;
const GRACE = `interval '${GRACE_MS / 1000} seconds'`;

export async function checkStep(world: World) {
  world.figures.invariantChecks += 1;
  // One snapshot: the check's queries run side by side, and the workers release and settle in between.
  const ledger = await world.database.db.transaction((tx) => checkLedgerInvariants(tx), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
  if (ledger.length > 0) world.fail('ledger', ledger.slice(0, 3).join('; '));
  if (world.clientFigures.serverErrors.length > 0) world.fail('no-5xx', world.clientFigures.serverErrors[0]!);

  // Every credited payment's shares (net + fee of each recipient and platform account) sum to what was paid.
  const unbalanced = await world.rows<{ id: string; total: string; shares: string }>(`
    select p.id, p.total_cents::text as total, sum(a.net_cents + a.fee_cents)::text as shares
    from payments p join payment_allocations a on a.payment_id = p.id
    group by p.id having sum(a.net_cents + a.fee_cents) <> p.total_cents limit 3`);
  if (unbalanced.length > 0)
    world.fail(
      'shares-sum-to-payment',
      unbalanced.map((row) => `payment ${world.label(row.id)} of ${row.total} c has shares summing to ${row.shares}`).join('; '),
    );

  // A refund receipt (and the recipients' texts) tells only of money the books took back: each notice's payment was
  // credited (its received entry exists) and its shares gave up at least the refunded total the notice names
  // (docs/decisions/0042).
  const untold = await world.rows<{ payment_id: string; noticed: string; reversed: string | null; booked: boolean }>(`
    select n.payment_id, max(n.refunded_cents)::text as noticed,
           (select sum(a.reversed_net_cents + a.reversed_fee_cents) from payment_allocations a where a.payment_id = n.payment_id)::text as reversed,
           exists (select 1 from ledger_entries e where e.reference = 'payment:' || n.payment_id || ':received') as booked
    from refund_notices n group by n.payment_id
    having not exists (select 1 from ledger_entries e where e.reference = 'payment:' || n.payment_id || ':received')
        or max(n.refunded_cents) > coalesce((select sum(a.reversed_net_cents + a.reversed_fee_cents) from payment_allocations a where a.payment_id = n.payment_id), 0)
    limit 3`);
  if (untold.length > 0)
    world.fail(
      'refund-notice-backed-by-ledger',
      untold
        .map(
          (row) =>
            `payment ${world.label(row.payment_id)}: refund of ${row.noticed} c told, ${row.booked ? `books took back ${row.reversed ?? 0} c` : 'never credited'}`,
        )
        .join('; '),
    );

  // Every e-mail that links a receipt (the payer's, a refund's, a donor's month) names a payment the books hold: the
  // link's first 32 hex characters are the payment's id (lib/signed-id.ts).
  const unbooked = await world.rows<{ payment_id: string }>(`
    select distinct substring(o.body from '/receipts/([0-9a-f]{32})[0-9a-f]{32}')::uuid::text as payment_id
    from outbox_messages o
    where o.channel = 'email' and o.body ~ '/receipts/[0-9a-f]{64}'
      and not exists (select 1 from ledger_entries e
        where e.reference = 'payment:' || substring(o.body from '/receipts/([0-9a-f]{32})[0-9a-f]{32}')::uuid::text || ':received')
    limit 3`);
  if (unbooked.length > 0)
    world.fail(
      'receipt-mail-backed-by-ledger',
      unbooked
        .map((row) => `a receipt of payment ${world.label(row.payment_id)} was e-mailed; the books never credited it`)
        .join('; '),
    );

  // What operators refunded never exceeds what they meant (one amount per Idempotency-Key), and without a second
  // operator never more than the approval threshold per payment.
  const refunds = await world.rows<{
    payment_id: string;
    refunded: string;
    unapproved: string;
    requests: number;
    approvals: number;
  }>(`
    select subject_id as payment_id,
           coalesce(sum((after->>'amount_cents')::bigint) filter (where action = 'payment.refund'), 0)::text as refunded,
           coalesce(sum((after->>'amount_cents')::bigint) filter (where action = 'payment.refund' and after->>'request_id' is null), 0)::text as unapproved,
           count(*) filter (where action = 'refund.request')::int as requests,
           count(*) filter (where action = 'refund.approve')::int as approvals
    from ops_audit where subject_type = 'payment' and action in ('payment.refund', 'refund.request', 'refund.approve') group by subject_id`);
  for (const row of refunds) {
    const payment = world.payments.find((item) => item.id === row.payment_id);
    if (!payment) continue;
    if (Number(row.refunded) > payment.intendedRefundCents) {
      world.fail(
        'refund-doubled',
        `payment ${world.label(row.payment_id)}: operators refunded ${row.refunded} c for ${payment.intendedRefundCents} c asked`,
      );
    }
    if (Number(row.unapproved) > world.refundApprovalCents) {
      world.fail(
        'refund-four-eyes',
        `payment ${world.label(row.payment_id)}: ${row.unapproved} c refunded with no second operator (threshold ${world.refundApprovalCents} c)`,
      );
    }
    if (row.requests > payment.approvalKeys)
      world.fail(
        'audit-once-per-effect: refund.request',
        `payment ${world.label(row.payment_id)}: ${row.requests} refund requests recorded for ${payment.approvalKeys} Idempotency-Keys`,
      );
  }
  // Each payout ends paid or returned at most once, and the books agree with its status: one paid entry for a paid
  // payout, one returned entry for a returned one, none while in flight, and at most one operator's mark of it
  // (however many bank reports named it).
  const settled = await world.rows<{ id: string; status: string; paid: number; returned: number; marks: number }>(`
    select p.id, p.status,
           (select count(*)::int from ledger_entries e where e.reference = 'payout:' || p.id || ':paid') as paid,
           (select count(*)::int from ledger_entries e where e.reference = 'payout:' || p.id || ':returned') as returned,
           (select count(*)::int from ops_audit a where a.subject_type = 'payout' and a.subject_id::text = p.id::text
              and a.action in ('payout.paid', 'payout.returned')) as marks
    from payouts p where p.status in ('in_flight', 'paid', 'returned')`);
  for (const row of settled) {
    const expected = { in_flight: [0, 0], paid: [1, 0], returned: [0, 1] }[row.status]!;
    if (row.paid !== expected[0] || row.returned !== expected[1] || row.marks > 1) {
      world.fail(
        'payout-settled-once',
        `payout ${row.id} ${row.status}: ${row.paid} paid and ${row.returned} returned entries, ${row.marks} operator marks`,
      );
      break;
    }
  }

  const repeated = await world.rows<{ action: string; subject: string; count: number }>(`
    select action, coalesce(after->>'request_id', subject_id) as subject, count(*)::int as count from ops_audit
    where action in ('card_order.cancel', 'refund.approve') group by action, coalesce(after->>'request_id', subject_id) having count(*) > 1 limit 3`);
  for (const row of repeated)
    world.fail(`audit-once-per-effect: ${row.action}`, `${row.count} records of one ${row.action} (${row.subject})`);
  const stuckApprovals = await world.rows<{ id: string; payment_id: string }>(`
    select r.id, r.payment_id from refund_requests r
    where r.status = 'approved' and not exists (select 1 from ops_audit a where a.action = 'payment.refund' and a.after->>'request_id' = r.id::text) limit 3`);
  if (stuckApprovals.length > 0)
    world.fail(
      'refund-approval-stuck',
      stuckApprovals
        .map((row) => `request ${row.id} on payment ${world.label(row.payment_id)} approved and never refunded`)
        .join('; '),
    );

  // Money that lands on a deleted account (after the simulator's own record of the deletion) is given back.
  const deleted = world.users.filter((user) => user.deletedAt);
  if (deleted.length > 0) {
    const landed = await world.rows<{ user_id: string; payment_id: string; net: string }>(
      `select a.user_id, a.payment_id, (a.net_cents - a.reversed_net_cents)::text as net
       from payment_allocations a join unnest($1::uuid[], $2::timestamptz[]) as d(user_id, deleted_at) on d.user_id = a.user_id
       where a.created_at > d.deleted_at and a.net_cents > a.reversed_net_cents and a.created_at < now() - ${GRACE} limit 3`,
      [deleted.map((user) => user.userId), deleted.map((user) => user.deletedAt!.toISOString())],
    );
    if (landed.length > 0) {
      world.fail(
        'money-on-deleted-account',
        landed
          .map(
            (row) =>
              `${row.net} c of payment ${world.label(row.payment_id)} kept by deleted user #${world.userIndex(row.user_id)}`,
          )
          .join('; '),
      );
    }
  }
  // An erased account is settled (docs/decisions/0028) once the ledger's job has had its grace after the last movement.
  // (A deleted account past its window is erased by its job: the end's "erasures past due" sees one that is not.)
  const stranded = await world.rows<{ user_id: string; balance: string }>(`
    select u.id as user_id, sum(l.balance_cents)::text as balance
    from users u join ledger_accounts l on l.owner_user_id = u.id
    where u.erased_at is not null
      and not exists (select 1 from ledger_postings p where p.account_id = l.id and p.created_at > now() - ${GRACE})
    group by u.id having sum(l.balance_cents) <> 0 limit 3`);
  if (stranded.length > 0) {
    world.fail(
      'balance-stranded-on-closed-account',
      stranded.map((row) => `user #${world.userIndex(row.user_id)} erased holds ${row.balance} c`).join('; '),
    );
  }

  // A paid referral reward stands on three different payers (as the provider saw them pay) of payments not given back.
  const rewards = await world.rows<{ friend_user_id: string; payment_id: string }>(`
    select r.friend_user_id, a.payment_id from referral_rewards r
    join payment_allocations a on a.user_id = r.friend_user_id and a.reversed_net_cents + a.reversed_fee_cents < a.net_cents + a.fee_cents
    where r.status = 'paid'`);
  const payersOf = new Map<string, Set<string>>();
  for (const row of rewards) {
    const paidBy = world.payments.find((payment) => payment.id === row.payment_id)?.paidBy;
    const set = payersOf.get(row.friend_user_id) ?? new Set<string>();
    set.add(paidBy ?? row.payment_id);
    payersOf.set(row.friend_user_id, set);
  }
  const paid = await world.rows<{ friend_user_id: string }>(`select friend_user_id from referral_rewards where status = 'paid'`);
  for (const { friend_user_id: friend } of paid) {
    const payers = payersOf.get(friend)?.size ?? 0;
    if (payers < 3)
      world.fail(
        'referral-reward-unqualified',
        `the reward for friend #${world.userIndex(friend)} stands on ${payers} payer(s) with payments not given back`,
      );
  }

  // Each closing gift (decision 0029) shows in both histories exactly as the ledger moved it: per user, what their
  // closing_gift entries moved equals their gift rows (given: the PAYOUT, received: the charity's PAYIN).
  const gifts = await world.rows<{ user_id: string; ledger: string | null; history: string | null }>(`
    with ledger as (
      select a.owner_user_id as user_id, sum(p.amount_cents) as cents from ledger_entries e
      join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id where e.kind = 'closing_gift' group by 1
    ), history as (
      select user_id, sum(case when detail->>'kind' = 'closing_gift' then amount_cents else -amount_cents end) as cents from transactions
      where detail->>'kind' in ('closing_gift', 'closing_gift_given') group by 1
    )
    select coalesce(l.user_id, h.user_id) as user_id, l.cents::text as ledger, h.cents::text as history
    from ledger l full join history h on h.user_id = l.user_id where l.cents is distinct from h.cents limit 3`);
  if (gifts.length > 0)
    world.fail(
      'gift-history-equals-ledger',
      gifts
        .map(
          (row) => `user #${world.userIndex(row.user_id)}: gifts moved ${row.ledger ?? 0} c, history shows ${row.history ?? 0} c`,
        )
        .join('; '),
    );

  // Team tips (decision 0045), judged from the recorded maths alone: the shares sum to the tip's net and fee, none is
  // negative, a member of weight 0 gets nothing, none is more than a cent over its exact share of the weights, and the
  // money credited to users is exactly the recorded shares that are not zero (a venue tip's over all its teams' rows).
  const badSplits = await world.rows<{ payment_id: string; why: string }>(`
    with s as (
      select t.payment_id, t.team_id, t.total_cents, t.fee_cents, e.value as share,
             sum((e.value->>'weight')::bigint) over (partition by t.payment_id, t.team_id) as weights
      from team_tip_splits t cross join lateral jsonb_array_elements(t.shares) e)
    select payment_id, 'sums' as why from s group by payment_id, team_id, total_cents, fee_cents
      having sum((share->>'netCents')::bigint) <> total_cents - fee_cents or sum((share->>'feeCents')::bigint) <> fee_cents
    union all
    select payment_id, 'share' from s
      where (share->>'netCents')::bigint < 0 or (share->>'feeCents')::bigint < 0
         or ((share->>'weight')::bigint = 0 and (share->>'netCents')::bigint + (share->>'feeCents')::bigint > 0)
         or (share->>'netCents')::bigint * weights > (total_cents - fee_cents) * (share->>'weight')::bigint + weights
    union all
    select p.payment_id, 'credited' from (select distinct payment_id from team_tip_splits) p
      where (select coalesce(jsonb_agg(jsonb_build_array(a.user_id, a.net_cents, a.fee_cents) order by a.user_id), '[]')
             from payment_allocations a where a.payment_id = p.payment_id and a.user_id is not null)
         <> (select coalesce(jsonb_agg(jsonb_build_array((e.value->>'userId')::uuid, (e.value->>'netCents')::bigint, (e.value->>'feeCents')::bigint)
                                       order by (e.value->>'userId')::uuid), '[]')
             from team_tip_splits t cross join lateral jsonb_array_elements(t.shares) e
             where t.payment_id = p.payment_id and (e.value->>'netCents')::bigint + (e.value->>'feeCents')::bigint > 0)
    limit 3`);
  if (badSplits.length > 0)
    world.fail('team-split', badSplits.map((row) => `payment ${world.label(row.payment_id)}: ${row.why}`).join('; '));

  await checkVenueSplits(world);

  const teamLabel = (teamId: string) => `#${world.teams.findIndex((team) => team.teamId === teamId)}`;
  // A locked period never changes (decision 0055): its recorded splits, objections and answers are those of its lock,
  // and no objection came in, or stayed unanswered, after it.
  for (const [key, fingerprint] of world.lockedPeriods) {
    const [teamId, month] = key.split(' ') as [string, string];
    if ((await periodFingerprint(world, teamId, month)) !== fingerprint)
      world.fail('locked-period-unchanged', `team ${teamLabel(teamId)} ${month} changed after its lock`);
  }
  const lateObjections = await world.rows<{ team_id: string; month: string }>(`
    select o.team_id, o.month from team_period_objections o join team_periods p on p.team_id = o.team_id and p.month = o.month
    where p.locked_at is not null and (o.created_at > p.locked_at or o.answered_at is null or o.answered_at > p.locked_at)
    limit 3`);
  if (lateObjections.length > 0)
    world.fail(
      'locked-period-unchanged',
      lateObjections
        .map((row) => `team ${teamLabel(row.team_id)} ${row.month}: an objection after or open at its lock`)
        .join('; '),
    );

  // Adjustments of locked periods (decision 0059), against what the simulator asked for: each row is one it sent (by
  // its admin's Idempotency-Key) with the team, month, people and amount it asked, never one the API refused; made
  // after its period's lock, with its one `adjusted` event; and its one ledger entry moved exactly that amount from
  // the giver's main to the receiver's main.
  const adjustmentRows = await world.rows<{
    id: string;
    key: string;
    team_id: string;
    month: string;
    from_user_id: string;
    to_user_id: string;
    amount: string;
    after_lock: boolean;
    events: number;
    moved: string | null;
  }>(`
    select a.id, a.idempotency_key as key, a.team_id, a.month, a.from_user_id, a.to_user_id, a.amount_cents::text as amount,
           coalesce(a.created_at >= p.locked_at, false) as after_lock,
           (select count(*)::int from team_period_events e where e.adjustment_id = a.id and e.kind = 'adjusted') as events,
           (select string_agg(acc.owner_user_id || ' ' || acc.kind || ' ' || po.amount_cents, ',' order by po.amount_cents)
              from ledger_entries le join ledger_postings po on po.entry_id = le.id join ledger_accounts acc on acc.id = po.account_id
              where le.reference = 'team-adjustment:' || a.id) as moved
    from team_period_adjustments a join team_periods p on p.team_id = a.team_id and p.month = a.month`);
  const adjustmentProblems: string[] = [];
  for (const row of adjustmentRows) {
    const asked = world.adjustments.find((adjustment) => adjustment.key === row.key);
    const label = `adjustment ${row.id.slice(0, 8)} of team ${teamLabel(row.team_id)} ${row.month}`;
    if (!asked) adjustmentProblems.push(`${label} was never asked for`);
    else if (
      asked.teamId !== row.team_id ||
      asked.month !== row.month ||
      asked.fromUserId !== row.from_user_id ||
      asked.toUserId !== row.to_user_id ||
      asked.amountCents !== Number(row.amount)
    )
      adjustmentProblems.push(`${label} is not what was asked`);
    else if (asked.status >= 400 && asked.status < 500)
      adjustmentProblems.push(`${label} exists though it was refused (${asked.status})`);
    else if (asked.id !== null && asked.id !== row.id) adjustmentProblems.push(`${label} is not the one answered (${asked.id})`);
    if (!row.after_lock) adjustmentProblems.push(`${label} was made before its period's lock`);
    if (row.events !== 1) adjustmentProblems.push(`${label} has ${row.events} adjusted events`);
    const expected = `${row.from_user_id} main -${row.amount},${row.to_user_id} main ${row.amount}`;
    if (row.moved !== expected) adjustmentProblems.push(`${label} moved ${row.moved ?? 'nothing'} in the ledger`);
  }
  for (const asked of world.adjustments)
    if (asked.id !== null && !adjustmentRows.some((row) => row.id === asked.id))
      adjustmentProblems.push(`adjustment ${asked.id.slice(0, 8)} was answered but is not stored`);
  if (adjustmentProblems.length > 0) world.fail('period-adjustment-as-asked', adjustmentProblems.slice(0, 3).join('; '));

  // Automatic payouts (issue 31): one run per user and period, and each paid run has its one payout of the run's amount.
  const schedules = await world.rows<{ user_id: string; period: string; problem: string }>(`
    select r.user_id, r.period, case
      when r.outcome = 'paid' and p.id is null then 'a paid run without its payout'
      when r.outcome = 'paid' and p.amount_cents <> r.amount_cents then 'a payout of another amount than its run'
      else 'more than one payout in the period' end as problem
    from payout_schedule_runs r left join payouts p on p.id = r.payout_id
    where (r.outcome = 'paid' and (p.id is null or p.amount_cents <> r.amount_cents))
       or (select count(*) from payouts q where q.user_id = r.user_id and q.idempotency_key = 'schedule:' || r.period) > 1
    limit 3`);
  if (schedules.length > 0)
    world.fail(
      'one-scheduled-payout-per-period',
      schedules.map((row) => `user #${world.userIndex(row.user_id)}, ${row.period}: ${row.problem}`).join('; '),
    );

  // Live events (decision 0041) announce only what the ledger holds: a credit of a payment is the user's share in its
  // received entry, a release is the entry of one of the user's shares of it, a referral bonus or a gift an entry that
  // paid the user that amount, a payout's state the payout's own row and, once in flight, its confirmed entry; a team
  // notice (no money) is the user's own stored notice, word for word, unless the erasure took their notices.
  const unfounded = await world.rows<{ user_id: string; seq: string; body: string }>(`
    with user_cents as (
      select e.reference, e.kind, a.owner_user_id as user_id, sum(p.amount_cents) as cents
      from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
      where a.owner_user_id is not null group by 1, 2, 3
    )
    select l.user_id, l.seq::text, l.body::text from live_events l where not case
      when l.body->>'type' = 'credit' and l.body->>'payment_id' is not null then exists (
        select 1 from user_cents u where u.reference = 'payment:' || (l.body->>'payment_id') || ':received'
          and u.user_id = l.user_id and u.cents = (l.body->>'amount_cents')::bigint)
      when l.body->>'type' = 'credit' then exists (
        select 1 from user_cents u where u.user_id = l.user_id and u.cents = (l.body->>'amount_cents')::bigint
          and u.kind = case l.body->>'kind' when 'referral' then 'referral_reward' when 'team_adjustment' then 'team_adjustment'
                                            else 'closing_gift' end)
      when l.body->>'type' = 'released' then exists (
        select 1 from payment_allocations pa join user_cents u on u.reference = 'allocation:' || pa.id || ':released'
        where pa.payment_id = (l.body->>'payment_id')::uuid and pa.user_id = l.user_id and u.user_id = l.user_id)
      when l.body->>'type' = 'payout' then exists (
        select 1 from payouts po where po.id = (l.body->>'payout_id')::uuid and po.user_id = l.user_id
          and po.amount_cents = (l.body->>'amount_cents')::bigint
          and (l.body->>'status' = 'requested' or exists (
            select 1 from ledger_entries e where e.reference = 'payout:' || po.id || ':confirmed'))
          and (l.body->>'status' <> 'paid' or po.status = 'paid')
          and (l.body->>'status' <> 'returned' or po.status = 'returned'))
      when l.body->>'type' = 'notice' then exists (
        select 1 from user_notices n where n.id = (l.body->>'notice_id')::uuid and n.user_id = l.user_id
          and n.body = l.body->'notice')
        or exists (select 1 from users u where u.id = l.user_id and u.erased_at is not null)
      else false end
    limit 3`);
  if (unfounded.length > 0)
    world.fail(
      'live-event-in-ledger',
      unfounded.map((row) => `user #${world.userIndex(row.user_id)} was told ${row.body} (event ${row.seq})`).join('; '),
    );

  // Card shop: at most 10 live items per user; an order the back office canceled stays canceled.
  const overLimit = await world.rows<{ user_id: string; items: number }>(
    `select user_id, sum(quantity)::int as items from card_orders where status <> 'canceled' group by user_id having sum(quantity) > 10`,
  );
  if (overLimit.length > 0)
    world.fail(
      'card-order-limit',
      overLimit.map((row) => `user #${world.userIndex(row.user_id)} holds ${row.items} live items`).join('; '),
    );
  // An order prints the user's own card or a team's card, never another user's own card.
  const foreign = await world.rows<{ id: string; user_id: string }>(
    `select o.id, o.user_id from card_orders o join cards c on c.id = o.card_id join clients cl on cl.id = c.client_id
     where c.is_private and cl.user_id <> o.user_id limit 3`,
  );
  if (foreign.length > 0)
    world.fail(
      'card-order-prints-own-card',
      foreign.map((row) => `order ${row.id} of user #${world.userIndex(row.user_id)} prints another user's card`).join('; '),
    );
  const canceled = world.orders.filter((order) => order.canceled);
  if (canceled.length > 0) {
    const revived = await world.rows<{ id: string; status: string }>(
      `select id, status from card_orders where id = any($1::uuid[]) and status <> 'canceled'`,
      [canceled.map((order) => order.id)],
    );
    if (revived.length > 0)
      world.fail(
        'canceled-order-revived',
        revived
          .map(
            (row) =>
              `order #${world.orders.findIndex((order) => order.id === row.id)} canceled by the back office is ${row.status} again`,
          )
          .join('; '),
      );
  }
}

/** After the last step: let the workers drain, then the step checks again, whether anyone can leave with their balance, and nothing stuck. */
/**
 * The simulator's own model of a venue tip (decision 0058), written apart from the product: the tip's net and fee are
 * split between the teams by largest remainder over the percentages in force at the tip's instant (the latest
 * version set at or before it, 0 for a team it does not name), a team with no member weighing nothing (even among
 * the teams with members when no percentages are set, or when those teams all have 0 %), ties to the earlier team;
 * then each team's part goes to the members it had at the moment of payment. The model predicts each team's part
 * from the venue's own versions and the membership rows at the tip's instant, and the recorded rows and the money
 * credited must be what it predicts: every team's part and every member's share at least 0, the shares of each team
 * summing to its part and the parts to the tip.
 */
const largestRemainder = (amount: number, weights: number[]): number[] => {
  const whole = weights.reduce((sum, w) => sum + w, 0);
  const parts = weights.map((w) => Math.floor((amount * w) / whole));
  let left = amount - parts.reduce((sum, part) => sum + part, 0);
  const order = weights.map((w, i) => ({ i, rest: (amount * w) % whole })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
};

async function checkVenueSplits(world: World) {
  const splits = await world.rows<{
    payment_id: string;
    percentages_id: string | null;
    in_force_id: string | null;
    in_force: { teamId: string; basisPoints: number }[] | null;
    total_cents: string;
    fee_cents: string;
    parts: { teamId: string; basisPoints: number; members: number; netCents: number; feeCents: number }[];
    allocated: string | null;
    negative: boolean;
  }>(`
    select v.payment_id, v.percentages_id, f.id as in_force_id, f.shares as in_force, v.total_cents, v.fee_cents, v.parts,
           (select sum(a.net_cents + a.fee_cents) from payment_allocations a where a.payment_id = v.payment_id and a.user_id is not null)::text as allocated,
           exists (select 1 from payment_allocations a where a.payment_id = v.payment_id and (a.net_cents < 0 or a.fee_cents < 0)) as negative
    from venue_tip_splits v
    left join lateral (select p.id, p.shares from venue_percentages p where p.workplace_id = v.workplace_id and p.created_at <= v.at
                       order by p.created_at desc, p.id desc limit 1) f on true`);
  for (const split of splits) {
    const label = `venue tip ${world.label(split.payment_id)}`;
    const total = Number(split.total_cents);
    const fee = Number(split.fee_cents);
    if (split.percentages_id !== split.in_force_id)
      world.fail('venue-split', `${label}: split by percentages ${split.percentages_id}, in force was ${split.in_force_id}`);
    const inForce = new Map((split.in_force ?? []).map((share) => [share.teamId, share.basisPoints]));
    const members = split.parts.map((part) => part.members);
    let weights = split.parts.map((part, i) => (members[i] === 0 ? 0 : split.in_force ? (inForce.get(part.teamId) ?? 0) : 1));
    if (weights.every((w) => w === 0)) weights = members.map((count) => (count === 0 ? 0 : 1));
    const nets = largestRemainder(total - fee, weights);
    const fees = largestRemainder(fee, weights);
    const predicted = split.parts.map((part, i) => [part.teamId, nets[i], fees[i]]);
    const recorded = split.parts.map((part) => [part.teamId, part.netCents, part.feeCents]);
    if (JSON.stringify(predicted) !== JSON.stringify(recorded))
      world.fail('venue-split', `${label}: parts ${JSON.stringify(recorded)}, the model says ${JSON.stringify(predicted)}`);
    if (split.in_force && split.parts.some((part) => part.basisPoints !== (inForce.get(part.teamId) ?? 0)))
      world.fail(
        'venue-split',
        `${label}: recorded percentages ${JSON.stringify(split.parts.map((part) => part.basisPoints))} are not the version's`,
      );
    if (split.negative || split.parts.some((part) => part.netCents < 0 || part.feeCents < 0))
      world.fail('venue-split', `${label}: a negative part or share`);
    if (Number(split.allocated ?? 0) !== total)
      world.fail('venue-split', `${label}: ${split.allocated ?? 0} c credited to members of a ${total} c tip`);
    // Who receives: every member each team had at the instant. A time jump moves memberships and a team's tips
    // together, except tips kept in a closed month: those are left out of this check.
    const teamsOf = await world.rows<{
      team_id: string;
      at: Date;
      shares: { userId: string; netCents: number; feeCents: number }[];
      total_cents: string;
      fee_cents: string;
      closed: boolean;
    }>(
      `select t.team_id, t.at, t.shares, t.total_cents, t.fee_cents,
              exists (select 1 from team_periods p where p.team_id = t.team_id) as closed
       from team_tip_splits t where t.payment_id = $1`,
      [split.payment_id],
    );
    for (const [i, part] of split.parts.entries()) {
      const row = teamsOf.find((each) => each.team_id === part.teamId);
      if (nets[i]! + fees[i]! === 0) {
        if (row) world.fail('venue-split', `${label}: team ${part.teamId} got no part but has a recorded split`);
        continue;
      }
      if (!row || Number(row.total_cents) !== nets[i]! + fees[i]! || Number(row.fee_cents) !== fees[i]!) {
        world.fail('venue-split', `${label}: team ${part.teamId}'s recorded part differs from the model's`);
        continue;
      }
      const shared = row.shares.reduce((sum, share) => [sum[0]! + share.netCents, sum[1]! + share.feeCents], [0, 0]);
      if (row.shares.some((share) => share.netCents < 0 || share.feeCents < 0) || shared[0] !== nets[i] || shared[1] !== fees[i])
        world.fail(
          'venue-split',
          `${label}: team ${part.teamId}'s shares ${JSON.stringify(shared)} are not its part or one is negative`,
        );
      if (row.closed) continue;
      // The instant is read before the split waits for its locks, so a membership that changed while it waited has
      // its time a moment after it: members certainly in (and not out) a few seconds around it must share, and
      // nobody may share who was not possibly in.
      const around = await world.rows<{ user_id: string; certain: boolean }>(
        `select user_id::text, (joined_at <= $2::timestamptz - interval '5 seconds'
                                and (left_at is null or left_at > $2::timestamptz + interval '5 seconds')) as certain
         from team_memberships where team_id = $1 and joined_at <= $2::timestamptz + interval '5 seconds'
           and (left_at is null or left_at > $2::timestamptz - interval '5 seconds')`,
        [part.teamId, row.at],
      );
      const sharers = row.shares.map((share) => share.userId);
      const possible = new Set(around.map((each) => each.user_id));
      const missing = around.filter((each) => each.certain && !sharers.includes(each.user_id));
      const strangers = sharers.filter((id) => !possible.has(id));
      if (sharers.length !== part.members || missing.length > 0 || strangers.length > 0)
        world.fail(
          'venue-split',
          `${label}: team ${part.teamId} split among ${sharers.length} (${part.members} counted), ${missing.length} members left out, ${strangers.length} not members`,
        );
    }
  }
}

export async function checkEnd(world: World) {
  const due = async () => {
    const [row] = await world.rows<{ n: number }>(`
      select ((select count(*) from payments where status = 'pending' and reconcile_due_at < now()) +
              (select count(*) from payment_allocations where released_at is null and release_due_at < now()) +
              (select count(*) from payouts where status = 'in_flight') +
              (select count(*) from outbox_messages where status in ('pending', 'sending') and due_at < now()) +
              (select count(*) from sandbox_events where due_at < now()))::int as n`);
    return row!.n === 0;
  };
  // A SEPA file a kill cut short between its calls is answered by the bank before the drain (its payouts would wait).
  await ACTIONS.bankReport!.run(world, { outcomes: 1, camt: 0 });
  const until = Date.now() + 90_000;
  while (!(await due()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 500));
  // Past the grace of the step checks, so money that arrived late has had its chance to be given back.
  await new Promise((resolve) => setTimeout(resolve, GRACE_MS + 1_000));
  await checkStep(world);

  world.ending = true;
  // Every balance has a way out: each active user with money leaves, through the closing payout the deletion offers
  // (a refusal the preview offers no way out of is recorded by the action itself).
  for (const user of world.users.filter((item) => !item.deleted)) {
    if ((await balancesOf(world, user)).main > 0) await ACTIONS.deleteAccount!.run(world, { user: world.users.indexOf(user) });
  }

  const [stuck] = await world.rows<Record<string, number>>(`
    select (select count(*)::int from payments where status = 'pending' and reconcile_due_at < now() - ${GRACE}) as payments_pending_past_reconciliation,
           (select count(*)::int from payment_allocations where released_at is null and release_due_at < now() - ${GRACE}) as shares_past_hold,
           (select count(*)::int from payouts where status = 'in_flight' and rail_due_at < now() - ${GRACE}) as payouts_past_lease,
           (select count(*)::int from outbox_messages where status in ('pending', 'sending') and due_at < now() - ${GRACE}) as messages_past_lease,
           (select count(*)::int from sandbox_events where due_at < now() - ${GRACE}) as webhooks_past_lease,
           (select count(*)::int from provider_events where outcome is null and created_at < now() - ${GRACE}) as recorded_events_not_applied,
           (select count(*)::int from users where erased_at is null and erasure_due_at < now() - ${GRACE}) as erasures_past_due,
           (select count(*)::int from referral_rewards where status = 'pending' and next_check_at < now() - ${GRACE}) as referral_checks_past_due,
           (select count(*)::int from donation_plans where status = 'active' and next_charge_at < now() - ${GRACE}) as monthly_charges_past_due,
           (select count(*)::int from refund_requests where status = 'pending') as refund_requests_waiting`);
  for (const [name, count] of Object.entries(stuck!)) {
    if (count > 0 && name !== 'refund_requests_waiting') world.fail(`stuck: ${name.replaceAll('_', ' ')}`, `${count} at the end`);
  }
  return stuck!;
}

/** What the run did, as the database holds it (printed, never judged). */
export async function effects(world: World) {
  const [row] = await world.rows<Record<string, number>>(`
    select (select count(*)::int from users) as users,
           (select count(*)::int from users where deleted_at is not null) as users_deleted,
           (select count(*)::int from users where erased_at is not null) as users_erased,
           (select count(*)::int from payments where status = 'succeeded') as payments_succeeded,
           (select count(*)::int from payments where refunded_cents > 0) as payments_refunded,
           (select count(*)::int from payments where disputed_cents > 0) as payments_disputed,
           (select count(*)::int from payment_allocations where user_id is not null) as shares_to_users,
           (select count(*)::int from provider_events where attempts > 0) as provider_events_retried,
           (select count(*)::int from team_memberships) as team_memberships,
           (select count(*)::int from team_split_rules) as team_split_rules,
           (select count(*)::int from team_shifts) as team_shifts,
           (select count(*)::int from team_tip_splits) as team_tip_splits,
           (select count(*)::int from venue_tip_splits) as venue_tip_splits,
           (select count(*)::int from venue_tip_splits v
             where (select count(*) from jsonb_array_elements(v.parts) part
                    where (part->>'netCents')::bigint + (part->>'feeCents')::bigint > 0) >= 2) as venue_tips_over_two_teams,
           (select count(*)::int from (select workplace_id from teams group by workplace_id having count(*) >= 2) w) as venues_with_two_teams,
           (select count(*)::int from venue_percentages) as venue_percentages,
           (select count(*)::int from team_periods) as team_periods,
           (select count(*)::int from team_periods where locked_at is not null) as team_periods_locked,
           (select count(*)::int from team_period_objections) as team_period_objections,
           (select count(*)::int from team_period_adjustments) as team_period_adjustments,
           (select count(*)::int from card_orders where status = 'canceled') as card_orders_canceled,
           (select count(*)::int from card_orders) as card_orders,
           (select count(*)::int from invoices where status = 'paid') as invoices_paid,
           (select count(*)::int from donation_plans) as donation_plans,
           (select count(*)::int from refund_requests) as refund_requests,
           (select count(*)::int from payouts where status = 'paid') as payouts_paid,
           (select count(*)::int from payouts where status = 'returned') as payouts_returned,
           (select count(*)::int from ledger_entries where kind = 'closing_gift') as closing_gifts,
           (select count(*)::int from referral_rewards) as referral_rewards,
           (select count(*)::int from referral_rewards where status = 'paid') as referral_rewards_paid,
           (select count(*)::int from live_events) as live_events,
           (select count(*)::int from ledger_entries) as ledger_entries`);
  return row!;
}
