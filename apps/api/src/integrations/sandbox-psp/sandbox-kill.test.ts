import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { kill, startServer, until, type Server } from '../../test/child-server.ts';
import { CARD_INPUT, uniquePhone } from '../../test/test-app.ts';

/**
 * The real server killed with SIGKILL right after a burst of paid tips, then started again on the same data: every
 * tip the sandbox charged must end up credited once, from the sandbox's durable deliveries alone.
 */
const TIPS = 20;
const JWT_SECRET = 'kill-test-secret-that-is-long-enough-for-hs256';

async function call(
  server: Server,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json()) as { data: any };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

async function staffWithCard(server: Server) {
  const phone = uniquePhone();
  const { uuid } = await call(server, 'POST', '/api/register', {
    body: { username: phone, age_confirmed: true, terms_accepted: true },
  });
  const [message] = await call(server, 'GET', `/api/dev/outbox?to=${encodeURIComponent(phone)}`);
  const code = /\b(\d{6})\b/.exec(message.body)![1];
  const { jwt } = await call(server, 'POST', `/api/register/${uuid}/verify`, { body: { code } });
  const clientId = (await call(server, 'GET', '/api/me', { token: jwt })).clients[0].id as string;
  const card = await call(server, 'POST', `/api/clients/${clientId}/cards`, { token: jwt, body: CARD_INPUT });
  return { jwt, clientId, cardId: card.id as string };
}

/** A guest opens a tip and pays it with the succeeding test card on the sandbox's hosted page. */
async function payTip(server: Server, cardId: string, cents: number) {
  const payment = await call(server, 'POST', `/api/public/cards/${cardId}/payments`, {
    headers: { 'idempotency-key': randomUUID() },
    body: { amount_cents: cents, cover_fee: false, terms_accepted: true },
  });
  const paid = await fetch(payment.checkout_url.replace(/^https?:\/\/[^/]+/, server.base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'method=card&card_number=4242424242424242',
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
  return { id: payment.id as string, net: (payment.amount_cents - payment.fee_cents) as number };
}

async function killAndRestart(label: string, env: Record<string, string>) {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'tipcard-kill-'));
  const serverEnv = {
    DATA_DIR: dataDir,
    JWT_SECRET,
    WORKER: 'inline',
    SANDBOX_WEBHOOK_DELAY_MS: '2000',
    LOG_LEVEL: 'warn',
    ...env,
  };
  let server = await startServer(serverEnv);
  try {
    const staff = await staffWithCard(server);
    const tips = await Promise.all(Array.from({ length: TIPS }, (_, i) => payTip(server, staff.cardId, 300 + 20 * i)));
    const statusesOf = () =>
      Promise.all(tips.map(async (tip) => (await call(server, 'GET', `/api/public/payments/${tip.id}`)).status as string));
    // Read just before the kill, to show the kill lands while deliveries are still owed.
    const pendingAtKill = (await statusesOf()).filter((status) => status === 'pending').length;
    await kill(server, 'SIGKILL');

    server = await startServer(serverEnv);
    const expectedHold = tips.reduce((sum, tip) => sum + tip.net, 0);
    let credited = 0;
    let hold = 0;
    await until('every paid tip is credited', 60_000, async () => {
      credited = (await statusesOf()).filter((status) => status === 'succeeded').length;
      const account = await call(server, 'GET', `/api/clients/${staff.clientId}/account`, { token: staff.jwt });
      hold = account.account_balances.find((balance: { type: string }) => balance.type === 'hold').balance;
      return credited === TIPS && hold === expectedHold;
    }).catch((error) => {
      throw new Error(
        `${error.message}: paid ${TIPS}, pending at the kill ${pendingAtKill}, credited ${credited}, hold ${hold} of ${expectedHold}\n${server.output()}`,
      );
    });
    console.log(
      `kill test (${label}): paid ${TIPS}, pending at the kill ${pendingAtKill}, credited ${credited}, hold ${hold} = ${expectedHold}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(hold).toBe(expectedHold);
  } finally {
    await kill(server, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('a server killed right after guests paid', () => {
  it('credits every paid tip after a restart (embedded PGlite)', () => killAndRestart('PGlite', {}), 240_000);

  it.runIf(process.env.DATABASE_URL)(
    'credits every paid tip after a restart (PostgreSQL)',
    async () => {
      const adminUrl = process.env.DATABASE_URL!;
      const name = `tipcard_kill_${randomUUID().replaceAll('-', '')}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        await killAndRestart('PostgreSQL', { DATABASE_URL: url.toString() });
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
    240_000,
  );
});
