import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { createSandboxRail, SANDBOX_FAILING_IBAN } from './payout-rail.ts';
import { codeFor, fundMain, PAYOUT_TEST_ENV, runPayoutWork, SEPA_METHOD, UK_METHOD } from './payouts.test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    env: PAYOUT_TEST_ENV,
  });
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
});

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;
const rows = async (query: ReturnType<typeof sql>) =>
  (await t.app.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };

async function staffWith(cents: number) {
  const owner = await signUpWithCard(t);
  if (cents > 0) await fundMain(t, owner, cents);
  return owner;
}
async function addMethod(owner: Owner, body: object = SEPA_METHOD) {
  return t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt, payload: body });
}
async function request(owner: Owner, payload: object, key: string = crypto.randomUUID()) {
  return t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/payouts`,
    token: owner.jwt,
    headers: { 'idempotency-key': key },
    payload,
  });
}
const confirm = (owner: Owner, payoutId: string, code: string) =>
  t.call({ method: 'POST', url: `/api/payouts/${payoutId}/confirm`, token: owner.jwt, payload: { code } });
const worker = () =>
  runPayoutWork(
    { db: t.app.db, log: t.app.log, rail: createSandboxRail(t.app.db, 0), debtor: t.app.config.payouts.debtor },
    t.clock.now(),
  );

async function requestAndConfirm(owner: Owner, methodId: string, cents: number) {
  const created = await request(owner, { amount_cents: cents, method_id: methodId });
  if (created.status !== 201) return created;
  return confirm(owner, created.body.data.id, await codeFor(t, owner.phone, created.body.data.id));
}

describe('payout methods', () => {
  it('adds SEPA and UK methods, answers them masked, and makes the first one the default', async () => {
    const owner = await staffWith(0);
    const sepa = await addMethod(owner);
    expect(sepa.status).toBe(201);
    expect(sepa.body.data).toMatchObject({
      kind: 'sepa',
      holder: 'Müller',
      masked_account: 'DE•• •••• •••• •••• •••• 3000',
      bic: 'COBADEFFXXX',
      is_default: true,
    });
    const uk = await addMethod(owner, UK_METHOD);
    expect(uk.body.data).toMatchObject({ kind: 'uk', masked_account: '•••• 6819 (60-16-13)', bic: null, is_default: false });
    const listed = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt });
    expect(listed.body.data.map((method: { kind: string }) => method.kind)).toEqual(['sepa', 'uk']);
    expect(JSON.stringify(listed.body)).not.toContain('0532013000');
    expect(JSON.stringify(listed.body)).not.toContain('31926819');

    const made = await t.call({ method: 'POST', url: `/api/payout-methods/${uk.body.data.id}/default`, token: owner.jwt });
    expect(made.body.data.is_default).toBe(true);
    const removed = await t.call({ method: 'DELETE', url: `/api/payout-methods/${uk.body.data.id}`, token: owner.jwt });
    expect(removed.status).toBe(200);
    const after = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt });
    expect(after.body.data).toEqual([expect.objectContaining({ id: sepa.body.data.id, is_default: true })]);
  });

  it('answers field-level errors and stores nothing for bad details', async () => {
    const owner = await staffWith(0);
    const cases: [object, Record<string, string[]>][] = [
      [{ ...SEPA_METHOD, iban: 'DE89370400440532013001' }, { iban: ['Enter valid data'] }],
      [{ ...SEPA_METHOD, iban: 'TR330006100519786457841326', bic: 'TGBATRIS' }, { iban: ['Enter valid data'] }],
      [{ ...SEPA_METHOD, bic: 'HABALV22' }, { bic: ['Enter valid data'] }],
      [{ ...SEPA_METHOD, bic: 'nope' }, { bic: ['Enter valid data'] }],
      [{ ...SEPA_METHOD, holder_last_name: '  ' }, { holder_last_name: ['This value should not be blank.'] }],
      [{ ...UK_METHOD, account_number: '1234567' }, { account_number: ['Enter valid data'] }],
      [{ ...UK_METHOD, sort_code: '60-16-1' }, { sort_code: ['Enter valid data'] }],
      [{ kind: 'iban' }, { kind: ['Enter valid data'] }],
    ];
    for (const [body, errors] of cases) {
      const answer = await addMethod(owner, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.body.validation_errors).toMatchObject(errors);
    }
    const listed = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt });
    expect(listed.body.data).toEqual([]);
  });

  it("hides other users' methods and clients (404), also for malformed ids", async () => {
    const owner = await staffWith(0);
    const other = await staffWith(0);
    const method = (await addMethod(owner)).body.data;
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payout-methods`, token: other.jwt })).status).toBe(
      404,
    );
    expect(
      (
        await t.call({
          method: 'POST',
          url: `/api/clients/${owner.clientId}/payout-methods`,
          token: other.jwt,
          payload: SEPA_METHOD,
        })
      ).status,
    ).toBe(404);
    expect((await t.call({ method: 'DELETE', url: `/api/payout-methods/${method.id}`, token: other.jwt })).status).toBe(404);
    expect((await t.call({ method: 'POST', url: `/api/payout-methods/${method.id}/default`, token: other.jwt })).status).toBe(
      404,
    );
    expect((await t.call({ method: 'DELETE', url: '/api/payout-methods/not-a-uuid', token: owner.jwt })).status).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payout-methods` })).status).toBe(401);
  });

  it('records every method change after verification and texts the phone on file; before it, neither', async () => {
    const owner = await staffWith(0);
    const outbox = async () =>
      (
        (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(owner.phone)}` })).body.data as {
          body: string;
        }[]
      ).filter((m) => m.body.includes('payout account was changed'));
    const events = async () =>
      (
        await rows(
          sql`SELECT action, masked_account FROM payout_method_events WHERE user_id = ${owner.userId} ORDER BY created_at, action`,
        )
      ).rows;
    const first = (await addMethod(owner)).body.data;
    expect(await outbox()).toEqual([]);
    expect(await events()).toEqual([]);

    // The operator approved this user's identity (the review CLI's end state).
    await rows(
      sql`INSERT INTO verifications (user_id, kind, status, details, reviewed_at) VALUES (${owner.userId}, 'person', 'approved', '{}'::jsonb, now())`,
    );
    const second = (await addMethod(owner, UK_METHOD)).body.data;
    await t.call({ method: 'POST', url: `/api/payout-methods/${second.id}/default`, token: owner.jwt });
    await t.call({ method: 'DELETE', url: `/api/payout-methods/${first.id}`, token: owner.jwt });
    expect((await events()).map((event) => event.action).sort()).toEqual(['added', 'deleted', 'made_default']);
    const texts = (await outbox()).map((m) => m.body).join('\n');
    expect(texts).toContain(`${second.masked_account} was added`);
    expect(texts).toContain(`withdrawals now go to ${second.masked_account}`);
    expect(texts).toContain(`${first.masked_account} was removed`);
  });

  it('refuses to delete a method a withdrawal is waiting on', async () => {
    const owner = await staffWith(1000);
    const method = (await addMethod(owner)).body.data;
    expect((await request(owner, { amount_cents: 300, method_id: method.id })).status).toBe(201);
    const refused = await t.call({ method: 'DELETE', url: `/api/payout-methods/${method.id}`, token: owner.jwt });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('payout_method_in_use');
  });
});

describe('withdrawals', () => {
  it('applies the amount rules and stores nothing for bad input', async () => {
    const owner = await staffWith(1000);
    const other = await staffWith(0);
    const method = (await addMethod(owner)).body.data;
    const otherMethod = (await addMethod(other)).body.data;
    const expectField = async (payload: object, field: string, message: string, headers?: Record<string, string>) => {
      const answer = headers
        ? await t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/payouts`, token: owner.jwt, headers, payload })
        : await request(owner, payload);
      expect(answer.status, JSON.stringify(payload)).toBe(422);
      expect(answer.body.validation_errors[field]).toEqual([message]);
      expect(answer.body.errors[0]).toBe(message);
    };
    await expectField({ amount_cents: 299, method_id: method.id }, 'amount_cents', 'Minimum withdrawal amount 3 EUR');
    await expectField({ amount_cents: 300.5, method_id: method.id }, 'amount_cents', 'Wrong amount');
    await expectField({ amount_cents: '10', method_id: method.id }, 'amount_cents', 'Wrong amount');
    await expectField({ amount_cents: -500, method_id: method.id }, 'amount_cents', 'Wrong amount');
    await expectField({ amount_cents: 801, method_id: method.id }, 'amount_cents', 'Insufficient balance');
    await expectField({ amount_cents: 300, method_id: otherMethod.id }, 'method_id', 'Enter valid data');
    await expectField({ amount_cents: 300, method_id: 'x' }, 'method_id', 'Enter valid data');
    await expectField({ amount_cents: 300, method_id: method.id }, 'idempotency-key', 'Enter valid data', {
      'idempotency-key': 'short',
    });
    // 800 + the 2 EUR fee is exactly the balance.
    expect((await request(owner, { amount_cents: 800, method_id: method.id })).status).toBe(201);
    expect((await request(other, { amount_cents: 300, method_id: otherMethod.id })).body.code).toBe('insufficient_balance');
    expect((await rows(sql`SELECT count(*)::int AS n FROM payouts WHERE user_id = ${owner.userId}`)).rows[0]!.n).toBe(1);
    const terms = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payouts/terms`, token: owner.jwt });
    expect(terms.body.data).toMatchObject({
      min_amount_cents: 300,
      fee_cents: 200,
      main_balance_cents: 1000,
      max_amount_cents: 800,
      expected_arrival: '2026-11-23',
    });
  });

  it('texts a code bound to the payout, moves the money on confirmation and pays it out through the sandbox', async () => {
    const owner = await staffWith(2000);
    const method = (await addMethod(owner)).body.data;
    const created = await request(owner, { amount_cents: 1000, method_id: method.id });
    expect(created.status).toBe(201);
    const payout = created.body.data;
    expect(payout).toMatchObject({
      status: 'awaiting_confirmation',
      amount_cents: 1000,
      fee_cents: 200,
      method: { masked_account: 'DE•• •••• •••• •••• •••• 3000' },
      resend_after_seconds: 60,
    });
    const sms = (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(owner.phone)}` })).body.data[0].body;
    expect(sms).toContain('€10.00');
    expect(sms).toContain('DE•• •••• •••• •••• •••• 3000');
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 2000 });

    const wrong = await confirm(owner, payout.id, '000000' === (await codeFor(t, owner.phone, payout.id)) ? '111111' : '000000');
    expect(wrong.status).toBe(403);
    expect(wrong.body.errors).toEqual(['Wrong confirmation code']);
    const confirmed = await confirm(owner, payout.id, await codeFor(t, owner.phone, payout.id));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data).toMatchObject({ status: 'in_flight', code_expires_at: null, expected_arrival: '2026-11-23' });
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 800 });
    const history = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/transactions?type=PAYOUT`,
      token: owner.jwt,
    });
    expect(history.body.data.items).toEqual([
      expect.objectContaining({ type: 'PAYOUT', status: 'HOLD', amount_cents: 1000, fee_cents: 200 }),
    ]);

    expect(await worker()).toMatchObject({ submitted: 1, paid: 1 });
    const paid = await t.call({ method: 'GET', url: `/api/payouts/${payout.id}`, token: owner.jwt });
    expect(paid.body.data).toMatchObject({ status: 'paid' });
    const list = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payouts`, token: owner.jwt });
    expect(list.body.data.map((item: { id: string }) => item.id)).toEqual([payout.id]);
    const settled = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/transactions?type=PAYOUT`,
      token: owner.jwt,
    });
    expect(settled.body.data.items[0].status).toBe('PAID');
    // Confirming again changes nothing and answers the same payout.
    const again = await confirm(owner, payout.id, await codeFor(t, owner.phone, payout.id));
    expect(again.body.data.status).toBe('paid');
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 800 });
    // Another user sees none of it.
    const stranger = await staffWith(0);
    expect((await t.call({ method: 'GET', url: `/api/payouts/${payout.id}`, token: stranger.jwt })).status).toBe(404);
    expect((await confirm(stranger, payout.id, '123456')).status).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payouts`, token: stranger.jwt })).status).toBe(
      404,
    );
  });

  it('returns a failed payout: amount and fee back on main, the transaction REFUNDED, the bank’s reason named', async () => {
    const owner = await staffWith(1000);
    const method = (await addMethod(owner, { ...SEPA_METHOD, iban: SANDBOX_FAILING_IBAN, bic: 'HABALV22' })).body.data;
    const confirmed = await requestAndConfirm(owner, method.id, 500);
    expect(confirmed.body.data.status).toBe('in_flight');
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 300 });
    expect(await worker()).toMatchObject({ returned: 1 });
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 1000 });
    const history = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/transactions?type=PAYOUT`,
      token: owner.jwt,
    });
    expect(history.body.data.items[0].status).toBe('REFUNDED');
    // The sandbox bank answers "AC04 Closed account …": the answer names the code, which the app says in words.
    const returned = (await t.call({ method: 'GET', url: `/api/payouts/${confirmed.body.data.id}`, token: owner.jwt })).body.data;
    expect(returned).toMatchObject({ status: 'returned', return_reason: 'AC04' });
    const list = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payouts`, token: owner.jwt });
    expect(list.body.data[0]).toMatchObject({ id: confirmed.body.data.id, return_reason: 'AC04' });
  });

  it('caps withdrawal requests per user and hour, since each one texts a code', async () => {
    const capped = await createTestApp({ env: { FEE_PERCENT: '0', HOLD_HOURS: '0', PAYOUT_REQUESTS_PER_HOUR: '3' } });
    try {
      const owner = await signUpWithCard(capped);
      await fundMain(capped, owner, 5_000);
      const method = await capped.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/payout-methods`,
        token: owner.jwt,
        payload: SEPA_METHOD,
      });
      let token = owner.jwt;
      const ask = () =>
        capped.call({
          method: 'POST',
          url: `/api/clients/${owner.clientId}/payouts`,
          token,
          headers: { 'idempotency-key': crypto.randomUUID() },
          payload: { amount_cents: 300, method_id: method.body.data.id },
        });
      expect([(await ask()).status, (await ask()).status, (await ask()).status]).toEqual([201, 201, 201]);
      expect((await ask()).body).toMatchObject({ code: 'too_many_requests', errors: ['Too many requests'] });
      capped.clock.advance(3_600_001);
      token = (await capped.call({ method: 'POST', url: '/api/refresh-token', payload: { refreshToken: owner.refreshToken } }))
        .body.data.jwt;
      expect((await ask()).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  it('holds the hourly cap against 100 concurrent requests: exactly 20 payouts and 20 texts', async () => {
    const capped = await createTestApp({ env: { FEE_PERCENT: '0', HOLD_HOURS: '0', PAYOUT_REQUESTS_PER_HOUR: '20' } });
    try {
      const owner = await signUpWithCard(capped);
      await fundMain(capped, owner, 50_000);
      const method = await capped.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/payout-methods`,
        token: owner.jwt,
        payload: SEPA_METHOD,
      });
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          capped.call({
            method: 'POST',
            url: `/api/clients/${owner.clientId}/payouts`,
            token: owner.jwt,
            headers: { 'idempotency-key': crypto.randomUUID() },
            payload: { amount_cents: 300, method_id: method.body.data.id },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(20);
      expect(statuses.filter((status) => status === 429)).toHaveLength(80);
      const stored = await capped.app.db.execute(sql`select count(*)::int as n from payouts where user_id = ${owner.userId}`);
      expect((stored as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(20);
      const outbox = await capped.call({ method: 'GET', url: `/api/dev/outbox?limit=200&to=${encodeURIComponent(owner.phone)}` });
      expect(outbox.body.data.filter((message: { body: string }) => message.body.includes('withdrawal'))).toHaveLength(20);
    } finally {
      await capped.close();
    }
  });

  it('replays the same Idempotency-Key and refuses it with another body', async () => {
    const owner = await staffWith(1000);
    const method = (await addMethod(owner)).body.data;
    const key = crypto.randomUUID();
    const first = await request(owner, { amount_cents: 300, method_id: method.id }, key);
    const second = await request(owner, { amount_cents: 300, method_id: method.id }, key);
    expect(second.body.data.id).toBe(first.body.data.id);
    const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(owner.phone)}` });
    expect(outbox.body.data.filter((message: { body: string }) => message.body.includes('withdrawal'))).toHaveLength(1);
    const reused = await request(owner, { amount_cents: 400, method_id: method.id }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
  });

  it('kills the code after 5 wrong tries, and after 10 minutes', async () => {
    const owner = await staffWith(2000);
    const method = (await addMethod(owner)).body.data;
    const payout = (await request(owner, { amount_cents: 300, method_id: method.id })).body.data;
    const code = await codeFor(t, owner.phone, payout.id);
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let attempt = 1; attempt <= 4; attempt += 1) expect((await confirm(owner, payout.id, wrongCode)).status).toBe(403);
    const fifth = await confirm(owner, payout.id, wrongCode);
    expect(fifth.status).toBe(429);
    expect(fifth.body.errors).toEqual(['Too many attempts to enter, try later']);
    expect((await confirm(owner, payout.id, code)).status).toBe(429);

    const late = (await request(owner, { amount_cents: 300, method_id: method.id })).body.data;
    t.clock.advance(10 * 60_000);
    const expired = await confirm(owner, late.id, await codeFor(t, owner.phone, late.id));
    expect(expired.status).toBe(403);
    expect((await t.call({ method: 'GET', url: `/api/payouts/${late.id}`, token: owner.jwt })).body.data.status).toBe('expired');
    expect((await worker()).expired).toBeGreaterThanOrEqual(1);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 2000 });
  });

  it('resends only after 60 seconds, and the new code replaces the old one', async () => {
    const owner = await staffWith(1000);
    const method = (await addMethod(owner)).body.data;
    const payout = (await request(owner, { amount_cents: 300, method_id: method.id })).body.data;
    const oldCode = await codeFor(t, owner.phone, payout.id);
    t.clock.advance(20_000);
    const early = await t.call({ method: 'POST', url: `/api/payouts/${payout.id}/resend`, token: owner.jwt });
    expect(early.status).toBe(429);
    expect(early.body.errors).toEqual(['Wait 40 seconds']);
    expect(early.headers['retry-after']).toBe('40');
    t.clock.advance(40_000);
    const resent = await t.call({ method: 'POST', url: `/api/payouts/${payout.id}/resend`, token: owner.jwt });
    expect(resent.status).toBe(200);
    const newCode = await codeFor(t, owner.phone, payout.id);
    if (newCode !== oldCode) expect((await confirm(owner, payout.id, oldCode)).status).toBe(403);
    expect((await confirm(owner, payout.id, newCode)).body.data.status).toBe('in_flight');
    const after = await t.call({ method: 'POST', url: `/api/payouts/${payout.id}/resend`, token: owner.jwt });
    expect(after.status).toBe(422);
  });

  it('answers 451 once received tips reach the verification limit', async () => {
    const owner = await staffWith(100_000);
    const method = (await addMethod(owner)).body.data;
    const answer = await request(owner, { amount_cents: 300, method_id: method.id });
    expect(answer.status).toBe(451);
    expect(answer.body.code).toBe('verification_required');
  });

  it('blocks withdrawals while a chargeback debt is open', async () => {
    const owner = await staffWith(1000);
    const method = (await addMethod(owner)).body.data;
    await t.app.db.transaction(async (tx) => {
      const { postEntry } = await import('../ledger/ledger.service.ts');
      await postEntry(tx, {
        kind: 'test_debt',
        reference: `test:${owner.userId}:debt`,
        postings: [
          { account: { userId: owner.userId, kind: 'debt' }, amountCents: -100 },
          { account: { platform: 'psp_clearing' }, amountCents: 100 },
        ],
      });
    });
    expect((await request(owner, { amount_cents: 300, method_id: method.id })).body.code).toBe('insufficient_balance');
  });

  it('200 concurrent requests with confirmations of 3 EUR against 50 EUR: exactly 10 go through', async () => {
    const owner = await staffWith(5000);
    const method = (await addMethod(owner)).body.data;
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => requestAndConfirm(owner, method.id, 300)));
    const succeeded = outcomes.filter((answer) => answer.status === 200 && answer.body.data.status === 'in_flight');
    const refused = outcomes.filter((answer) => answer.status === 422);
    expect(succeeded).toHaveLength(10);
    expect(refused).toHaveLength(190);
    expect(new Set(refused.map((answer) => answer.body.errors[0]))).toEqual(new Set(['Insufficient balance']));
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 0 });
    expect(
      (await rows(sql`SELECT count(*)::int AS n FROM payouts WHERE user_id = ${owner.userId} AND status = 'in_flight'`)).rows[0]!
        .n,
    ).toBe(10);
  });

  it('the same confirmation sent twice at once makes one payout', async () => {
    const owner = await staffWith(1000);
    const method = (await addMethod(owner)).body.data;
    const payout = (await request(owner, { amount_cents: 300, method_id: method.id })).body.data;
    const code = await codeFor(t, owner.phone, payout.id);
    const answers = await Promise.all([
      confirm(owner, payout.id, code),
      confirm(owner, payout.id, code),
      confirm(owner, payout.id, code),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 500 });
    expect(
      (await rows(sql`SELECT count(*)::int AS n FROM ledger_entries WHERE reference = ${`payout:${payout.id}:confirmed`}`))
        .rows[0]!.n,
    ).toBe(1);
    expect((await rows(sql`SELECT count(*)::int AS n FROM transactions WHERE payout_id = ${payout.id}`)).rows[0]!.n).toBe(1);
  });
});
