/**
 * `npm run test:cluster` (issue 10, DESIGN "Scale-out"): two API servers (WORKER=off) and two `npm run worker`
 * processes on one throwaway PostgreSQL database and one Redis, a mixed load through both servers, one server and one
 * worker killed with SIGKILL midway and restarted, then the books and the queues checked. Prints its figures and
 * exits 1 on any failure.
 *
 * Needs PostgreSQL (CLUSTER_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres: a database is created
 * there and dropped at the end) and Redis (REDIS_URL, default redis://127.0.0.1:6379). Ports CLUSTER_PORT and +1.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../apps/api/src/db/client.ts';
import { checkLedgerInvariants } from '../../apps/api/src/modules/transactions/transactions.service.ts';
import { payoutRef } from '../../apps/api/src/modules/payouts/payouts.service.ts';
import {
  clusterClient,
  clusterEnv,
  clusterInstances,
  createDatabase,
  kill9,
  newClientFigures,
  sleep,
  start as startInstance,
  stopAll,
  untilReady as untilInstanceReady,
  waitFor,
  type Instance,
} from './processes.ts';

const BASE_PORT = Number(process.env.CLUSTER_PORT ?? 3300);
const USERS = Number(process.env.CLUSTER_USERS ?? 6);
const TIPS_PER_USER = 3;
const TIP_CENTS = 2_000;
const PAYOUT_CENTS = 1_000;
const LOGS = mkdtempSync(join(tmpdir(), 'tipcard-cluster-'));
const databaseName = `tipcard_cluster_${Date.now()}_${process.pid}`;

// ---- processes ----

const { servers, workers } = clusterInstances(BASE_PORT);
let sharedEnv: NodeJS.ProcessEnv = {};
const start = (instance: Instance) => startInstance(instance, sharedEnv, LOGS);
const untilReady = (instance: Instance, timeoutMs?: number) => untilInstanceReady(instance, LOGS, timeoutMs);

// ---- the load's client ----

const clientFigures = newClientFigures();
const figures = {
  signUps: 0,
  tips: 0,
  tipRetriesSameKey: 0,
  payouts: 0,
  payoutRetriesSameKey: 0,
};
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
};
const { call, codeFrom } = clusterClient(servers, clientFigures);

const SEPA = {
  kind: 'sepa',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  holder_last_name: 'Müller',
  address: 'Hauptstraße 1, Berlin',
};
const CARD = {
  title: 'Cluster bar',
  public_name: 'Anna',
  welcome_phrase: null,
  public_text: null,
  activity_type: 'WAITER',
  country: 'LV',
  instagram: null,
  facebook: null,
  tiktok: null,
};

interface Staff {
  index: number;
  phone: string;
  ip: string;
  token: string;
  clientId: string;
  cardId: string;
  methodId: string;
}

async function signUp(index: number): Promise<Staff> {
  const phone = `+3712${String(7_000_000 + index * 7919 + (Date.now() % 1000)).padStart(7, '0')}`;
  const ip = `10.1.0.${index + 1}`;
  const [a, b] = [index % 2, (index + 1) % 2];
  const registered = await call(a, ip, 'POST', '/api/register', {
    json: { username: phone, age_confirmed: true, terms_accepted: true },
  });
  if (registered.status !== 200) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const code = await codeFrom(b, phone);
  const verified = await call(b, ip, 'POST', `/api/register/${registered.body.data.uuid}/verify`, { json: { code } });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  const token = verified.body.data.jwt as string;
  const me = await call(a, ip, 'GET', '/api/me', { token });
  const clientId = me.body.data.clients[0].id as string;
  const card = await call(b, ip, 'POST', `/api/clients/${clientId}/cards`, { token, json: CARD });
  const method = await call(a, ip, 'POST', `/api/clients/${clientId}/payout-methods`, { token, json: SEPA });
  if (card.status !== 201 || method.status !== 201) throw new Error(`card ${card.status}, method ${method.status}`);
  figures.signUps += 1;
  return { index, phone, ip, token, clientId, cardId: card.body.data.id, methodId: method.body.data.id };
}

/** A guest's tip: the checkout opened on one server, the same request retried on the other, paid at the sandbox. */
async function tip(staff: Staff, n: number): Promise<string> {
  const guestIp = `10.2.${staff.index}.${n + 1}`;
  const key = randomUUID();
  const body = { amount_cents: TIP_CENTS, cover_fee: false, terms_accepted: true };
  const first = await call(n % 2, guestIp, 'POST', `/api/public/cards/${staff.cardId}/payments`, { key, json: body });
  const again = await call((n + 1) % 2, guestIp, 'POST', `/api/public/cards/${staff.cardId}/payments`, { key, json: body });
  figures.tipRetriesSameKey += 1;
  check(
    first.status === 201 && again.status === 201 && first.body.data.id === again.body.data.id,
    `a tip's retry under its key answered another payment (${first.status}/${again.status})`,
  );
  const checkout = new URL(first.body.data.checkout_url);
  const paid = await call((n + 1) % 2, guestIp, 'POST', `${checkout.pathname}${checkout.search}`, {
    form: 'method=card&card_number=4242424242424242',
  });
  check(paid.status === 303, `the sandbox checkout answered ${paid.status}`);
  figures.tips += 1;
  return first.body.data.id as string;
}

/** A withdrawal: asked on one server, asked again under the same key on the other, confirmed with its texted code. */
async function payout(staff: Staff, prefer: number): Promise<string> {
  const key = randomUUID();
  const body = { amount_cents: PAYOUT_CENTS, method_id: staff.methodId };
  const path = `/api/clients/${staff.clientId}/payouts`;
  const first = await call(prefer, staff.ip, 'POST', path, { token: staff.token, key, json: body });
  const again = await call(prefer + 1, staff.ip, 'POST', path, { token: staff.token, key, json: body });
  figures.payoutRetriesSameKey += 1;
  if (first.status !== 201) throw new Error(`payout request: ${first.status} ${JSON.stringify(first.body)}`);
  check(again.body?.data?.id === first.body.data.id, 'a payout retry under its key made another payout');
  const id = first.body.data.id as string;
  const code = await codeFrom(prefer, staff.phone, `withdrawal ${payoutRef(id)}:`);
  const confirmed = await call(prefer + 1, staff.ip, 'POST', `/api/payouts/${id}/confirm`, {
    token: staff.token,
    json: { code },
  });
  const confirmedAgain = await call(prefer, staff.ip, 'POST', `/api/payouts/${id}/confirm`, {
    token: staff.token,
    json: { code },
  });
  check(
    confirmed.status === 200 && confirmedAgain.status === 200,
    `payout confirmation answered ${confirmed.status}/${confirmedAgain.status}`,
  );
  figures.payouts += 1;
  return id;
}

// ---- the run ----

async function main() {
  const database0 = await createDatabase(databaseName);
  sharedEnv = clusterEnv(database0.url, `cluster-${randomUUID()}-${randomUUID()}`);
  const started = Date.now();
  let database: Awaited<ReturnType<typeof openDatabase>> | undefined;
  try {
    // The first server migrates the new database; the others start on it once it is ready.
    start(servers[0]!);
    await untilReady(servers[0]!, 120_000);
    start(servers[1]!);
    for (const worker of workers) start(worker);
    await untilReady(servers[1]!);
    database = await openDatabase({ databaseUrl: database0.url });
    const rows = async <T>(query: ReturnType<typeof sql>) =>
      ((await database!.db.execute(query)) as unknown as { rows: T[] }).rows;
    console.log(
      `cluster: 2 servers (:${BASE_PORT}, :${BASE_PORT + 1}, WORKER=off) and 2 workers on ${databaseName} with Redis; logs in ${LOGS}`,
    );

    const staff = await Promise.all(Array.from({ length: USERS }, (_, index) => signUp(index)));

    // Tips from every staff member's guests at once; the kill comes when half of them are in.
    const total = USERS * TIPS_PER_USER;
    let killed = false;
    const killAndRestart = async () => {
      killed = true;
      console.log(`kill -9 ${servers[1]!.name} and ${workers[1]!.name} after ${figures.tips} of ${total} tips`);
      kill9(servers[1]!);
      kill9(workers[1]!);
      await sleep(1_500);
      start(servers[1]!);
      start(workers[1]!);
      await untilReady(servers[1]!);
      console.log(`${servers[1]!.name} and ${workers[1]!.name} restarted`);
    };
    let restart: Promise<void> | undefined;
    const paymentIds = (
      await Promise.all(
        staff.map(async (member) => {
          const ids: string[] = [];
          for (let n = 0; n < TIPS_PER_USER; n += 1) {
            ids.push(await tip(member, n));
            if (!killed && figures.tips >= total / 2) restart = killAndRestart();
          }
          return ids;
        }),
      )
    ).flat();
    await restart;

    // Settled by the workers: every payment succeeded (webhook or reconciliation), every share released from hold.
    await waitFor('every tip paid and released', 60_000, async () => {
      const [state] = await rows<{ pending: number; unreleased: number }>(sql`
        select (select count(*)::int from payments where status <> 'succeeded') as pending,
               (select count(*)::int from payment_allocations where user_id is not null and released_at is null) as unreleased`);
      return state!.pending === 0 && state!.unreleased === 0;
    });

    // Withdrawals through both servers; a worker dies while they are being sent.
    const payoutIds: string[] = [];
    for (const member of staff) {
      payoutIds.push(await payout(member, member.index % 2));
      if (member.index === Math.floor(USERS / 2)) {
        console.log(`kill -9 ${workers[0]!.name} while payouts are sent`);
        kill9(workers[0]!);
        start(workers[0]!);
      }
    }
    // The sandbox rail pays 0.5 s after submission; a payout claimed by the killed worker waits out its lease (60 s).
    await waitFor('every payout paid', 100_000, async () => {
      const [state] = await rows<{ open: number }>(sql`select count(*)::int as open from payouts where status <> 'paid'`);
      return state!.open === 0;
    });

    // Rate limits count across servers: the code-request limit for one phone (5 a minute, in Redis), asked through
    // both servers in turn from eight addresses. A phone with no account, so no other rule (the wait between two
    // texts to one account) answers first.
    const limitedPhone = `+3712${String(8_000_000 + (Date.now() % 1_000_000)).padStart(7, '0')}`;
    const codeRequests: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const answer = await call(i % 2, `10.3.0.${i + 1}`, 'POST', '/api/request-otp', { json: { username: limitedPhone } });
      codeRequests.push(answer.status === 429 ? `429 ${answer.body?.code}` : String(answer.status));
    }
    const limitedAfter = codeRequests.findIndex((answer) => answer === '429 too_many_requests');
    check(
      limitedAfter === 5 && codeRequests.slice(5).every((answer) => answer === '429 too_many_requests'),
      `code requests for one phone through both servers: ${codeRequests.join(', ')} (want the 6th and later refused)`,
    );

    // ---- the checks ----
    const problems = await checkLedgerInvariants(database.db);
    for (const problem of problems) failures.push(`ledger: ${problem}`);
    const [effects] = await rows<Record<string, number>>(sql`
      select (select count(*)::int from users) as users,
             (select count(*)::int from payments where status = 'succeeded') as payments_succeeded,
             (select count(*)::int from payments) as payments,
             (select count(*)::int from ledger_entries) as ledger_entries,
             (select count(*)::int from payouts where status = 'paid') as payouts_paid,
             (select count(*)::int from payouts) as payouts,
             (select count(*)::int from sandbox_payout_transfers) as rail_transfers,
             (select coalesce(sum(requests), 0)::int from sandbox_payout_transfers) as rail_requests,
             (select count(*)::int from outbox_messages) as messages,
             (select count(*)::int from outbox_messages where status = 'sent') as messages_sent`);
    check(
      effects!.payments === paymentIds.length,
      `${effects!.payments} payments stored for ${paymentIds.length} checkouts (retries must not add any)`,
    );
    check(effects!.payouts === payoutIds.length, `${effects!.payouts} payouts stored for ${payoutIds.length} requests`);
    // No payout sent twice: the rail holds one transfer per payout, and the ledger one payment-out entry per payout.
    const twice = await rows<{ payout_id: string }>(
      sql`select payout_id from sandbox_payout_transfers group by payout_id having count(*) > 1`,
    );
    check(
      twice.length === 0 && effects!.rail_transfers === payoutIds.length,
      `rail transfers: ${effects!.rail_transfers} for ${payoutIds.length} payouts`,
    );
    const doubleEntries = await rows<{ reference: string }>(
      sql`select reference from ledger_entries group by reference having count(*) > 1`,
    );
    check(doubleEntries.length === 0, `ledger references booked twice: ${doubleEntries.map((row) => row.reference).join(', ')}`);

    // Nothing stuck: no due work left whose time (or lease) ended more than a few worker ticks ago.
    const [stuck] = await rows<Record<string, number>>(sql`
      select (select count(*)::int from payments where status = 'pending' and reconcile_due_at < now() - interval '10 seconds') as payments_pending_past_reconciliation,
             (select count(*)::int from payment_allocations where released_at is null and release_due_at < now() - interval '10 seconds') as shares_past_hold,
             (select count(*)::int from payouts where status = 'in_flight' and rail_due_at < now() - interval '10 seconds') as payouts_past_lease,
             (select count(*)::int from outbox_messages where status in ('pending', 'sending') and due_at < now() - interval '10 seconds') as messages_past_lease,
             (select count(*)::int from sandbox_events where due_at < now() - interval '10 seconds') as webhooks_past_lease,
             (select count(*)::int from provider_events where outcome is null and created_at < now() - interval '10 seconds') as recorded_events_not_applied,
             (select count(*)::int from outbox_messages where status = 'sending' and due_at >= now()) as messages_in_live_lease`);
    for (const [name, count] of Object.entries(stuck!))
      if (name !== 'messages_in_live_lease' && count > 0) failures.push(`stuck: ${count} ${name.replaceAll('_', ' ')}`);
    check(clientFigures.serverErrors.length === 0, `5xx answers: ${clientFigures.serverErrors.join('; ')}`);

    console.log('\nrequests', {
      total: clientFigures.requests,
      failedOverToOtherServer: clientFigures.failovers,
      signUps: figures.signUps,
      tips: figures.tips,
      tipRetriesSameKey: figures.tipRetriesSameKey,
      payouts: figures.payouts,
      payoutRetriesSameKey: figures.payoutRetriesSameKey,
    });
    console.log('refusals', clientFigures.refusals);
    console.log('effects', effects);
    console.log('rate limit across servers (code requests for one phone, A B A B …)', codeRequests.join(', '));
    console.log('restarts', Object.fromEntries([...servers, ...workers].map((instance) => [instance.name, instance.starts - 1])));
    console.log('ledger invariants', problems.length === 0 ? 'hold' : problems);
    console.log('stuck work', stuck);
    console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    failures.push(`the run stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await stopAll([...servers, ...workers]);
    await database?.close();
    await database0.drop();
  }
  if (failures.length > 0) {
    console.error(`\nFAILED (${failures.length}):\n- ${failures.join('\n- ')}\nlogs: ${LOGS}`);
    process.exit(1);
  }
  console.log('\ncluster test passed');
  process.exit(0);
}

await main();
