import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Notice } from '@tipcard/shared/notices/schemas';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { openStream } from '../messaging/messaging.test-support.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, team, later, join } = teamFixtures(() => t);

const noticesOf = async (who: Staff) => {
  const answer = await t.call({ method: 'GET', url: `/api/clients/${who.clientId}/notices`, token: who.jwt });
  expect(answer.status).toBe(200);
  return answer.body.data as { unread: number; notices: Notice[] };
};
const kindsOf = async (who: Staff) => (await noticesOf(who)).notices.map((notice) => notice.kind);
const noticeEvents = (stream: Awaited<ReturnType<typeof openStream>>) =>
  stream.events.flatMap((event) => (event.type === 'notice' ? [event] : []));

describe('team notices: stored for the member and sent to their open app at once', () => {
  it('tells the requester of the approval, live and stored, and nobody else', async () => {
    const made = await team(1);
    const requester = await staff('Bob');
    const bystander = await staff('Carl');
    const requesterStream = await openStream(t, requester);
    const bystanderStream = await openStream(t, bystander);
    await join(made.id, made.admin, requester);

    await vi.waitFor(() => expect(noticeEvents(requesterStream)).toHaveLength(1));
    const [event] = noticeEvents(requesterStream);
    expect(event!.notice).toEqual({
      kind: 'team_request_approved',
      team: 'Bar Riga',
      workplace: 'Bar Riga',
      rule: null,
      month: null,
    });
    const stored = await noticesOf(requester);
    expect(stored.unread).toBe(1);
    expect(stored.notices).toEqual([
      {
        id: event!.notice_id,
        kind: 'team_request_approved',
        team: 'Bar Riga',
        workplace: 'Bar Riga',
        rule: null,
        month: null,
        created_at: t.clock.now().toISOString(),
        read_at: null,
      },
    ]);
    expect(await kindsOf(made.admin)).toEqual([]);
    expect(await kindsOf(bystander)).toEqual([]);
    expect(noticeEvents(bystanderStream)).toEqual([]);
    requesterStream.close();
    bystanderStream.close();
  });

  it('tells the requester of a decline', async () => {
    const made = await team(1);
    const requester = await staff();
    const requested = await t.call({ method: 'POST', url: `/api/teams/${made.id}/requests`, token: requester.jwt });
    const declined = await t.call({
      method: 'POST',
      url: `/api/teams/${made.id}/requests/${requested.body.data.id}/decline`,
      token: made.admin.jwt,
    });
    expect(declined.status).toBe(200);
    expect(await kindsOf(requester)).toEqual(['team_request_declined']);
    expect(await kindsOf(made.admin)).toEqual([]);
  });

  it('tells every other member of a rule change with the rule, and the removed member of the removal', async () => {
    const made = await team(3);
    const [admin, bob, carol] = made.members as [Staff, Staff, Staff];
    const bobStream = await openStream(t, bob);
    await later(60_000, admin, bob, carol);
    const saved = await t.call({
      method: 'POST',
      url: `/api/teams/${made.id}/rules`,
      token: admin.jwt,
      payload: { kind: 'hours' },
    });
    expect(saved.status).toBe(201);
    await vi.waitFor(() => expect(noticeEvents(bobStream).map((event) => event.notice.kind)).toEqual(['team_rule_changed']));
    expect(noticeEvents(bobStream)[0]!.notice.rule).toBe('hours');
    expect((await noticesOf(carol)).notices[0]).toMatchObject({ kind: 'team_rule_changed', rule: 'hours' });
    expect(await kindsOf(admin)).toEqual([]);

    await later(60_000, admin);
    const removed = await t.call({ method: 'DELETE', url: `/api/teams/${made.id}/members/${carol.userId}`, token: admin.jwt });
    expect(removed.status).toBe(200);
    expect(await kindsOf(carol)).toEqual(['team_member_removed', 'team_rule_changed', 'team_request_approved']);
    expect(await kindsOf(bob)).toEqual(['team_rule_changed', 'team_request_approved']);
    bobStream.close();
  });

  it('tells the members of a closed period, with its month, that objections are open', async () => {
    const made = await team(2);
    const [admin, bob] = made.members as [Staff, Staff];
    const month = t.clock.now().toISOString().slice(0, 7);
    const next = new Date(`${month}-01T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    await later(next.getTime() - t.clock.now().getTime() + 3_600_000, admin, bob);
    const closed = await t.call({ method: 'POST', url: `/api/teams/${made.id}/periods/${month}/close`, token: admin.jwt });
    expect(closed.status).toBe(200);
    expect((await noticesOf(bob)).notices[0]).toMatchObject({ kind: 'team_period_closed', month, team: 'Bar Riga' });
    expect(await kindsOf(admin)).toEqual([]);
  });
});
