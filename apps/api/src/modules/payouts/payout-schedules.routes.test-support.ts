import { expect } from 'vitest';
import type { TestApp } from '../../test/test-app.ts';

/** Sets a schedule the way the user does: PUT, then the code texted to their phone; answers the confirmed state. */
export async function setSchedule(
  t: TestApp,
  staff: { clientId: string; jwt: string; phone: string; methodId: string },
  rule: Record<string, unknown>,
) {
  const asked = await t.call({
    method: 'PUT',
    url: `/api/clients/${staff.clientId}/payout-schedule`,
    token: staff.jwt,
    payload: { method_id: staff.methodId, ...rule },
  });
  expect(asked.status).toBe(202);
  const confirmed = await t.call({
    method: 'POST',
    url: `/api/clients/${staff.clientId}/payout-schedule/confirm`,
    token: staff.jwt,
    payload: { change_id: asked.body.data.pending_change.id, code: await t.lastCode(staff.phone) },
  });
  expect(confirmed.status).toBe(200);
  return confirmed.body.data;
}
