import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseLanguage, createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { markPayout, payoutRef } from './payouts.service.ts';
import { codeFor, fundMain, SEPA_METHOD } from './payouts.test-support.ts';

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { FEE_PERCENT: '0', HOLD_HOURS: '0', PAYOUT_RAIL: 'files' } });
});
afterAll(() => t.close());

/** A confirmed withdrawal of 3 EUR, asked for in `language`. */
async function payoutInFlight(owner: Owner, language: string) {
  const methodId = (
    await t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt, payload: SEPA_METHOD })
  ).body.data.id;
  const created = await t.call({
    method: 'POST',
    url: `/api/clients/${owner.clientId}/payouts`,
    token: owner.jwt,
    headers: { 'idempotency-key': crypto.randomUUID(), 'accept-language': language },
    payload: { amount_cents: 300, method_id: methodId },
  });
  const id = created.body.data.id as string;
  const code = /\b(\d{6})\b/.exec((await texts(owner)).find((body) => body.includes(payoutRef(id)))!)![1]!;
  const confirmed = await t.call({ method: 'POST', url: `/api/payouts/${id}/confirm`, token: owner.jwt, payload: { code } });
  expect(confirmed.body.data?.status, JSON.stringify(confirmed.body)).toBe('in_flight');
  return id;
}

/** Every text sent to the owner, newest first. */
async function texts(owner: Owner): Promise<string[]> {
  const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?limit=200&to=${encodeURIComponent(owner.phone)}` });
  return (outbox.body.data as { body: string }[]).map((message) => message.body);
}

async function setPayoutTexts(owner: Owner, on: boolean) {
  const url = `/api/clients/${owner.clientId}/notifications`;
  const saved = await t.call({
    method: 'PATCH',
    url,
    token: owner.jwt,
    payload: { sms_support_replies: true, sms_payouts: on, sms_refunds: true },
  });
  expect(saved.body.data).toEqual({ sms_support_replies: true, sms_payouts: on, sms_refunds: true });
}

describe('the texts about a withdrawal the bank paid or returned', () => {
  it('sends one text when it is paid, in the language the user chose since, with the amount written as Latvian does', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 1000);
    const id = await payoutInFlight(owner, 'en');
    await chooseLanguage(t, owner, 'lv');
    const before = (await texts(owner)).length;
    expect(await markPayout(t.app.db, id, 'paid', t.clock.now())).toBe(true);
    expect(await markPayout(t.app.db, id, 'paid', t.clock.now())).toBe(false);
    const after = await texts(owner);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toBe(`Tipcard izmaksa ${payoutRef(id)}: 3,00\u00A0€ ir izmaksāti uz DE•• •••• •••• •••• •••• 3000.`);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('sends one text when the bank returns it, in French for a French user, with the reason', async () => {
    const owner = await signUpWithCard(t);
    await chooseLanguage(t, owner, 'fr');
    await fundMain(t, owner, 1000);
    const id = await payoutInFlight(owner, 'fr-FR,fr;q=0.9');
    const before = (await texts(owner)).length;
    expect(await markPayout(t.app.db, id, 'returned', t.clock.now(), 'AC01 Incorrect account number')).toBe(true);
    const after = await texts(owner);
    expect(after).toHaveLength(before + 1);
    expect(after[0]).toMatch(new RegExp(`^Retrait Tipcard ${payoutRef(id)}\u00A0: la banque a renvoyé les 3,00\u00A0€ envoyés`));
    // The bank's reason, in French too.
    expect(after[0]).toContain('(Numéro de compte erroné)');
  });

  it("writes the texts of the user's own calls in that call's language: an account added and a withdrawal's code, in French", async () => {
    const owner = await signUpWithCard(t);
    // The operator approved this user's identity: from then on, every change of payout account is texted.
    await t.app.db.execute(
      sql`INSERT INTO verifications (user_id, kind, status, details, reviewed_at) VALUES (${owner.userId}, 'person', 'approved', '{}'::jsonb, now())`,
    );
    await fundMain(t, owner, 1000);
    const french = { 'accept-language': 'fr-FR,fr;q=0.9' };
    const method = (
      await t.call({
        method: 'POST',
        url: `/api/clients/${owner.clientId}/payout-methods`,
        token: owner.jwt,
        headers: french,
        payload: SEPA_METHOD,
      })
    ).body.data;
    expect((await texts(owner))[0]).toBe(
      `Votre compte de retrait Tipcard a été modifié\u00A0: ${method.masked_account} a été ajouté. Si ce n’était pas vous, contactez l’assistance immédiatement.`,
    );
    const created = await t.call({
      method: 'POST',
      url: `/api/clients/${owner.clientId}/payouts`,
      token: owner.jwt,
      headers: { ...french, 'idempotency-key': crypto.randomUUID() },
      payload: { amount_cents: 300, method_id: method.id },
    });
    expect((await texts(owner))[0]).toMatch(
      new RegExp(
        `^Retrait Tipcard ${payoutRef(created.body.data.id)}\u00A0: 3,00\u00A0€ vers DE•• •••• •••• •••• •••• 3000\\. Votre code est \\d{6},`,
      ),
    );
  });

  it('sends nothing when the user turned these texts off, while the withdrawal code is still sent', async () => {
    const owner = await signUpWithCard(t);
    await fundMain(t, owner, 2000);
    await setPayoutTexts(owner, false);
    const paid = await payoutInFlight(owner, 'en');
    const returned = await payoutInFlight(owner, 'en');
    expect(await codeFor(t, owner.phone, paid)).toMatch(/^\d{6}$/);
    const before = (await texts(owner)).length;
    expect(await markPayout(t.app.db, paid, 'paid', t.clock.now())).toBe(true);
    expect(await markPayout(t.app.db, returned, 'returned', t.clock.now())).toBe(true);
    expect(await texts(owner)).toHaveLength(before);

    await setPayoutTexts(owner, true);
    const third = await payoutInFlight(owner, 'en');
    expect(await markPayout(t.app.db, third, 'paid', t.clock.now())).toBe(true);
    expect((await texts(owner))[0]).toBe(
      `Tipcard withdrawal ${payoutRef(third)}: €3.00 was paid to DE•• •••• •••• •••• •••• 3000.`,
    );
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
