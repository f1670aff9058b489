import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverSandboxEvent, receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';

const HOUR = 3_600_000;
let t: TestApp;
beforeAll(async () => {
  // No fee: what a guest pays is what the staff member holds, so the amounts below read as they are.
  t = await createTestApp({ env: { FEE_PERCENT: '0', HOLD_HOURS: '24' } });
});
afterAll(() => t.close());

type Staff = Awaited<ReturnType<typeof signUpWithCard>>;
/** Read as the app does after hours away: a fresh access token from the refresh token (which turns over each time). */
async function balances(staff: Staff) {
  const refreshed = await t.call({ method: 'POST', url: '/api/refresh-token', payload: { refreshToken: staff.refreshToken } });
  expect(refreshed.status).toBe(200);
  staff.refreshToken = refreshed.body.data.refresh_token;
  const token = refreshed.body.data.jwt as string;
  const answer = await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/account`, token });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}
const hold = (answer: { account_balances: { type: string; balance: number }[] }) =>
  answer.account_balances.find((item) => item.type === 'hold')!.balance;

describe('the balances answer', () => {
  it('says when each amount on hold becomes available, and keeps it equal to the hold', async () => {
    const staff = await signUpWithCard(t);
    expect((await balances(staff)).hold_releases).toEqual([]);

    const first = t.clock.now();
    await receiveTip(t, staff.cardId, 1_000);
    await receiveTip(t, staff.cardId, 250);
    t.clock.advance(3 * HOUR);
    const refunded = await receiveTip(t, staff.cardId, 700);
    const later = t.clock.now();
    await receiveTip(t, staff.cardId, 500);

    const answer = await balances(staff);
    // Tips credited at the same moment are released together: one line for them.
    expect(answer.hold_releases).toEqual([
      { amount_cents: 1_250, release_at: new Date(first.getTime() + 24 * HOUR).toISOString() },
      { amount_cents: 1_200, release_at: new Date(later.getTime() + 24 * HOUR).toISOString() },
    ]);
    expect(hold(answer)).toBe(2_450);

    // A refunded tip leaves the hold and its release time with it.
    expect(await deliverSandboxEvent(t, refunded, 'payment.refunded')).toBe('applied');
    const afterRefund = await balances(staff);
    expect(afterRefund.hold_releases.map((line: { amount_cents: number }) => line.amount_cents)).toEqual([1_250, 500]);
    expect(hold(afterRefund)).toBe(1_750);

    // Once the first hold ends and the release job runs, only the later amount is left to wait for.
    t.clock.advance(21 * HOUR);
    expect(await t.runJob('payments.release')).toBeGreaterThanOrEqual(2);
    const released = await balances(staff);
    expect(released.hold_releases).toEqual([
      { amount_cents: 500, release_at: new Date(later.getTime() + 24 * HOUR).toISOString() },
    ]);
    expect(hold(released)).toBe(500);
  });

  it("answers 404 for another user's client", async () => {
    const owner = await signUpWithCard(t);
    const stranger = await signUpWithCard(t);
    const answer = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/account`, token: stranger.jwt });
    expect(answer.status).toBe(404);
  });
});
