import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoticeBody, Notices } from '@tipcard/shared/notices/schemas';
import { createTestApp, signUp, type TestApp } from '../../test/test-app.ts';
import { eraseNotices, notifyUser } from './messaging.service.ts';

const RULE_CHANGED: NoticeBody = {
  kind: 'team_rule_changed',
  team: 'Kitchen',
  workplace: 'Café Rīga',
  rule: 'hours',
  month: null,
  amount_cents: null,
};
const PERIOD_CLOSED: NoticeBody = {
  kind: 'team_period_closed',
  team: 'Kitchen',
  workplace: 'Café Rīga',
  rule: null,
  month: '2026-10',
  amount_cents: null,
};

describe('in-app notices: listed until read, each user only their own', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const notify = (userId: string, body: NoticeBody) => t.app.db.transaction((tx) => notifyUser(tx, userId, body, t.clock.now()));
  const list = (user: { clientId: string; jwt: string }) =>
    t.call({ method: 'GET', url: `/api/clients/${user.clientId}/notices`, token: user.jwt });
  const read = (user: { clientId: string; jwt: string }, path: string) =>
    t.call({ method: 'POST', url: `/api/clients/${user.clientId}/notices/${path}`, token: user.jwt });

  it('lists the user’s notices newest first with the unread count; marking one read keeps it, read, in the list', async () => {
    const user = await signUp(t);
    expect((await list(user)).body.data).toEqual({ unread: 0, notices: [] });
    await notify(user.userId, RULE_CHANGED);
    t.clock.advance(60_000);
    await notify(user.userId, PERIOD_CLOSED);

    const listed = (await list(user)).body.data as Notices;
    expect(listed.unread).toBe(2);
    expect(
      listed.notices.map(({ kind, month, amount_cents, rule, read_at }) => ({ kind, month, amount_cents, rule, read_at })),
    ).toEqual([
      { kind: 'team_period_closed', month: '2026-10', amount_cents: null, rule: null, read_at: null },
      { kind: 'team_rule_changed', month: null, amount_cents: null, rule: 'hours', read_at: null },
    ]);

    t.clock.advance(60_000);
    const readAt = t.clock.now().toISOString();
    const marked = await read(user, `${listed.notices[1]!.id}/read`);
    expect(marked.status).toBe(200);
    expect(marked.body.data.unread).toBe(1);
    expect(marked.body.data.notices[1]).toMatchObject({ kind: 'team_rule_changed', read_at: readAt });
    // Reading it again changes nothing: it was read then.
    t.clock.advance(60_000);
    expect((await read(user, `${listed.notices[1]!.id}/read`)).body.data.notices[1].read_at).toBe(readAt);

    const all = await read(user, 'read');
    expect(all.status).toBe(200);
    expect(all.body.data.unread).toBe(0);
    expect((await list(user)).body.data.notices.map((notice: { read_at: string | null }) => notice.read_at !== null)).toEqual([
      true,
      true,
    ]);
  });

  it('answers 404 for another user’s notice or client, and 401 without a session; the owner’s stays unread', async () => {
    const owner = await signUp(t);
    const intruder = await signUp(t);
    await notify(owner.userId, RULE_CHANGED);
    const [notice] = (await list(owner)).body.data.notices as { id: string }[];

    expect(await read(intruder, `${notice!.id}/read`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect((await list(intruder)).body.data).toEqual({ unread: 0, notices: [] });
    expect(await read(intruder, 'read')).toMatchObject({ status: 200, body: { data: { unread: 0 } } });
    const foreignClient = { clientId: owner.clientId, jwt: intruder.jwt };
    expect((await list(foreignClient)).status).toBe(404);
    expect((await read(foreignClient, `${notice!.id}/read`)).status).toBe(404);
    expect((await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/notices` })).status).toBe(401);
    expect((await read(owner, 'not-an-id/read')).status).toBe(404);

    expect((await list(owner)).body.data.unread).toBe(1);
  });

  it('goes with the account’s erasure', async () => {
    const user = await signUp(t);
    await notify(user.userId, RULE_CHANGED);
    await t.app.db.transaction((tx) => eraseNotices(tx, user.userId));
    expect((await list(user)).body.data).toEqual({ unread: 0, notices: [] });
  });
});
