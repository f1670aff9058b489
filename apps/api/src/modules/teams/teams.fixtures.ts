import { expect } from 'vitest';
import { CARD_INPUT, type TestApp } from '../../test/test-app.ts';
import { signAccessToken } from '../auth/auth.service.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { createUserWithPrivateClient } from '../users/users.service.ts';

export interface Staff {
  userId: string;
  clientId: string;
  jwt: string;
  phone: string;
}

/**
 * The people and teams the teams tests work with, on the file's test app (read when called: it is made in beforeAll).
 * Phones carry the process id, so test files running side by side never take the same one.
 */
export function teamFixtures(app: () => TestApp) {
  let phoneCounter = 0;
  /** A user with a token and a card of their own, made without the sign-up flow (its rate limits are not what is tested). */
  async function staff(publicName = `Member ${phoneCounter + 1}`): Promise<Staff> {
    phoneCounter += 1;
    const phone = `+3712${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(4, '0')}`;
    const { user, client } = await createUserWithPrivateClient(app().app.db, {
      phone,
      promoSource: null,
      referralCode: null,
    });
    const jwt = await signAccessToken(app().app.services.keys, { userId: user.id, sessionVersion: 0 }, app().clock.now());
    const card = await app().call({
      method: 'POST',
      url: `/api/clients/${client.id}/cards`,
      token: jwt,
      payload: { ...CARD_INPUT, public_name: publicName },
    });
    expect(card.status).toBe(201);
    return { userId: user.id, clientId: client.id, jwt, phone };
  }

  /** Access tokens live 15 minutes: after the test clock moves on, the members sign in again. */
  async function later(ms: number, ...people: Staff[]) {
    app().clock.advance(ms);
    for (const person of people)
      person.jwt = await signAccessToken(
        app().app.services.keys,
        { userId: person.userId, sessionVersion: 0 },
        app().clock.now(),
      );
  }

  async function createWorkplace(admin: Staff, name = 'Bar Riga') {
    const created = await app().call({
      method: 'POST',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name, country: 'LV' },
    });
    expect(created.status).toBe(201);
    return created.body.data.team as { id: string; card_id: string; title: string };
  }

  async function join(teamId: string, admin: Staff, member: Staff) {
    const requested = await app().call({ method: 'POST', url: `/api/teams/${teamId}/requests`, token: member.jwt });
    expect(requested.status).toBe(201);
    const approved = await app().call({
      method: 'POST',
      url: `/api/teams/${teamId}/requests/${requested.body.data.id}/approve`,
      token: admin.jwt,
    });
    expect(approved.status).toBe(200);
  }

  /** A team of `size` members who joined one minute apart, the admin first. */
  async function team(size: number) {
    const admin = await staff('Anna');
    const created = await createWorkplace(admin);
    const members = [admin];
    for (let i = 1; i < size; i++) {
      app().clock.advance(60_000);
      const member = await staff();
      await join(created.id, admin, member);
      members.push(member);
    }
    return { ...created, admin, members };
  }

  const holdOf = async (member: Staff) => (await userBalances(app().app.db, member.userId)).hold;
  const mainOf = async (member: Staff) => (await userBalances(app().app.db, member.userId)).main;

  return { staff, later, createWorkplace, join, team, holdOf, mainOf };
}
