/**
 * `npm run bench:payments`: signed succeeded-payment webhooks → recorded → applied by the server's worker in batches
 * (decision 0060) → ledger, then the settlement job in batches, on PostgreSQL, through real HTTP: the server runs as its
 * own process (woken by NOTIFY, no ticks) and the senders are undici connections, 20 and then 64 at once, for each batch
 * size of BENCH_BATCH_SIZES (1 is one event per transaction) and each count of appliers side by side of BENCH_APPLIERS
 * (PAYMENT_APPLIERS). Each round prints payments/s, the webhook's answer time
 * p50/p99, webhook-to-credited p50/p99 (the event recorded → its shares written, from the database's own times) and
 * the server's CPU, beside pgbench's built-in TPC-B-like script with as many clients on the same database in the same
 * run, and their ratio (target ≥ 0.5 at 20 senders); then the ledger invariant check. It prints figures; it is not a
 * test and asserts no timing.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../apps/api/src/db/client.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../apps/api/src/integrations/sandbox-psp/sandbox-provider.ts';
import { countRecordedEvents } from '../apps/api/src/modules/payments/payments.repository.ts';
import { checkLedgerInvariants } from '../apps/api/src/modules/transactions/transactions.service.ts';
import { drainJob } from '../apps/api/src/test/jobs.ts';
import { createUserWithPrivateClient } from '../apps/api/src/modules/users/users.service.ts';
import { sandboxRefOf } from '../apps/api/src/test/sandbox-events.ts';
import { CARD_INPUT } from '../apps/api/src/test/test-app.ts';
import { createBenchDatabase } from './database.ts';
import { startServer } from './server.ts';

const ROUNDS = (process.env.BENCH_SENDERS ?? '20,64').split(',').map(Number);
const BATCH_SIZES = (process.env.BENCH_BATCH_SIZES ?? '1,100').split(',').map(Number);
const APPLIERS = (process.env.BENCH_APPLIERS ?? '1,4').split(',').map(Number);
/** Each batch size with each count of appliers, in that order. */
const SETUPS = BATCH_SIZES.flatMap((batchSize) => APPLIERS.map((appliers) => ({ batchSize, appliers })));
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 4_000);
const STAFF = 200;
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? 15);

const benchDatabase = await createBenchDatabase('tipcard_bench');
const databaseUrl = benchDatabase.url;

const jwtSecret = randomUUID() + randomUUID();
const database = await openDatabase({ databaseUrl });
await database.migrate();
// This process's own app seeds the payments, runs the settlement job and checks the books; the server under load is
// another process on the same database with the same secret (the sandbox signs its webhooks with it).
// As many connections as pgbench's clients at 20 (BENCH_POOL changes it).
const serverEnv = {
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_SIZE: process.env.BENCH_POOL ?? '20',
  JWT_SECRET: jwtSecret,
  // The server applies what its webhooks record as soon as NOTIFY announces it; no tick runs during the bench (the
  // settlement below is driven by this process, as before).
  WORKER: 'inline',
  WORKER_INTERVAL_MS: '3600000',
  HOLD_HOURS: '0',
};
// Seeding opens thousands of checkouts in a minute: above the service-wide card-testing limit, which is not measured.
// Its worker is off: only the server's appliers apply what the webhooks record, so their figures are theirs alone.
const config = loadConfig(
  { NODE_ENV: 'test', LOG_LEVEL: 'silent', CHECKOUTS_GLOBAL_PER_MINUTE: '1000000', ...serverEnv, WORKER: 'off' },
  { jwtSecret },
);
const app = await buildApp(config, { database });
await app.ready();
const sandbox = app.services.sandbox!;

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const cards: string[] = [];
let seeded = 0;
/** Open payments to the staff's cards, as guests open them, each with the provider's succeeded event to deliver. */
async function openPayments(count: number): Promise<string[]> {
  const events: string[] = [];
  for (let i = seeded; i < seeded + count; i += 1) {
    const response = await app.inject({
      method: 'POST',
      url: `/api/public/cards/${cards[i % STAFF]}/payments`,
      headers: { 'idempotency-key': randomUUID() },
      payload: { amount_cents: 100 + (i % 4_900), cover_fee: i % 2 === 0, terms_accepted: true },
      remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    });
    const payment = response.json().data;
    events.push(
      JSON.stringify({
        id: `evt_${randomUUID()}`,
        type: 'payment.succeeded',
        provider_ref: sandboxRefOf(payment),
        payment_id: payment.id,
        amount_cents: payment.total_cents,
        currency: 'EUR',
        created_at: Date.now(),
      }),
    );
  }
  seeded += count;
  return events;
}

let failures = 0;
let settledTotal = 0;
const serverOf = ({ batchSize, appliers }: (typeof SETUPS)[number]) =>
  startServer({ ...serverEnv, PAYMENT_BATCH_SIZE: String(batchSize), PAYMENT_APPLIERS: String(appliers) });
let server = await serverOf(SETUPS[0]!);

/** Waits until the server's worker has applied every recorded event; answers when that was seen. */
async function allApplied(): Promise<bigint> {
  for (;;) {
    if ((await countRecordedEvents(app.db)) === 0) return process.hrtime.bigint();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Webhook-to-credited times of these payments, in ms: their event recorded → their shares written. */
async function creditedLatencies(paymentIds: string[]): Promise<{ p50: number; p99: number }> {
  const [row] = rowsOf<{ p50: number; p99: number }>(
    await app.db.execute(sql`
      select percentile_disc(0.5) within group (order by ms) as p50, percentile_disc(0.99) within group (order by ms) as p99
      from (
        select extract(epoch from (min(a.created_at) - e.created_at)) * 1000 as ms
        from provider_events e join payment_allocations a on a.payment_id = e.payment_id
        where e.payment_id = any(${`{${paymentIds.join(',')}}`}::uuid[])
        group by e.id
      ) credited`),
  );
  return { p50: Number(row!.p50), p99: Number(row!.p99) };
}

try {
  process.stdout.write(`seeding ${STAFF} staff members… `);
  for (let i = 0; i < STAFF; i += 1) {
    const { user, client } = await createUserWithPrivateClient(app.db, {
      phone: `+3712${String(i).padStart(7, '0')}`,
      promoSource: null,
      referralCode: null,
    });
    cards.push((await app.services.cards.create(user.id, client.id, { ...CARD_INPUT, public_name: `Staff ${i}` })).id);
  }
  console.log('done');
  execFileSync('pgbench', ['-i', '-q', '-s', '1', databaseUrl], { stdio: 'ignore' });

  for (const [index, setup] of SETUPS.entries()) {
    if (index > 0) {
      await server.stop();
      server = await serverOf(setup);
    }
    for (const senders of ROUNDS) {
      process.stdout.write(
        `\nbatches of ${setup.batchSize}, ${setup.appliers} applier(s), ${senders} senders: opening ${PAYMENTS} payments… `,
      );
      const events = await openPayments(PAYMENTS);
      const paymentIds = events.map((body) => JSON.parse(body).payment_id as string);
      console.log('done');
      const pool = new Pool(server.baseUrl, { connections: senders });
      const latencies: number[] = [];
      const cpuBefore = cpuSecondsOf(server.pid);
      const started = process.hrtime.bigint();
      let next = 0;
      await Promise.all(
        Array.from({ length: senders }, async () => {
          while (next < events.length) {
            const body = events[next++]!;
            const sent = process.hrtime.bigint();
            const response = await pool.request({
              method: 'POST',
              path: '/api/webhooks/sandbox',
              headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandbox.signEvent(body) },
              body,
            });
            await response.body.dump();
            latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
            if (response.statusCode !== 200) failures += 1;
          }
        }),
      );
      const answered = process.hrtime.bigint();
      await pool.close();
      const credited = await allApplied();
      const serverCpu = cpuSecondsOf(server.pid) - cpuBefore;
      const toCredit = await creditedLatencies(paymentIds);
      const release = app.services.jobs.find((job) => job.name === 'payments.release')!;
      const settled = (
        await Promise.all(Array.from({ length: senders }, () => drainJob(release, () => new Date(Date.now() + 1_000), PAYMENTS)))
      ).reduce((a, b) => a + b, 0);
      settledTotal += settled;
      const finished = process.hrtime.bigint();
      const webhookSeconds = Number(answered - started) / 1e9;
      const creditedSeconds = Number(credited - started) / 1e9;
      const rate = PAYMENTS / (Number(finished - started) / 1e9);
      latencies.sort((a, b) => a - b);
      console.log(
        `webhooks: ${PAYMENTS} answered in ${webhookSeconds.toFixed(2)} s (${(PAYMENTS / webhookSeconds).toFixed(1)}/s), p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
      );
      console.log(
        `credited: all in ${creditedSeconds.toFixed(2)} s (${(PAYMENTS / creditedSeconds).toFixed(1)}/s), webhook → credited p50 ${toCredit.p50.toFixed(1)} ms, p99 ${toCredit.p99.toFixed(1)} ms (target ≤ 1 s), server CPU ${serverCpu.toFixed(1)} s`,
      );
      console.log(`settled: ${settled} in ${(Number(finished - credited) / 1e9).toFixed(2)} s`);
      console.log(`tipcard: ${rate.toFixed(1)} payments/s (webhook → ledger → settled, ${senders} concurrent senders over HTTP)`);
      const pgbench = execFileSync('pgbench', ['-c', String(senders), '-j', '2', '-T', String(PGBENCH_SECONDS), databaseUrl], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const tps = Number(/tps = ([\d.]+)/.exec(pgbench)?.[1] ?? Number.NaN);
      console.log(`pgbench (TPC-B-like, -c ${senders}, ${PGBENCH_SECONDS} s): ${tps.toFixed(1)} tps`);
      console.log(`ratio: ${(rate / tps).toFixed(2)}${senders === 20 ? ' (target ≥ 0.5, goal 0.8)' : ''}`);
    }
  }

  const problems = await checkLedgerInvariants(app.db);
  console.log(
    problems.length === 0
      ? '\nledger invariants: all hold'
      : `\nledger invariants: ${problems.length} problem(s)\n${problems.slice(0, 10).join('\n')}`,
  );
  if (failures > 0 || settledTotal !== seeded || problems.length > 0) process.exitCode = 1;
} finally {
  await server.stop();
  await app.close();
  await database.close();
  await benchDatabase.drop();
}
