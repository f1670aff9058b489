/**
 * `npm run bench:history`: how the history reads scale with the length of a history. On a fresh PostgreSQL database,
 * two staff members get 10k and 1M history rows over five years; through real HTTP (the server listening, undici),
 * it times the first and the 100th page of `/transactions` (unfiltered and with the type filter) and the overview,
 * and prints p50/p99 for each user and the ratio 1M/10k (target ≤ 1.2). `BENCH_EXPLAIN=1` also prints the plans of
 * the queries behind them. It prints figures; it is not a test and asserts no timing.
 *
 * The seeded rows are PAID or REFUNDED, never HOLD, and link to no payment: settled history that the ledger no
 * longer holds for anyone. The ledger invariants compare only HOLD rows with the ledger's holds, so with no ledger
 * entries seeded they still hold, and the check at the end proves the seeding (and the roll-ups it feeds) left the
 * database as the invariants require.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { Pool } from 'undici';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { accessTokenKeys, signAccessToken } from '../apps/api/src/modules/auth/access-token.ts';
import { checkLedgerInvariants } from '../apps/api/src/modules/transactions/transactions.service.ts';
import { createUserWithPrivateClient } from '../apps/api/src/modules/users/users.service.ts';
import { createBenchDatabase } from './database.ts';

const PORT = Number(process.env.BENCH_PORT ?? 4120);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 1_000);
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const SIZES = [10_000, Number(process.env.BENCH_LARGE ?? 1_000_000)] as const;

const benchDatabase = await createBenchDatabase('tipcard_hist');
const databaseUrl = benchDatabase.url;

const database = await openDatabase({ databaseUrl });
await database.migrate();
const config = loadConfig(
  { NODE_ENV: 'test', LOG_LEVEL: 'silent', WORKER: 'off', DATABASE_URL: databaseUrl },
  { jwtSecret: randomUUID() + randomUUID() },
);
const app = await buildApp(config, { database });
await app.listen({ port: PORT, host: '127.0.0.1' });
const http = new Pool(`http://127.0.0.1:${PORT}`, { connections: 1 });
const seeder = new pg.Client({ connectionString: databaseUrl });
await seeder.connect();

/**
 * `count` rows for the user, newest `now`, spread over five years: 90% PAYIN (5% of them refunded, 1% partly),
 * 7% PAYOUT (3% of them returned), 3% REFERRAL_PAYIN; a guest's message on a fifth and a rating on 60% of PAYINs.
 */
async function seedHistory(userId: string, count: number) {
  await seeder.query(
    `INSERT INTO transactions (user_id, type, status, amount_cents, fee_cents, refunded_cents, description, detail, message, rating, created_at, settled_at, refunded_at)
     SELECT $1, kind, status, amount, fee, refunded, description, detail, message, rating, at,
            CASE WHEN status = 'PAID' THEN at + interval '1 day' END, CASE WHEN status = 'REFUNDED' THEN at + interval '3 days' END
     FROM (
       SELECT *, CASE WHEN status = 'REFUNDED' THEN amount WHEN kind = 'PAYIN' AND pick % 100 = 7 THEN amount / 2 ELSE 0 END AS refunded
       FROM (
         SELECT *, CASE WHEN kind = 'PAYIN' AND pick % 20 = 3 THEN 'REFUNDED' WHEN kind = 'PAYOUT' AND pick % 33 = 5 THEN 'REFUNDED' ELSE 'PAID' END AS status
         FROM (
           SELECT i, pick, at, kind,
                  CASE kind WHEN 'PAYOUT' THEN 2000 + pick % 50000 WHEN 'REFERRAL_PAYIN' THEN 500 ELSE 100 + pick % 4900 END AS amount,
                  CASE kind WHEN 'PAYOUT' THEN 50 WHEN 'REFERRAL_PAYIN' THEN 0 ELSE (100 + pick % 4900) / 20 END AS fee,
                  CASE kind WHEN 'PAYOUT' THEN 'Payout to LV**1234' WHEN 'REFERRAL_PAYIN' THEN 'Referral reward' ELSE 'Tip via Bench Bar' END AS description,
                  CASE kind WHEN 'PAYOUT' THEN '{"kind":"payout","account":"LV**1234"}'::jsonb
                            WHEN 'REFERRAL_PAYIN' THEN '{"kind":"referral","friend":"+371 2*** **12"}'::jsonb
                            ELSE '{"kind":"tip","card":"Bench Bar"}'::jsonb END AS detail,
                  CASE WHEN kind = 'PAYIN' AND pick % 5 = 0 THEN 'Thank you, see you next time!' END AS message,
                  CASE WHEN kind = 'PAYIN' AND pick % 10 < 6 THEN 1 + pick % 5 END AS rating
           FROM (
             SELECT i, pick, now() - (i::double precision / $2) * interval '5 years' - (pick % 600) * interval '1 second' AS at,
                    CASE WHEN pick % 100 < 90 THEN 'PAYIN' WHEN pick % 100 < 97 THEN 'PAYOUT' ELSE 'REFERRAL_PAYIN' END AS kind
             FROM (SELECT i, (hashint4(i) & 2147483647) AS pick FROM generate_series(1, $2::int) AS i) AS numbers
           ) AS dated
         ) AS kinds
       ) AS statuses
     ) AS seeded`,
    [userId, count],
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function get(path: string, token: string) {
  const response = await http.request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
  const body = (await response.body.json()) as { data: { next_cursor?: string | null } };
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${JSON.stringify(body)}`);
  return body.data;
}

/**
 * p50 and p99 in ms of each request, SAMPLES each after 20 warm-up rounds, taken in turns (one of each per round) so
 * that what else the machine does at the time weighs on all of them alike.
 */
async function timeInTurns(requests: { path: string; token: string }[]) {
  const took = requests.map((): number[] => []);
  for (let round = -20; round < SAMPLES; round += 1) {
    for (const [n, { path, token }] of requests.entries()) {
      const started = process.hrtime.bigint();
      await get(path, token);
      if (round >= 0) took[n]!.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return took.map((samples) => {
    samples.sort((x, y) => x - y);
    return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
  });
}

/** The path of the 100th page: the first one's, then the cursor of each page followed 99 times. */
async function hundredthPage(base: string, token: string) {
  let path = base;
  for (let page = 1; page < 100; page += 1) {
    const { next_cursor: cursor } = await get(path, token);
    if (!cursor) throw new Error(`${base}: the history ends before page 100`);
    path = `${base}${base.includes('?') ? '&' : '?'}cursor=${cursor}`;
  }
  return path;
}

/** The plans of the SQL statements the server runs for one request (auto_explain is not assumed installed). */
async function explain(label: string, statements: { text: string; values: unknown[] }[]) {
  for (const statement of statements) {
    const { rows } = await seeder.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, statement.values);
    console.log(`\n-- ${label}\n${rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n')}`);
  }
}

/** The SELECTs the app sends to PostgreSQL (through node-postgres, in this process) while `run` answers one request. */
async function statementsOf(run: () => Promise<unknown>) {
  const seen: { text: string; values: unknown[] }[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === 'string' ? config : config.text;
    if (/^\s*select/i.test(text))
      seen.push({ text, values: (typeof config === 'string' ? values : (config.values ?? values)) ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

try {
  const users: { size: number; token: string; clientId: string }[] = [];
  for (const [n, size] of SIZES.entries()) {
    const { user, client } = await createUserWithPrivateClient(app.db, {
      phone: `+3712900000${n}`,
      promoSource: null,
      referralCode: null,
    });
    const started = Date.now();
    await seedHistory(user.id, size);
    console.log(`seeded ${size.toLocaleString('en')} history rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const token = await signAccessToken(
      accessTokenKeys(config.jwtSecret),
      { userId: user.id, sessionVersion: user.sessionVersion },
      new Date(),
    );
    users.push({ size, token, clientId: client.id });
  }
  // As autovacuum would leave it: statistics, and a visibility map that lets index-only scans skip the heap.
  await seeder.query('VACUUM ANALYZE');
  await seeder.query('CHECKPOINT');

  const cases = new Map<string, { path: string; token: string }[]>();
  for (const { token, clientId } of users) {
    const list = `/api/clients/${clientId}/transactions`;
    const filtered = `${list}?type=PAYIN`;
    const paths: [string, string][] = [
      ['first page', list],
      ['100th page', await hundredthPage(list, token)],
      ['first page, type=PAYIN', filtered],
      ['100th page, type=PAYIN', await hundredthPage(filtered, token)],
      ['overview', `/api/clients/${clientId}/overview`],
    ];
    for (const [label, path] of paths) cases.set(label, [...(cases.get(label) ?? []), { path, token }]);
  }
  for (const [label, requests] of cases) {
    const [small, large] = (await timeInTurns(requests)) as [{ p50: number; p99: number }, { p50: number; p99: number }];
    for (const [n, result] of [small, large].entries()) {
      console.log(
        `${SIZES[n]!.toLocaleString('en').padStart(9)} rows  ${label.padEnd(24)} p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms`,
      );
    }
    console.log(
      `  ratio ${SIZES[1].toLocaleString('en')}/${SIZES[0].toLocaleString('en')}  p50 ${(large.p50 / small.p50).toFixed(2)}  p99 ${(large.p99 / small.p99).toFixed(2)}  (target ≤ 1.2)`,
    );
    if (EXPLAIN) {
      for (const [n, { path, token }] of requests.entries())
        await explain(`${SIZES[n]} rows, ${label}`, await statementsOf(() => get(path, token)));
    }
  }

  const problems = await checkLedgerInvariants(app.db);
  console.log(
    problems.length === 0
      ? 'ledger invariants: all hold'
      : `ledger invariants: ${problems.length} problem(s)\n${problems.slice(0, 10).join('\n')}`,
  );
  if (problems.length > 0) process.exitCode = 1;
} finally {
  await http.close();
  await seeder.end();
  await app.close();
  await database.close();
  await benchDatabase.drop();
}
