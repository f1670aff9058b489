/**
 * `npm run bench:live [-- --kill]` (issue 30, decision 0041): two API instances and a worker on one PostgreSQL; a
 * staff member's app listens on instance B while N tips (BENCH_TIPS, default 500) are confirmed by signed sandbox
 * webhooks sent to instance A. Prints p50/p95/p99 from the webhook sent (its answer comes after the commit that
 * announces the tip) to the event received on the stream, and how many tips were never announced. With --kill,
 * instance B is killed with SIGKILL half-way and the client reconnects to A from its last event id. It prints
 * figures and asserts no timing.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import type { LiveEvent } from '@tipcard/shared/live/schemas';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { systemClock } from '../apps/api/src/lib/clock.ts';
import { SANDBOX_SIGNATURE_HEADER } from '../apps/api/src/integrations/sandbox-psp/sandbox-provider.ts';
import { sandboxRefOf } from '../apps/api/src/test/sandbox-events.ts';
import { createTestApp, signUpWithCard } from '../apps/api/src/test/test-app.ts';
import { createSseParser } from '../apps/web/src/app/session/live-events.ts';
import { createBenchDatabase } from './database.ts';
import { ROOT, startServer } from './server.ts';

const { values } = parseArgs({ options: { kill: { type: 'boolean', default: false } } });
const TIPS = Number(process.env.BENCH_TIPS ?? 500);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 8);

const benchDatabase = await createBenchDatabase('tipcard_bench_live');
const jwtSecret = randomUUID() + randomUUID();
const database = await openDatabase({ databaseUrl: benchDatabase.url });
await database.migrate();
// This process's own app seeds the staff member and the open payments and signs the provider's events.
const seeder = await createTestApp({
  // The real clock: the servers check the staff member's token against theirs.
  overrides: { database, clock: systemClock },
  config: { jwtSecret },
  // One staff member's card takes every tip: above the per-card card-testing limit, which is not measured.
  env: { CHECKOUTS_GLOBAL_PER_MINUTE: '1000000', CHECKOUTS_PER_CARD_PER_10_MINUTES: '100000' },
});
const serverEnv = { DATABASE_URL: benchDatabase.url, JWT_SECRET: jwtSecret, WORKER: 'off', HOLD_HOURS: '0' };
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const a = await startServer(serverEnv);
const b = await startServer(serverEnv);
const worker = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/jobs/worker-main.ts'], {
  cwd: ROOT,
  env: { ...process.env, ...serverEnv, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
try {
  const staff = await signUpWithCard(seeder);
  process.stdout.write(`opening ${TIPS} payments… `);
  const events: { paymentId: string; body: string }[] = [];
  for (let i = 0; i < TIPS; i += 1) {
    const opened = await seeder.app.inject({
      method: 'POST',
      url: `/api/public/cards/${staff.cardId}/payments`,
      headers: { 'idempotency-key': randomUUID() },
      payload: { amount_cents: 100 + (i % 4_900), cover_fee: false, terms_accepted: true },
      remoteAddress: `10.0.${(i >> 8) & 255}.${i & 255}`,
    });
    const payment = opened.json().data;
    const body = JSON.stringify({
      id: `evt_${randomUUID()}`,
      type: 'payment.succeeded',
      provider_ref: sandboxRefOf(payment),
      payment_id: payment.id,
      amount_cents: payment.total_cents,
      currency: 'EUR',
      created_at: Date.now(),
    });
    events.push({ paymentId: payment.id, body });
  }
  console.log('done');

  // The listening app: one stream, reconnecting from its last id, to B and, once B is gone, to A.
  const received = new Map<string, number>();
  let duplicates = 0;
  let lastId: string | undefined;
  let listenOn = b.baseUrl;
  let reconnects = 0;
  const listener = new AbortController();
  let streamOpen!: () => void;
  let streamRefused!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    streamOpen = resolve;
    streamRefused = reject;
  });
  const parse = createSseParser((event: LiveEvent, id) => {
    lastId = id;
    if (event.type !== 'credit' || !event.payment_id) return;
    if (received.has(event.payment_id)) duplicates += 1;
    else received.set(event.payment_id, performance.now());
  });
  const listening = (async () => {
    while (!listener.signal.aborted) {
      try {
        const response = await fetch(`${listenOn}/api/clients/${staff.clientId}/events`, {
          headers: { authorization: `Bearer ${staff.jwt}`, ...(lastId ? { 'last-event-id': lastId } : {}) },
          signal: listener.signal,
        });
        if (response.status >= 400 && response.status < 500) {
          // Refused, not down: retrying would only wait for ever.
          streamRefused(new Error(`the stream answered ${response.status}: ${await response.text()}`));
          break;
        }
        if (response.status !== 200) throw new Error(`stream answered ${response.status}`);
        streamOpen();
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          parse(value);
        }
      } catch {
        // B killed, or not up yet: the app's backoff, shortened; the other instance.
      }
      if (listener.signal.aborted) break;
      reconnects += 1;
      listenOn = a.baseUrl;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  await opened;

  const sentAt = new Map<string, number>();
  const pool = new Pool(a.baseUrl, { connections: SENDERS });
  let next = 0;
  let refused = 0;
  let killedAt: number | undefined;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < events.length) {
        const index = next++;
        if (values.kill && index === Math.floor(TIPS / 2) && killedAt === undefined) {
          killedAt = performance.now();
          process.kill(b.pid, 'SIGKILL');
        }
        const { paymentId, body } = events[index]!;
        sentAt.set(paymentId, performance.now());
        const response = await pool.request({
          method: 'POST',
          path: '/api/webhooks/sandbox',
          headers: {
            'content-type': 'application/json',
            [SANDBOX_SIGNATURE_HEADER]: seeder.app.services.sandbox!.signEvent(body),
          },
          body,
        });
        await response.body.dump();
        if (response.statusCode !== 200) refused += 1;
      }
    }),
  );
  await pool.close();
  // Until every tip is announced, or 10 s after the last webhook.
  const waitUntil = performance.now() + 10_000;
  while (received.size < TIPS && performance.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 50));
  listener.abort();
  await listening;

  const latencies = [...received].map(([id, at]) => at - sentAt.get(id)!).sort((x, y) => x - y);
  const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(1)} ms`);
  console.log(
    `\n${TIPS} tips, webhooks to A, stream on ${values.kill ? 'B, killed -9 half-way, then A' : 'B'} (${SENDERS} senders)`,
  );
  console.log(
    `webhook sent → event received: p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, p99 ${ms(percentile(latencies, 99))}, max ${ms(latencies.at(-1))}`,
  );
  console.log(
    `announced ${received.size}, missed ${TIPS - received.size}, duplicates ${duplicates}, webhooks refused ${refused}, stream reconnects ${reconnects}`,
  );
} finally {
  worker.kill('SIGTERM');
  await Promise.allSettled([a.stop(), values.kill ? Promise.resolve() : b.stop()]);
  await seeder.close();
  await database.close();
  await benchDatabase.drop();
}
