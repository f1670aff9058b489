import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { createTestDatabase } from '../../test/test-database.ts';

/**
 * The public card and the guest's page served from memory (decision 0051), on two instances of the app over one
 * database: a change made through one is served by the other within a second, whatever wrote it, and a kept card's
 * answers (200 and 304) read nothing from the database.
 */
let database: DatabaseHandle;
let a: TestApp;
let b: TestApp;

const WITHIN_A_SECOND = { timeout: 1_000, interval: 10 };

/** Every way the app reaches the database: pooled queries and checked-out clients (PostgreSQL), queries (PGlite). */
function countDatabaseCalls() {
  const client = (database.db as unknown as { $client: Record<string, (...args: unknown[]) => unknown> }).$client;
  const spies = ['query', 'connect', 'exec', 'transaction']
    .filter((method) => typeof client[method] === 'function')
    .map((method) => vi.spyOn(client, method as never));
  return {
    calls: () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0),
    restore: () => spies.forEach((spy) => spy.mockRestore()),
  };
}

const publicCard = async (t: TestApp, cardId: string) => t.call({ method: 'GET', url: `/api/public/cards/${cardId}` });
const page = (t: TestApp, cardId: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `/payment/${cardId}`, headers: { 'accept-language': 'lv', ...headers } });

/** Reads the card on `t` until that instance keeps it (its LISTEN session opens with the first read). */
async function warm(t: TestApp, cardId: string) {
  await vi.waitFor(async () => {
    expect((await publicCard(t, cardId)).status).toBe(200);
    expect((await page(t, cardId)).statusCode).toBe(200);
    expect(t.app.services.publicCards.stats().listening).toBe(true);
    expect(t.app.services.publicCards.stats().cards).toBeGreaterThan(0);
    // The first page renders with the web app's source, imported on first use: slow once.
  }, 15_000);
}

beforeAll(async () => {
  const webDist = mkdtempSync(join(tmpdir(), 'tipcard-memory-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'public-x.css'), '.guest{color:red}');
  writeFileSync(
    join(webDist, 'public.html'),
    '<!doctype html><html lang="en"><head><title>Pay</title><link rel="stylesheet" href="/assets/public-x.css"></head><body><div id="root"></div></body></html>',
  );
  const config = { webDist, webServerEntry: fileURLToPath(new URL('../../../../web/src/public-server.tsx', import.meta.url)) };
  database = await createTestDatabase();
  a = await createTestApp({ config, overrides: { database } });
  b = await createTestApp({ config, overrides: { database } });
});

afterAll(async () => {
  await a.close();
  await b.close();
  await database.close();
});

describe('public reads from memory', () => {
  it('answers a kept card and its page, 200 and 304, with no database read', async () => {
    const owner = await signUpWithCard(a, { public_name: 'Ilze' });
    await warm(b, owner.cardId);
    const cardTag = String((await publicCard(b, owner.cardId)).headers.etag);
    const pageTag = String((await page(b, owner.cardId)).headers.etag);

    const database = countDatabaseCalls();
    try {
      const card = await publicCard(b, owner.cardId);
      expect(card.status).toBe(200);
      expect(card.body.data).toMatchObject({ id: owner.cardId, public_name: 'Ilze' });
      expect(card.headers['cache-control']).toBe('public, max-age=30');
      expect(
        (await b.call({ method: 'GET', url: `/api/public/cards/${owner.cardId}`, headers: { 'if-none-match': cardTag } })).status,
      ).toBe(304);
      const html = await page(b, owner.cardId, { 'accept-encoding': 'br' });
      expect(html.statusCode).toBe(200);
      expect(html.headers['content-encoding']).toBe('br');
      expect((await page(b, owner.cardId, { 'if-none-match': pageTag })).statusCode).toBe(304);
      // The security headers are on every answer, from memory or not.
      expect(html.headers['x-content-type-options']).toBe('nosniff');
      expect(html.headers['content-security-policy']).toBeDefined();
      expect(database.calls()).toBe(0);
    } finally {
      database.restore();
    }
  });

  it('serves on one instance a rename made through the other within a second', async () => {
    const owner = await signUpWithCard(a, { public_name: 'Anna' });
    await warm(a, owner.cardId);
    await warm(b, owner.cardId);
    const renamed = await a.call({
      method: 'PATCH',
      url: `/api/cards/${owner.cardId}`,
      token: owner.jwt,
      payload: { public_name: 'Anete' },
    });
    expect(renamed.status).toBe(200);
    // The author's own instance at once (the write's answer waited for its notice), the other within a second.
    expect((await publicCard(a, owner.cardId)).body.data.public_name).toBe('Anete');
    await vi.waitFor(
      async () => expect((await publicCard(b, owner.cardId)).body.data.public_name).toBe('Anete'),
      WITHIN_A_SECOND,
    );
    await vi.waitFor(async () => expect((await page(b, owner.cardId)).body).toContain('Anete'), WITHIN_A_SECOND);
  });

  it('drops a kept card on every kind of change: photo, rating, thank-you', async () => {
    const owner = await signUpWithCard(a, { public_name: 'Marta' });
    await warm(b, owner.cardId);

    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0a7' } })
      .png()
      .toBuffer();
    const photo = await a.call({
      method: 'POST',
      url: `/api/cards/${owner.cardId}/photo`,
      token: owner.jwt,
      payload: { content: png.toString('base64'), name: 'me.png', mime: 'image/png' },
    });
    expect(photo.status).toBe(200);
    await vi.waitFor(
      async () => expect((await publicCard(b, owner.cardId)).body.data.image_url).toBe(photo.body.data.image_url),
      WITHIN_A_SECOND,
    );

    // A guest's rating comes with the provider's event (a webhook: no one signed in), credited on A.
    await warm(b, owner.cardId);
    await receiveTip(a, owner.cardId, 500, { rating: 4 });
    await vi.waitFor(
      async () => expect((await publicCard(b, owner.cardId)).body.data).toMatchObject({ rating: 4, rating_count: 1 }),
      WITHIN_A_SECOND,
    );

    // The thank-you is not in these answers, but it is the card's row: B reads the card again.
    await warm(b, owner.cardId);
    const kept = b.app.services.publicCards.stats().cards;
    const thanked = await a.call({
      method: 'PATCH',
      url: `/api/cards/${owner.cardId}`,
      token: owner.jwt,
      payload: { thank_you_text: 'Paldies!' },
    });
    expect(thanked.status).toBe(200);
    await vi.waitFor(() => expect(b.app.services.publicCards.stats().cards).toBe(kept - 1), WITHIN_A_SECOND);
  });

  it('follows a team card’s title, its workplace, its members and a member’s own name', async () => {
    const admin = await signUpWithCard(a, { public_name: 'Anna' });
    const created = await a.call({
      method: 'POST',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Bar Riga', country: 'LV' },
    });
    expect(created.status).toBe(201);
    const { id, card_id: cardId } = created.body.data.team as { id: string; card_id: string };
    const member = await signUpWithCard(a, { public_name: 'Pēteris' });
    const teamOnB = async () => (await publicCard(b, cardId)).body.data.team;
    await warm(b, cardId);

    const requested = await a.call({ method: 'POST', url: `/api/teams/${id}/requests`, token: member.jwt });
    const approve = `/api/teams/${id}/requests/${requested.body.data.id}/approve`;
    expect((await a.call({ method: 'POST', url: approve, token: admin.jwt })).status).toBe(200);
    await vi.waitFor(async () => expect((await teamOnB()).member_count).toBe(2), WITHIN_A_SECOND);

    await warm(b, cardId);
    expect(
      (await a.call({ method: 'PATCH', url: `/api/teams/${id}`, token: admin.jwt, payload: { title: 'Night shift' } })).status,
    ).toBe(200);
    await vi.waitFor(async () => expect((await teamOnB()).title).toBe('Night shift'), WITHIN_A_SECOND);

    await warm(b, cardId);
    const moved = await a.call({
      method: 'PATCH',
      url: `/api/clients/${admin.clientId}/workplace`,
      token: admin.jwt,
      payload: { name: 'Bar Tallinn', country: 'EE' },
    });
    expect(moved.status).toBe(200);
    await vi.waitFor(async () => expect((await teamOnB()).workplace_name).toBe('Bar Tallinn'), WITHIN_A_SECOND);

    // The member renames their own card: their face on the team card follows.
    await warm(b, cardId);
    expect(
      (
        await a.call({
          method: 'PATCH',
          url: `/api/cards/${member.cardId}`,
          token: member.jwt,
          payload: { public_name: 'Pēteris K.' },
        })
      ).status,
    ).toBe(200);
    await vi.waitFor(
      async () => expect((await teamOnB()).members.map((m: { public_name: string }) => m.public_name)).toContain('Pēteris K.'),
      WITHIN_A_SECOND,
    );
  });

  it('no longer serves the card of an owner who deleted the account, on either instance', async () => {
    const owner = await signUpWithCard(a, { public_name: 'Dace' });
    await warm(a, owner.cardId);
    await warm(b, owner.cardId);
    const deleted = await a.call({ method: 'POST', url: '/api/user/deletion_statements', token: owner.jwt, payload: {} });
    expect(deleted.status).toBe(200);
    expect((await publicCard(a, owner.cardId)).status).toBe(404);
    await vi.waitFor(async () => expect((await publicCard(b, owner.cardId)).status).toBe(404), WITHIN_A_SECOND);
    expect((await page(b, owner.cardId)).statusCode).toBe(404);
  });

  it('drops everything when the LISTEN session is lost, and keeps again once it is back', async () => {
    if (database.kind !== 'postgres') return; // PGlite's LISTEN is the process's own session: it is never lost.
    const owner = await signUpWithCard(a, { public_name: 'Liene' });
    await warm(b, owner.cardId);
    // Both instances' sessions, as a restart of PostgreSQL or a failover would end them.
    await database.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "public_cards"'`,
    );
    await vi.waitFor(() => expect(b.app.services.publicCards.stats()).toMatchObject({ cards: 0 }));
    await warm(b, owner.cardId);
  });
});
