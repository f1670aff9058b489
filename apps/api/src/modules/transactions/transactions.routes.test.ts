import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { eq } from 'drizzle-orm';
import { transactions } from '../../db/schema/transactions.ts';

const HOUR = 3_600_000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FEE_PERCENT: '0' } });
});
afterAll(() => t.close());

const staff = () => signUpWithCard(t);
const receive = (owner: { cardId: string }, cents: number, extra?: { message?: string; rating?: number }) =>
  receiveTip(t, owner.cardId, cents, extra);

/** A fresh access token after the test clock moved past the old one's 15 minutes. */
async function signInAgain(owner: { phone: string }) {
  t.clock.advance(61_000);
  await t.call({ method: 'POST', url: '/api/request-otp', payload: { username: owner.phone } });
  const signedIn = await t.call({
    method: 'POST',
    url: '/api/login_check',
    payload: { username: owner.phone, password: await t.lastCode(owner.phone) },
  });
  return signedIn.body.data.jwt as string;
}

const list = (owner: { jwt: string; clientId: string }, query = '') =>
  t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/transactions${query}`, token: owner.jwt });

describe('transactions', () => {
  it('pages through the history newest first with a keyset cursor, never skipping or repeating', async () => {
    const owner = await staff();
    for (let i = 1; i <= 7; i += 1) {
      await receive(owner, i * 100);
      if (i % 2 === 0) t.clock.advance(60_000); // some rows share a timestamp
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { items: { amount_cents: number }[]; next_cursor: string | null } } } = await list(
        owner,
        `?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.items.map((item) => item.amount_cents));
      cursor = page.body.data.next_cursor;
    } while (cursor);
    expect(seen.sort((a, b) => a - b)).toEqual([100, 200, 300, 400, 500, 600, 700]);
    const first = await list(owner, '?limit=2');
    expect(first.body.data.items[0].amount_cents).toBe(700);
    // The newest page (its own prepared statement) answers what the general query does: every field, the same way.
    const everything = await list(owner, '?limit=5');
    const filtered = await list(owner, '?limit=5&from=2000-01-01');
    expect(everything.body.data).toEqual(filtered.body.data);
    expect(everything.body.data.items[0]).toMatchObject({ created_at: expect.stringMatching(/Z$/), detail: { kind: 'tip' } });
  });

  it('sends the history compressed as the browser accepts, the same answer as uncompressed', async () => {
    const owner = await staff();
    for (let i = 1; i <= 12; i += 1) await receive(owner, i * 100, { message: `Thanks ${i}` });
    const url = `/api/clients/${owner.clientId}/transactions`;
    const plain = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${owner.jwt}` } });
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const compressed = await t.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${owner.jwt}`, 'accept-encoding': encoding },
      });
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(decode(compressed.rawPayload).toString('utf8')).toBe(plain.body);
    }
  });

  it('filters by status, type and Riga calendar days', async () => {
    const seller = await staff();
    t.clock.advance(3 * 24 * HOUR);
    await receive(seller, 100);
    t.clock.advance(25 * HOUR);
    await t.runJob('payments.release');
    await receive(seller, 200);
    const owner = { ...seller, jwt: await signInAgain(seller) };
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Riga' }).format(t.clock.now());
    expect((await list(owner, '?status=PAID')).body.data.items.map((i: { amount_cents: number }) => i.amount_cents)).toEqual([
      100,
    ]);
    expect(
      (await list(owner, '?status=HOLD&type=PAYIN')).body.data.items.map((i: { amount_cents: number }) => i.amount_cents),
    ).toEqual([200]);
    expect(
      (await list(owner, `?from=${today}&to=${today}`)).body.data.items.map((i: { amount_cents: number }) => i.amount_cents),
    ).toEqual([200]);
    expect((await list(owner, '?type=PAYOUT')).body.data.items).toEqual([]);
  });

  it('refuses bad filters with 422 and other users with 404', async () => {
    const owner = await staff();
    const other = await staff();
    for (const query of [
      '?status=LOST',
      '?from=2026-13-01',
      '?limit=0',
      '?limit=1000',
      '?cursor=bm9wZQ',
      '?from=2026-11-20&to=2026-11-01',
    ]) {
      expect((await list(owner, query)).status).toBe(422);
    }
    for (const url of [
      `/api/clients/${owner.clientId}/transactions`,
      `/api/clients/${owner.clientId}/transactions.csv`,
      `/api/clients/${owner.clientId}/overview`,
    ]) {
      expect((await t.call({ method: 'GET', url, token: other.jwt })).status).toBe(404);
      expect((await t.call({ method: 'GET', url })).status).toBe(401);
    }
  });

  it("exports the filtered history as CSV, with guests' formulas neutralised", async () => {
    const owner = await staff();
    await receive(owner, 1_234, { message: '=HYPERLINK("http://evil")', rating: 4 });
    const csv = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/transactions.csv?status=HOLD`,
      token: owner.jwt,
    });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    const [header, row] = String(csv.body).trim().split('\r\n');
    expect(header).toBe('id,type,status,amount,fee,currency,created_at,settled_at,description,message,rating');
    expect(row).toContain(',PAYIN,HOLD,12.34,0.00,EUR,');
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")",4`);
  });

  it('sums today, this week and this month, counts tips and averages ratings on the overview', async () => {
    const owner = await staff();
    await receive(owner, 500, { rating: 5 });
    await receive(owner, 300, { rating: 4 });
    const overview = await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/overview`, token: owner.jwt });
    expect(overview.body.data).toMatchObject({
      received_today_cents: 800,
      received_week_cents: 800,
      received_month_cents: 800,
      tip_count: 2,
      average_rating: 4.5,
    });
    expect(overview.body.data.latest).toHaveLength(2);
    t.clock.advance(40 * 24 * HOUR);
    const later = await t.call({
      method: 'GET',
      url: `/api/clients/${owner.clientId}/overview`,
      token: await signInAgain(owner),
    });
    expect(later.body.data).toMatchObject({ received_today_cents: 0, received_month_cents: 0, tip_count: 2 });
  });

  it("stores what happened and writes it in the reader's language; rows older than details keep their text", async () => {
    const owner = await staff();
    await receive(owner, 700);
    const inFrench = (url: string) =>
      t.call({ method: 'GET', url, token: owner.jwt, headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' } });
    const [row] = (await inFrench(`/api/clients/${owner.clientId}/transactions`)).body.data.items;
    expect(row).toMatchObject({ detail: { kind: 'tip', card: 'Bar Riga' }, description: 'Pourboire via Bar Riga' });
    expect((await inFrench(`/api/clients/${owner.clientId}/overview`)).body.data.latest[0].description).toBe(
      'Pourboire via Bar Riga',
    );
    expect(String((await inFrench(`/api/clients/${owner.clientId}/transactions.csv`)).body)).toContain(
      ',Pourboire via Bar Riga,',
    );
    expect((await list(owner)).body.data.items[0].description).toBe('Tip via Bar Riga');
    // The back office reads the stored English line.
    const [stored] = await t.app.db.select().from(transactions).where(eq(transactions.userId, owner.userId));
    expect(stored!.description).toBe('Tip via Bar Riga');

    await t.app.db
      .update(transactions)
      .set({ detail: null, description: 'Tip via Old Bar' })
      .where(eq(transactions.userId, owner.userId));
    expect((await inFrench(`/api/clients/${owner.clientId}/transactions`)).body.data.items[0]).toMatchObject({
      description: 'Tip via Old Bar',
    });
    expect((await inFrench(`/api/clients/${owner.clientId}/transactions`)).body.data.items[0].detail).toBeUndefined();
  });
});
