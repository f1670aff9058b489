import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { expectValidPain001 } from './pain001-schema.test-support.ts';
import { markPayout, toPayout } from './payouts.service.ts';
import { createSandboxRail } from './payout-rail.ts';
import * as repo from './payouts.repository.ts';
import { SUBMIT_LEASE_MS, type PayoutFaultPoint } from './payouts.jobs.ts';
import { codeFor, fundMain, runPayoutWork, SEPA_METHOD, UK_METHOD } from './payouts.test-support.ts';

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;

async function confirmedPayout(t: TestApp, method: object, cents = 300) {
  const owner: Owner = await signUpWithCard(t);
  await fundMain(t, owner, 1000);
  const methodId = (
    await t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt, payload: method })
  ).body.data.id;
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/payouts`,
    token: owner.jwt,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, method_id: methodId },
  });
  const id = created.body.data.id as string;
  const confirmed = await t.call({
    method: 'POST',
    url: `/api/payouts/${id}/confirm`,
    token: owner.jwt,
    payload: { code: await codeFor(t, owner.phone, id) },
  });
  expect(confirmed.body.data.status).toBe('in_flight');
  return { owner, id };
}

const count = async (t: TestApp, query: ReturnType<typeof sql>) =>
  Number(((await t.app.db.execute(query)) as unknown as { rows: { n: number }[] }).rows[0]!.n);

/** One pass of the payout worker that dies at `fault`, the way a crash at that line would. */
const runWithFault = (t: TestApp, fault?: PayoutFaultPoint) =>
  runPayoutWork(
    {
      db: t.app.db,
      log: t.app.log,
      rail: createSandboxRail(t.app.db, 0),
      debtor: t.app.config.payouts.debtor,
      fault: (point) => {
        if (point === fault) throw new Error(`injected fault at ${point}`);
      },
    },
    t.clock.now(),
  );

describe('sandbox rail: crash safety', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { FEE_PERCENT: '0', HOLD_HOURS: '0', SANDBOX_PAYOUT_DELAY_MS: '0' } });
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await checkLedgerInvariants(t.app.db)).toEqual([]));

  const run = (fault?: PayoutFaultPoint) => runWithFault(t, fault);

  const points: PayoutFaultPoint[] = [
    'submit:claimed',
    'submit:sent',
    'submit:recorded',
    'status:claimed',
    'settle:in-transaction',
    'settle:committed',
  ];
  it.each(points)('dying at %s: re-running pays the payout exactly once and leaves nothing stuck', async (point) => {
    const { owner, id } = await confirmedPayout(t, SEPA_METHOD);
    await expect(run(point)).rejects.toThrow(`injected fault at ${point}`);
    // Restarts: each after the claim leases have run out.
    for (let restart = 0; restart < 4; restart += 1) {
      t.clock.advance(SUBMIT_LEASE_MS);
      await run();
    }
    const payout = (await repo.findPayout(t.app.db, id))!;
    expect(payout.status).toBe('paid');
    expect(await count(t, sql`SELECT count(*)::int AS n FROM sandbox_payout_transfers WHERE payout_id = ${id}`)).toBe(1);
    expect(await count(t, sql`SELECT count(*)::int AS n FROM ledger_entries WHERE reference LIKE ${`payout:${id}:%`}`)).toBe(2);
    expect(await userBalances(t.app.db, owner.userId)).toMatchObject({ main: 500 });
    expect(await count(t, sql`SELECT count(*)::int AS n FROM payouts WHERE status = 'in_flight'`)).toBe(0);
  });

  it('refuses the batch when the ledger invariants fail: nothing is sent', async () => {
    const { id } = await confirmedPayout(t, SEPA_METHOD);
    await t.app.db.execute(
      sql`UPDATE ledger_accounts SET balance_cents = balance_cents + 1 WHERE owner_user_id IS NULL AND kind = 'fees'`,
    );
    try {
      expect(await run()).toMatchObject({ submitted: 0 });
      expect(await count(t, sql`SELECT count(*)::int AS n FROM sandbox_payout_transfers WHERE payout_id = ${id}`)).toBe(0);
    } finally {
      await t.app.db.execute(
        sql`UPDATE ledger_accounts SET balance_cents = balance_cents - 1 WHERE owner_user_id IS NULL AND kind = 'fees'`,
      );
    }
    expect(await run()).toMatchObject({ submitted: 1, paid: 1 });
  });
});

describe('file rail: SEPA pain.001 and UK CSV batches', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { FEE_PERCENT: '0', HOLD_HOURS: '0', PAYOUT_RAIL: 'files' } });
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await checkLedgerInvariants(t.app.db)).toEqual([]));

  const run = (fault?: PayoutFaultPoint) => runWithFault(t, fault);

  it('puts the payouts confirmed up to the cut-off into one schema-valid file each, exactly once, even after crashes', async () => {
    // The test clock starts Friday 12:00 in Riga, before the cut-off: nothing is batched yet.
    const sepa = [
      await confirmedPayout(t, SEPA_METHOD, 300),
      await confirmedPayout(t, { ...SEPA_METHOD, holder_last_name: 'Bērziņš & Co' }, 450),
    ];
    const uk = await confirmedPayout(t, UK_METHOD, 700);
    expect(await run()).toMatchObject({ batches: 0 });

    t.clock.advance(3 * 3_600_000); // 15:00 in Riga: past the cut-off.
    await expect(run('batch:in-transaction')).rejects.toThrow();
    expect(await repo.listBatches(t.app.db)).toHaveLength(0);
    await expect(run('batch:committed')).rejects.toThrow();
    await run();
    await run();
    const batches = await repo.listBatches(t.app.db);
    expect(batches.map((batch) => [batch.kind, batch.payoutCount, batch.totalCents]).sort()).toEqual([
      ['sepa', 2, 750],
      ['uk', 1, 700],
    ]);
    const sepaFile = batches.find((batch) => batch.kind === 'sepa')!;
    await expectValidPain001(sepaFile.content);
    expect(sepaFile.content).toContain('<ReqdExctnDt><Dt>2026-11-23</Dt></ReqdExctnDt>');
    for (const { id } of sepa) expect(sepaFile.content.split(id.replaceAll('-', '')).length - 1).toBe(1);
    expect(batches.find((batch) => batch.kind === 'uk')!.content).toContain('601613,31926819,JANE SMITH,7.00,');

    // The operator marks the outcomes (the CLI calls the same functions).
    expect(await markPayout(t.app.db, sepa[0]!.id, 'paid', t.clock.now())).toBe(true);
    expect(await markPayout(t.app.db, sepa[0]!.id, 'paid', t.clock.now())).toBe(false);
    expect(await markPayout(t.app.db, sepa[1]!.id, 'returned', t.clock.now(), 'AC01 Incorrect account number')).toBe(true);
    expect(await markPayout(t.app.db, uk.id, 'paid', t.clock.now())).toBe(true);
    expect(await userBalances(t.app.db, sepa[1]!.owner.userId)).toMatchObject({ main: 1000 });
    const returned = (await repo.findPayout(t.app.db, sepa[1]!.id))!;
    expect(returned.returnReason).toBe('AC01 Incorrect account number');
    expect(toPayout(returned, t.clock.now()).return_reason).toBe('AC01');
    expect(toPayout((await repo.findPayout(t.app.db, sepa[0]!.id))!, t.clock.now()).return_reason).toBeNull();
  });
});
