import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIP_MIN_CENTS } from '@tipcard/shared/payments/fees';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from '@tipcard/shared/payouts/schemas';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { setSchedule } from './payout-schedules.routes.test-support.ts';
import { fundMain, PAYOUT_TEST_ENV, staffWithMain } from './payouts.test-support.ts';

const DAY = 86_400_000;

/**
 * Schedules against the real database and job, over random histories of tips and elapsed time: each run pays exactly
 * the available balance minus the fee when that reaches the minimum, skips (saying why) otherwise, never more than
 * the balance, and never twice in a period. A model of the balance predicts every run.
 */
describe('payout schedules: property', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: PAYOUT_TEST_ENV });
  });
  afterAll(() => t.close());

  it('for any history of tips and days: one run per due period, paid iff the balance minus the fee reaches the minimum', async () => {
    const step = fc.record({
      tipCents: fc.oneof(fc.constant(0), fc.integer({ min: TIP_MIN_CENTS, max: 900 })),
      days: fc.integer({ min: 1, max: 9 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7 }), fc.array(step, { minLength: 1, maxLength: 5 }), async (weekday, steps) => {
        const staff = await staffWithMain(t, 0);
        const set = await setSchedule(t, staff, { kind: 'weekly', weekday });
        let due = new Date(set.schedule.next_run_at).getTime();
        let main = 0;
        let funded = 0;
        const expected: { outcome: string; amount: number }[] = [];
        for (const { tipCents, days } of steps) {
          if (tipCents > 0) {
            await fundMain(t, staff, tipCents);
            main += tipCents;
            funded += tipCents;
          }
          t.clock.advance(days * DAY);
          await t.runJob('payouts.run-schedules');
          // Missed weeks are not made up: one run for the latest due time passed, then the next one after now.
          if (t.clock.now().getTime() >= due) {
            if (main - PAYOUT_FEE_CENTS >= PAYOUT_MIN_CENTS) {
              expected.push({ outcome: 'paid', amount: main - PAYOUT_FEE_CENTS });
              main = 0;
            } else expected.push({ outcome: 'skipped', amount: 0 });
            while (due <= t.clock.now().getTime()) due += 7 * DAY;
          }
        }
        const runs = (
          (await t.app.db.execute(
            sql`SELECT r.period, r.outcome, r.amount_cents::int AS amount, p.amount_cents::int AS payout, p.fee_cents::int AS fee
                FROM payout_schedule_runs r LEFT JOIN payouts p ON p.id = r.payout_id
                WHERE r.user_id = ${staff.userId} ORDER BY r.period`,
          )) as unknown as {
            rows: { period: string; outcome: string; amount: number; payout: number | null; fee: number | null }[];
          }
        ).rows;
        expect(runs.map((run) => ({ outcome: run.outcome, amount: run.amount }))).toEqual(expected);
        expect(new Set(runs.map((run) => run.period)).size).toBe(runs.length);
        for (const run of runs) {
          if (run.outcome === 'paid') expect([run.payout, run.fee]).toEqual([run.amount, PAYOUT_FEE_CENTS]);
          else expect(run.payout).toBeNull();
        }
        const out = runs.reduce((sum, run) => sum + (run.payout ?? 0) + (run.fee ?? 0), 0);
        expect(out).toBeLessThanOrEqual(funded);
        expect((await userBalances(t.app.db, staff.userId)).main).toBe(funded - out);
      }),
      { numRuns: 8 },
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
