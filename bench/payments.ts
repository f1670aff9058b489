/**
 * `npm run bench:payments`: succeeded-payment webhooks → ledger → settled, per second, on PostgreSQL with 20
 * concurrent senders, beside pgbench's built-in TPC-B-like script (`pgbench -c 20`) on the same database in the same
 * run. Prints both rates and their ratio (target ≥ 0.5), then the ledger invariant check. It prints figures; it is
 * not a test and asserts no timing.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../apps/api/src/integrations/sandbox-psp/sandbox-provider.ts';
import { checkLedgerInvariants } from '../apps/api/src/modules/ledger/ledger.service.ts';
import { drainJob } from '../apps/api/src/test/jobs.ts';
import { createUserWithPrivateClient } from '../apps/api/src/modules/users/users.service.ts';
import { sandboxRefOf } from '../apps/api/src/test/sandbox-events.ts';
import { CARD_INPUT } from '../apps/api/src/test/test-app.ts';

const SENDERS = Number(process.env.BENCH_SENDERS ?? 20);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 4_000);
const STAFF = 200;
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? 15);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const name = `tipcard_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const databaseUrl = url.toString();

const database = await openDatabase({ databaseUrl });
await database.migrate();
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WORKER: 'off', HOLD_HOURS: '0', DATABASE_URL: databaseUrl }, { jwtSecret: randomUUID() + randomUUID() });
const app = await buildApp(config, { database });
await app.ready();
const sandbox = app.services.sandbox!;

try {
  process.stdout.write(`seeding ${STAFF} staff members and ${PAYMENTS} open payments… `);
  const cards: string[] = [];
  for (let i = 0; i < STAFF; i += 1) {
    const { user, client } = await createUserWithPrivateClient(app.db, { phone: `+3712${String(i).padStart(7, '0')}`, promoSource: null, referralCode: null });
    const card = await app.services.cards.create(user.id, client.id, { ...CARD_INPUT, public_name: `Staff ${i}` });
    cards.push(card.id);
  }
  const events: string[] = [];
  for (let i = 0; i < PAYMENTS; i += 1) {
    const response = await app.inject({
      method: 'POST',
      url: `/api/public/cards/${cards[i % STAFF]}/payments`,
      headers: { 'idempotency-key': randomUUID() },
      payload: { amount_cents: 100 + (i % 4_900), cover_fee: i % 2 === 0, terms_accepted: true },
      remoteAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    });
    const payment = response.json().data;
    events.push(JSON.stringify({ id: `evt_${randomUUID()}`, type: 'payment.succeeded', provider_ref: sandboxRefOf(payment), payment_id: payment.id, amount_cents: payment.total_cents, currency: 'EUR', created_at: Date.now() }));
  }
  console.log('done');

  // 20 senders deliver signed webhooks through the real HTTP stack; then the settlement job moves every tip to main.
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < events.length) {
        const body = events[next++]!;
        const response = await app.inject({ method: 'POST', url: '/api/webhooks/sandbox', headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: sandbox.signEvent(body) }, payload: body });
        if (response.statusCode !== 200) failures += 1;
      }
    }),
  );
  const credited = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpuBefore);
  console.log(`node CPU during webhooks: ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`);
  const release = app.services.jobs.find((job) => job.name === 'payments.release')!;
  const settled = (await Promise.all(Array.from({ length: SENDERS }, () => drainJob(release, () => new Date(Date.now() + 1_000), PAYMENTS)))).reduce((a, b) => a + b, 0);
  const finished = process.hrtime.bigint();
  const seconds = Number(finished - started) / 1e9;
  const rate = PAYMENTS / seconds;
  console.log(`webhooks credited: ${PAYMENTS - failures} in ${(Number(credited - started) / 1e9).toFixed(2)} s; settled: ${settled} in ${(Number(finished - credited) / 1e9).toFixed(2)} s`);
  console.log(`tipcard: ${rate.toFixed(1)} payments/s (webhook → ledger → settled, ${SENDERS} concurrent senders)`);

  execFileSync('pgbench', ['-i', '-q', '-s', '1', databaseUrl], { stdio: 'ignore' });
  const pgbench = execFileSync('pgbench', ['-c', String(SENDERS), '-j', '2', '-T', String(PGBENCH_SECONDS), databaseUrl], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const tps = Number(/tps = ([\d.]+)/.exec(pgbench)?.[1] ?? Number.NaN);
  console.log(`pgbench (TPC-B-like, -c ${SENDERS}, ${PGBENCH_SECONDS} s): ${tps.toFixed(1)} tps`);
  console.log(`ratio: ${(rate / tps).toFixed(2)} (target ≥ 0.5)`);

  const problems = await checkLedgerInvariants(app.db);
  console.log(problems.length === 0 ? 'ledger invariants: all hold' : `ledger invariants: ${problems.length} problem(s)\n${problems.slice(0, 10).join('\n')}`);
  if (failures > 0 || settled !== PAYMENTS || problems.length > 0) process.exitCode = 1;
} finally {
  await app.close();
  await database.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
