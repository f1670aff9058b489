/**
 * `npm run bench:api`: requests per second of the guest's page (`/payment/{cardId}`, path form), the public card read
 * (`GET /api/public/cards/{id}`) and an authenticated history page (`GET /api/clients/{id}/transactions`), each
 * through real HTTP against the server as `npm start` runs it (after `npm run build`, `RATE_LIMITS=off`, its own
 * PostgreSQL database), beside a bare Fastify hello-world started in the same run and driven the same way. Prints
 * req/s, p50/p99 latency, answers of another status than expected and the ratio to hello-world (targets: ≥ 0.6 for the public reads, ≥ 0.3 for
 * the history page), and the two public reads again as a browser revalidating its copy (If-None-Match, 304). It
 * prints figures; it is not a test and asserts no timing.
 *
 * On a 2-core machine the server (one Node process) and autocannon (this process) get a core each; PostgreSQL shares
 * them. hello-world is measured the same way (its own process, the same connections, duration and headers), so the
 * ratio compares the served path, not the machine. `BENCH_PROFILE_DIR=<dir>` profiles the server (`node --cpu-prof`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import autocannon from 'autocannon';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../apps/api/src/integrations/sandbox-psp/sandbox-provider.ts';
import { checkLedgerInvariants } from '../apps/api/src/modules/transactions/transactions.service.ts';
import { sandboxRefOf } from '../apps/api/src/test/sandbox-events.ts';
import { CARD_INPUT } from '../apps/api/src/test/test-app.ts';
import { createBenchDatabase } from './database.ts';
import { ROOT, startServer, type RunningServer } from './server.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const HISTORY_TIPS = 60;
// What a phone's browser sends: the server compresses for it as it would for a guest.
const BROWSER_HEADERS = { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'en-GB,en;q=0.9' };

if (!existsSync(`${ROOT}apps/web/dist-server/public-server.js`)) {
  console.error('The guest page is rendered by the built web app: run `npm run build` first.');
  process.exit(1);
}

const benchDatabase = await createBenchDatabase('tipcard_api_bench');
const databaseUrl = benchDatabase.url;
const jwtSecret = randomBytes(48).toString('base64url');
const running: RunningServer[] = [];

/** A signed-up staff member with a card and a page of paid tips in the history, made in-process on the database. */
async function seed() {
  const database = await openDatabase({ databaseUrl });
  await database.migrate();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', WORKER: 'off', RATE_LIMITS: 'off', DATABASE_URL: databaseUrl },
    { jwtSecret },
  );
  const app = await buildApp(config, { database });
  await app.ready();
  try {
    const call = async (method: 'GET' | 'POST', path: string, payload?: object, headers: Record<string, string> = {}) => {
      const response = await app.inject({ method, url: path, headers, ...(payload ? { payload } : {}) });
      if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${response.body}`);
      return response.json().data;
    };
    const phone = '+37120000000';
    const registration = await call('POST', '/api/register', { username: phone, age_confirmed: true, terms_accepted: true });
    const [sms] = await call('GET', `/api/dev/outbox?to=${encodeURIComponent(phone)}`);
    const code = /\b(\d{6})\b/.exec(sms.body)![1]!;
    const { jwt } = await call('POST', `/api/register/${registration.uuid}/verify`, { code });
    const auth = { authorization: `Bearer ${jwt}` };
    const clientId = (await call('GET', '/api/me', undefined, auth)).clients[0].id as string;
    const card = await call('POST', `/api/clients/${clientId}/cards`, { ...CARD_INPUT, public_name: 'Anna' }, auth);
    const sandbox = app.services.sandbox!;
    for (let i = 0; i < HISTORY_TIPS; i += 1) {
      const payment = await call(
        'POST',
        `/api/public/cards/${card.id}/payments`,
        { amount_cents: 300 + i * 10, cover_fee: i % 2 === 0, terms_accepted: true, message: `Thanks ${i}` },
        { 'idempotency-key': randomUUID() },
      );
      const event = JSON.stringify({
        id: `evt_${randomUUID()}`,
        type: 'payment.succeeded',
        provider_ref: sandboxRefOf(payment),
        payment_id: payment.id,
        amount_cents: payment.total_cents,
        currency: 'EUR',
        created_at: Date.now(),
      });
      await call('POST', '/api/webhooks/sandbox', JSON.parse(event), { [SANDBOX_SIGNATURE_HEADER]: sandbox.signEvent(event) });
    }
    return { cardId: card.id as string, clientId, jwt: jwt as string };
  } finally {
    await app.close();
    await database.close();
  }
}

interface Figures {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  /** Answers of another status class than expected (a run answered with 429s measures nothing). */
  unexpected: number;
  errors: number;
}

/** Drives one path; `expect: '3xx'` for a revalidation that should be answered 304, every other answer is counted. */
async function drive(
  label: string,
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
  expect: '2xx' | '3xx' = '2xx',
): Promise<Figures> {
  const target = { url: `${baseUrl}${path}`, connections: CONNECTIONS, headers: { ...BROWSER_HEADERS, ...headers } };
  await autocannon({ ...target, duration: 2 }); // warm-up: JIT, connection pools, the first render
  const result = await autocannon({ ...target, duration: SECONDS });
  const answered = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    label,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    unexpected: answered - result[expect],
    errors: result.errors + result.timeouts,
  };
}

function print(rows: { figures: Figures; target?: number }[], hello: Figures) {
  const pad = (text: string, width: number) => text.padEnd(width);
  console.log(
    `\n${pad('path', 46)}${pad('req/s', 10)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('other', 9)}${pad('errors', 8)}ratio`,
  );
  for (const { figures, target } of [{ figures: hello }, ...rows]) {
    const ratio = figures === hello ? '1.00' : `${(figures.rps / hello.rps).toFixed(2)} (target ≥ ${target})`;
    console.log(
      `${pad(figures.label, 46)}${pad(figures.rps.toFixed(0), 10)}${pad(String(figures.p50), 8)}${pad(String(figures.p99), 8)}${pad(String(figures.unexpected), 9)}${pad(String(figures.errors), 8)}${ratio}`,
    );
  }
}

try {
  process.stdout.write(`seeding a staff member with a card and ${HISTORY_TIPS} paid tips… `);
  const { cardId, clientId, jwt } = await seed();
  console.log('done');

  const helloWorld = await startServer({}, { script: 'bench/hello-world.ts', readyPath: '/' });
  running.push(helloWorld);
  const server = await startServer({ DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret, RATE_LIMITS: 'off', WORKER: 'off' });
  running.push(server);
  console.log(
    `${CONNECTIONS} connections, ${SECONDS} s per path after a 2 s warm-up; server: RATE_LIMITS=off, LOG_LEVEL=warn, WORKER=off`,
  );

  const hello = await drive('hello-world (bare Fastify)', helloWorld.baseUrl, '/');
  // A guest's browser asking again within a visit sends the page's tag: measured apart, answered 304.
  const tag = async (path: string) =>
    String((await fetch(`${server.baseUrl}${path}`, { headers: BROWSER_HEADERS })).headers.get('etag'));
  const page = `/payment/${cardId}`;
  const card = `/api/public/cards/${cardId}`;
  const rows = [
    { figures: await drive(`/payment/{cardId}`, server.baseUrl, page), target: 0.6 },
    {
      figures: await drive(
        '/payment/{cardId} revalidated (304)',
        server.baseUrl,
        page,
        { 'if-none-match': await tag(page) },
        '3xx',
      ),
      target: 0.6,
    },
    { figures: await drive('GET /api/public/cards/{id}', server.baseUrl, card), target: 0.6 },
    {
      figures: await drive(
        'GET /api/public/cards/{id} revalidated (304)',
        server.baseUrl,
        card,
        { 'if-none-match': await tag(card) },
        '3xx',
      ),
      target: 0.6,
    },
    {
      figures: await drive('GET /api/clients/{id}/transactions', server.baseUrl, `/api/clients/${clientId}/transactions`, {
        authorization: `Bearer ${jwt}`,
      }),
      target: 0.3,
    },
  ];
  print(rows, hello);
  const answered = rows.every(({ figures }) => figures.unexpected === 0 && figures.errors === 0);
  if (!answered)
    console.log('\nSome answers were not what the path answers (2xx, or 304 when revalidated): those figures do not measure it.');

  const database = await openDatabase({ databaseUrl });
  const problems = await checkLedgerInvariants(database.db);
  await database.close();
  console.log(
    problems.length === 0
      ? 'ledger invariants: all hold'
      : `ledger invariants: ${problems.length} problem(s)\n${problems.slice(0, 10).join('\n')}`,
  );
  if (!answered || problems.length > 0) process.exitCode = 1;
} finally {
  await Promise.all(running.map((subject) => subject.stop()));
  await benchDatabase.drop();
}
