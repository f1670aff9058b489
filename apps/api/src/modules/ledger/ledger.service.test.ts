import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Transaction } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { createUserWithPrivateClient } from '../users/users.service.ts';
import { takeAccounts } from './ledger.repository.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import {
  closeUserAccounts,
  lockBalances,
  platformBalance,
  postEntry,
  repayDebt,
  repayOneDebt,
  settleClosedAccount,
  userBalances,
} from './ledger.service.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

let phoneCounter = 0;
async function newUser() {
  phoneCounter += 1;
  const { user } = await createUserWithPrivateClient(database.db, {
    phone: `+3712100${String(phoneCounter).padStart(4, '0')}`,
    promoSource: null,
    referralCode: null,
  });
  return user.id;
}

/** Money arriving from the provider into a user's main account. */
const fund = (userId: string, cents: number, reference: string) =>
  database.db.transaction((tx) =>
    postEntry(tx, {
      kind: 'test_funding',
      reference,
      postings: [
        { account: { platform: 'psp_clearing' }, amountCents: -cents },
        { account: { userId, kind: 'main' }, amountCents: cents },
      ],
    }),
  );

describe('postEntry', () => {
  it('moves money between accounts and keeps the books balanced', async () => {
    const user = await newUser();
    expect(await fund(user, 1_000, `fund:${user}`)).toEqual({ applied: true });
    expect(await userBalances(database.db, user)).toEqual({ main: 1_000, hold: 0, debt: 0 });
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('applies one reference once, however often it is posted', async () => {
    const user = await newUser();
    expect(await fund(user, 500, `once:${user}`)).toEqual({ applied: true });
    expect(await fund(user, 500, `once:${user}`)).toEqual({ applied: false });
    expect((await userBalances(database.db, user)).main).toBe(500);
  });

  it('refuses entries that do not balance, have one leg, or carry fractions', async () => {
    const user = await newUser();
    const attempt = (postings: { amountCents: number }[]) =>
      database.db.transaction((tx) =>
        postEntry(tx, {
          kind: 'bad',
          reference: `bad:${user}:${JSON.stringify(postings)}`,
          postings: postings.map((p, i) => ({
            account: i === 0 ? { platform: 'fees' as const } : { userId: user, kind: 'main' as const },
            amountCents: p.amountCents,
          })),
        }),
      );
    await expect(attempt([{ amountCents: -100 }, { amountCents: 99 }])).rejects.toThrow(/does not balance/);
    await expect(attempt([{ amountCents: 0 }, { amountCents: 0 }])).rejects.toThrow(/non-zero integer/);
    await expect(attempt([{ amountCents: -1.5 }, { amountCents: 1.5 }])).rejects.toThrow(/integer cents/);
    expect(await userBalances(database.db, user)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('never takes a user account below zero, and leaves nothing behind when it refuses', async () => {
    const user = await newUser();
    await fund(user, 300, `fund:${user}`);
    const overdraw = database.db.transaction((tx) =>
      postEntry(tx, {
        kind: 'test_withdrawal',
        reference: `overdraw:${user}`,
        postings: [
          { account: { userId: user, kind: 'main' }, amountCents: -301 },
          { account: { platform: 'payouts_in_flight' }, amountCents: 301 },
        ],
      }),
    );
    await expect(overdraw).rejects.toMatchObject({ code: 'insufficient_balance' });
    await expect(overdraw).rejects.toBeInstanceOf(AppError);
    expect((await userBalances(database.db, user)).main).toBe(300);
    // The refused entry's reference was rolled back with it, so a corrected retry can still use it.
    const rows = await database.db.execute(
      sql`SELECT count(*)::int AS n FROM ledger_entries WHERE reference = ${`overdraw:${user}`}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });

  it('keeps entries and postings append-only', async () => {
    const user = await newUser();
    await fund(user, 100, `append:${user}`);
    await expect(database.db.execute(sql`UPDATE ledger_postings SET amount_cents = amount_cents + 1`)).rejects.toThrow();
    await expect(database.db.execute(sql`DELETE FROM ledger_entries WHERE reference = ${`append:${user}`}`)).rejects.toThrow();
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('lets exactly as many concurrent withdrawals through as the balance covers', async () => {
    const user = await newUser();
    await fund(user, 2_000, `race-fund:${user}`);
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        database.db.transaction((tx) =>
          postEntry(tx, {
            kind: 'test_withdrawal',
            reference: `race:${user}:${i}`,
            postings: [
              { account: { userId: user, kind: 'main' }, amountCents: -100 },
              // Straight out, as a paid payout ends: payouts_in_flight must match PAYOUT rows on HOLD (invariants).
              { account: { platform: 'psp_clearing' }, amountCents: 100 },
            ],
          }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => (r as PromiseRejectedResult).reason.code === 'insufficient_balance'),
    ).toBe(true);
    expect((await userBalances(database.db, user)).main).toBe(0);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('locks balances for a caller that computes its postings from them', async () => {
    const user = await newUser();
    await fund(user, 700, `lock:${user}`);
    const balance = await database.db.transaction(async (tx) =>
      (
        await lockBalances(tx, [
          { userId: user, kind: 'main' },
          { userId: user, kind: 'debt' },
        ])
      )({ userId: user, kind: 'main' }),
    );
    expect(balance).toBe(700);
  });
});

describe('checkLedgerInvariants', () => {
  it('reports a kept balance that drifted from its postings', async () => {
    const drifted = await createTestDatabase();
    try {
      const { user } = await createUserWithPrivateClient(drifted.db, {
        phone: '+37121999999',
        promoSource: null,
        referralCode: null,
      });
      await drifted.db.transaction((tx) =>
        postEntry(tx, {
          kind: 'test_funding',
          reference: 'drift',
          postings: [
            { account: { platform: 'psp_clearing' }, amountCents: -100 },
            { account: { userId: user.id, kind: 'main' }, amountCents: 100 },
          ],
        }),
      );
      await drifted.db.execute(sql`UPDATE ledger_accounts SET balance_cents = balance_cents + 1 WHERE kind = 'main'`);
      const problems = await checkLedgerInvariants(drifted.db);
      expect(problems.some((p) => /keeps 101 but its postings sum to 100/.test(p))).toBe(true);
      expect(problems.some((p) => /all balances sum to 1/.test(p))).toBe(true);
    } finally {
      await drifted.close();
    }
  });
});

describe('platform accounts spread over shards (DESIGN "Scale-out")', () => {
  /** Resolves once a backend of this database waits on a lock (the third claimant queueing for a shard). */
  const waitForLockWaiter = async () => {
    for (;;) {
      const result = await database.db.execute(
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if ((result as unknown as { rows: { n: number }[] }).rows[0]!.n > 0) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };

  /** Money in, as a payment's success is posted: clearing gives, the user and the fees take (straight to main here). */
  const tip = (tx: Transaction, userId: string, reference: string, cents: number, feeCents: number) =>
    postEntry(tx, {
      kind: 'test_tip',
      reference,
      postings: [
        { account: { platform: 'psp_clearing' }, amountCents: -cents },
        { account: { userId, kind: 'main' }, amountCents: cents - feeCents },
        { account: { platform: 'fees' }, amountCents: feeCents },
      ],
    });

  it('keeps every platform balance equal to its postings, whatever the entries and their concurrency', async () => {
    const users = [await newUser(), await newUser(), await newUser()];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            user: fc.nat(2),
            cents: fc.integer({ min: 100, max: 50_000 }),
            feePercent: fc.integer({ min: 1, max: 10 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        async (tips) => {
          run += 1;
          const before = {
            clearing: await platformBalance(database.db, 'psp_clearing'),
            fees: await platformBalance(database.db, 'fees'),
          };
          await Promise.all(
            tips.map((t, i) =>
              database.db.transaction((tx) =>
                tip(tx, users[t.user]!, `shards:${run}:${i}`, t.cents, Math.floor((t.cents * t.feePercent) / 100)),
              ),
            ),
          );
          const total = tips.reduce((sum, t) => sum + t.cents, 0);
          const fees = tips.reduce((sum, t) => sum + Math.floor((t.cents * t.feePercent) / 100), 0);
          expect(await platformBalance(database.db, 'psp_clearing')).toBe(before.clearing - total);
          expect(await platformBalance(database.db, 'fees')).toBe(before.fees + fees);
          expect(await checkLedgerInvariants(database.db)).toEqual([]);
        },
      ),
      { numRuns: 15 },
    );
  });

  it.runIf(process.env.DATABASE_URL)(
    'lets a tip through while another transaction holds a tip to someone else open (PostgreSQL)',
    async () => {
      const [first, second] = [await newUser(), await newUser()];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let posted!: () => void;
      const firstPosted = new Promise<void>((resolve) => (posted = resolve));
      const open = database.db.transaction(async (tx) => {
        await tip(tx, first, `open:${first}`, 1_000, 50);
        posted();
        await held;
      });
      await firstPosted;
      try {
        // Waiting on a row the open transaction holds would fail here, not hang.
        const next = await database.db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL lock_timeout = '2s'`);
          return tip(tx, second, `next:${second}`, 700, 35);
        });
        expect(next).toEqual({ applied: true });
      } finally {
        release();
        await open;
      }
      expect(await userBalances(database.db, first)).toMatchObject({ main: 950 });
      expect(await userBalances(database.db, second)).toMatchObject({ main: 665 });
      expect(await checkLedgerInvariants(database.db)).toEqual([]);
    },
  );

  it.runIf(process.env.DATABASE_URL)('waits for a shard only when every shard of the kind is taken (PostgreSQL)', async () => {
    const claimIn = async (tx: Transaction) => (await takeAccounts(tx, [], ['test_two_shards'], 2)).shards;
    await database.db.transaction(claimIn); // the first use makes the shards
    const releases: (() => void)[] = [];
    const claimed: number[] = [];
    const holders = [0, 1].map(
      () =>
        new Promise<void>((ready) => {
          void database.db.transaction(async (tx) => {
            claimed.push((await claimIn(tx)).get('test_two_shards')!);
            ready();
            await new Promise<void>((resolve) => releases.push(resolve));
          });
        }),
    );
    await Promise.all(holders);
    expect(new Set(claimed).size).toBe(2);
    let third: number | undefined;
    const waiting = database.db.transaction(async (tx) => {
      third = (await claimIn(tx)).get('test_two_shards');
    });
    await waitForLockWaiter();
    expect(third).toBeUndefined();
    releases.forEach((release) => release());
    await waiting;
    expect(claimed).toContain(third);
  });

  it.runIf(process.env.DATABASE_URL)(
    'a transaction of many entries keeps the one shard of each kind it took, leaving the others free (PostgreSQL)',
    async () => {
      const claimIn = async (tx: Transaction) => (await takeAccounts(tx, [], ['test_batch_shards'], 2)).shards;
      await database.db.transaction(claimIn);
      let release!: () => void;
      const held = new Set<number>();
      const batch = new Promise<void>((ready) => {
        void database.db.transaction(async (tx) => {
          for (let entry = 0; entry < 20; entry++) held.add((await claimIn(tx)).get('test_batch_shards')!);
          ready();
          await new Promise<void>((resolve) => (release = resolve));
        });
      });
      await batch;
      expect(held.size).toBe(1);
      // Another transaction takes the other shard at once, with the batch still open.
      const other = await database.db.transaction(async (tx) => (await claimIn(tx)).get('test_batch_shards')!);
      expect(held.has(other)).toBe(false);
      release();
    },
  );
});

/** What a chargeback after a withdrawal leaves: the user owes `cents` (debt below zero). */
const owe = (userId: string, cents: number, reference: string) =>
  database.db.transaction((tx) =>
    postEntry(tx, {
      kind: 'test_chargeback',
      reference,
      postings: [
        { account: { platform: 'psp_clearing' }, amountCents: cents },
        { account: { userId, kind: 'debt' }, amountCents: -cents },
      ],
    }),
  );

describe('debts repaid from main (docs/decisions/0028)', () => {
  it('repays what main can, once per state, and leaves main and debt never both open', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ debt: fc.boolean(), cents: fc.integer({ min: 1, max: 20_000 }) }), { minLength: 1, maxLength: 8 }),
        async (movements) => {
          const user = await newUser();
          let net = 0;
          for (const [index, movement] of movements.entries()) {
            if (movement.debt) await owe(user, movement.cents, `owe:${user}:${index}`);
            else await fund(user, movement.cents, `fund:${user}:${index}`);
            net += movement.debt ? -movement.cents : movement.cents;
            await database.db.transaction((tx) => repayDebt(tx, user));
            // Asked again with nothing new: nothing moves.
            expect(await database.db.transaction((tx) => repayDebt(tx, user))).toBe(false);
            const { main, debt } = await userBalances(database.db, user);
            expect(main + debt).toBe(net);
            expect(main > 0 && debt < 0).toBe(false);
          }
        },
      ),
      { numRuns: 15 },
    );
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('repays once when several workers find the same debtor at once', async () => {
    const user = await newUser();
    await owe(user, 300, `owe:${user}`);
    await fund(user, 1_000, `fund:${user}`);
    const repaid = await Promise.all(Array.from({ length: 6 }, () => database.db.transaction((tx) => repayDebt(tx, user))));
    expect(repaid.filter(Boolean)).toHaveLength(1);
    expect(await userBalances(database.db, user)).toEqual({ main: 700, hold: 0, debt: 0 });
  });

  it('is found by the job among all users', async () => {
    const user = await newUser();
    await owe(user, 250, `owe:${user}`);
    await fund(user, 100, `fund:${user}`);
    for (let runs = 0; runs < 50 && (await repayOneDebt(database.db)); runs += 1);
    expect(await userBalances(database.db, user)).toEqual({ main: 0, hold: 0, debt: -150 });
  });
});

describe('closed accounts of erased users (docs/decisions/0028)', () => {
  const close = (user: string) => database.db.transaction((tx) => closeUserAccounts(tx, user, new Date()));

  it('nets the debt against main, keeps what is owed to the owner and writes off what they owed', async () => {
    const [owed, owing] = [await newUser(), await newUser()];
    await fund(owed, 1_000, `fund:${owed}`);
    await owe(owed, 300, `owe:${owed}`);
    await owe(owing, 363, `owe:${owing}`);
    const before = {
      unclaimed: await platformBalance(database.db, 'unclaimed_funds'),
      writtenOff: await platformBalance(database.db, 'written_off'),
    };
    await close(owed);
    await close(owing);
    expect(await userBalances(database.db, owed)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await userBalances(database.db, owing)).toEqual({ main: 0, hold: 0, debt: 0 });
    expect(await platformBalance(database.db, 'unclaimed_funds')).toBe(before.unclaimed + 700);
    expect(await platformBalance(database.db, 'written_off')).toBe(before.writtenOff - 363);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });

  it('settles what moves onto a closed account later, once, however many workers sweep at once', async () => {
    const user = await newUser();
    await close(user);
    const unclaimed = await platformBalance(database.db, 'unclaimed_funds');
    // A withdrawal the bank returns after the erasure.
    await fund(user, 1_594, `returned:${user}`);
    const swept = await Promise.all(
      Array.from({ length: 5 }, () => database.db.transaction((tx) => settleClosedAccount(tx, user))),
    );
    expect(swept.filter(Boolean)).toHaveLength(1);
    expect(await database.db.transaction((tx) => settleClosedAccount(tx, user))).toBe(false);
    expect((await userBalances(database.db, user)).main).toBe(0);
    expect(await platformBalance(database.db, 'unclaimed_funds')).toBe(unclaimed + 1_594);
    // Another return later is a new state, settled again.
    await fund(user, 10, `returned-again:${user}`);
    for (let runs = 0; runs < 50 && (await database.db.transaction((tx) => settleClosedAccount(tx))); runs += 1);
    expect(await platformBalance(database.db, 'unclaimed_funds')).toBe(unclaimed + 1_604);
    expect(await checkLedgerInvariants(database.db)).toEqual([]);
  });
});
