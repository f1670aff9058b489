import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOfPdf } from '../../test/pdf.ts';
import { receiveTip } from '../../test/sandbox-events.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { teamFixtures, type Staff } from './teams.fixtures.ts';

const HOUR = 3_600_000;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const { staff, team, later } = teamFixtures(() => t);

const records = (who: Staff, path: string, query: Record<string, string>, language = 'en') =>
  t.app.inject({
    method: 'GET',
    url: `/api/${path}/tip-records?${new URLSearchParams(query).toString()}`,
    headers: { authorization: `Bearer ${who.jwt}`, 'accept-language': language },
  });

/** CSV rows as objects by column name (no cell in these tests holds a comma or quote). */
function parseCsv(text: string) {
  const [header, ...lines] = text.trim().split('\r\n');
  const columns = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [columns[i]!, cell])));
}

describe('tip allocation records', () => {
  it('gives a member their own records, also after leaving, and the admin every member’s, summing to each tip', async () => {
    const { id, card_id, admin, members } = await team(3);
    const [, bob, carol] = members as [Staff, Staff, Staff];
    const from = t.clock.now().toISOString();
    await receiveTip(t, card_id, 1_000);
    await later(HOUR, ...members);
    await receiveTip(t, card_id, 2_001);
    const to = new Date(t.clock.now().getTime() + HOUR).toISOString();
    // Carol leaves: her records stay hers to download.
    expect((await t.call({ method: 'POST', url: `/api/teams/${id}/leave`, token: carol.jwt })).status).toBe(200);

    const teamCsv = await records(admin, `teams/${id}`, { from, to, format: 'csv' });
    expect(teamCsv.statusCode).toBe(200);
    expect(teamCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(teamCsv.headers['content-disposition']).toMatch(
      /^attachment; filename="tipcard-team-tip-records-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const rows = parseCsv(teamCsv.body);
    expect(rows).toHaveLength(6);
    for (const reference of new Set(rows.map((row) => row.payment_reference))) {
      const ofTip = rows.filter((row) => row.payment_reference === reference);
      const cents = (value: string) => Math.round(Number(value) * 100);
      // The shares of each tip add up to exactly what the members received of it, and its fee likewise.
      expect(ofTip.reduce((sum, row) => sum + cents(row.share!), 0)).toBe(cents(ofTip[0]!.tip_to_members!));
      expect(ofTip.reduce((sum, row) => sum + cents(row.share_of_fee!), 0)).toBe(cents(ofTip[0]!.tip_fee!));
      expect(ofTip.map((row) => row.rule)).toEqual(['even', 'even', 'even']);
    }
    expect(rows.map((row) => row.tip_to_members)).toEqual(['9.50', '9.50', '9.50', '19.01', '19.01', '19.01']);

    const carolCsv = parseCsv((await records(carol, `clients/${carol.clientId}`, { from, to, format: 'csv' })).body);
    expect(carolCsv.map((row) => [row.member_id, row.team, row.share])).toEqual([
      [carol.userId, 'Bar Riga', '3.16'],
      [carol.userId, 'Bar Riga', '6.33'],
    ]);

    const pdf = await records(bob, `clients/${bob.clientId}`, { from, to, format: 'pdf', time_zone: 'Europe/Paris' }, 'fr');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await textOfPdf(pdf.rawPayload);
    expect(text).toContain('Registre de répartition des pourboires');
    expect(text).toContain('Bar Riga');
    expect(text).toContain('1 sur 3');
    expect(text).toContain('Heures : Europe/Paris');
    const bobTotal = (await t.call({ method: 'GET', url: `/api/teams/${id}/tip-shares`, token: bob.jwt })).body.data.reduce(
      (sum: number, share: { net_cents: number }) => sum + share.net_cents,
      0,
    );
    expect(text).toContain(`${(bobTotal / 100).toFixed(2).replace('.', ',')}`);

    const teamPdf = await textOfPdf((await records(admin, `teams/${id}`, { from, to, format: 'pdf' })).rawPayload);
    expect(teamPdf).toContain('Tip allocation records');
    expect(teamPdf).toContain('Total for Anna');
  });

  it('refuses the team’s records to a member who is not its admin and to others, and a bad period, changing nothing', async () => {
    const { id, members } = await team(2);
    const [, bob] = members as [Staff, Staff];
    const stranger = await staff('Zane');
    const period = { from: t.clock.now().toISOString(), to: new Date(t.clock.now().getTime() + HOUR).toISOString() };
    expect((await records(bob, `teams/${id}`, { ...period, format: 'csv' })).statusCode).toBe(403);
    expect((await records(stranger, `teams/${id}`, { ...period, format: 'csv' })).statusCode).toBe(404);
    expect((await records(stranger, `clients/${bob.clientId}`, { ...period, format: 'csv' })).statusCode).toBe(404);
    const backwards = await records(bob, `clients/${bob.clientId}`, { from: period.to, to: period.from, format: 'csv' });
    expect(backwards.statusCode).toBe(422);
    expect(JSON.parse(backwards.body).validation_errors).toHaveProperty('to');
    const tooLong = await records(bob, `clients/${bob.clientId}`, {
      from: '2025-01-01T00:00:00Z',
      to: '2026-06-01T00:00:00Z',
      format: 'csv',
    });
    expect(tooLong.statusCode).toBe(422);
    expect(
      JSON.parse((await records(bob, `clients/${bob.clientId}`, { ...period, format: 'xlsx' })).body).validation_errors,
    ).toHaveProperty('format');
    expect(
      (await records(bob, `clients/${bob.clientId}`, { ...period, format: 'pdf', time_zone: 'Mars/Olympus' })).statusCode,
    ).toBe(422);
    // An empty period is a file saying so, not an error.
    const empty = await textOfPdf((await records(bob, `clients/${bob.clientId}`, { ...period, format: 'pdf' })).rawPayload);
    expect(empty).toContain('No team tips in this period.');
  });
});
