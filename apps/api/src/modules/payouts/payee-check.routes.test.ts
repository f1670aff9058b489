import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_PAYEE_ACCOUNTS } from '../../integrations/sandbox-payee-check/sandbox-payee-check.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { PAYOUT_TEST_ENV, SEPA_METHOD, UK_METHOD } from './payouts.test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: PAYOUT_TEST_ENV });
});
afterAll(() => t.close());

type Owner = Awaited<ReturnType<typeof signUpWithCard>>;
const [dupont, , unreachable] = SANDBOX_PAYEE_ACCOUNTS.sepa;
const [smith, ukUnreachable] = SANDBOX_PAYEE_ACCOUNTS.uk;
const sepa = (iban: string, bic: string, name: string, extra: object = {}) => ({
  ...SEPA_METHOD,
  iban,
  bic,
  holder_last_name: name,
  ...extra,
});
const uk = (sortCode: string, accountNumber: string, name: string, extra: object = {}) => ({
  ...UK_METHOD,
  sort_code: sortCode,
  account_number: accountNumber,
  holder_name: name,
  ...extra,
});

const check = (owner: Owner, payload: object, clientId = owner.clientId) =>
  t.call({ method: 'POST', url: `/api/clients/${clientId}/payout-methods/check`, token: owner.jwt, payload });
const add = (owner: Owner, payload: object) =>
  t.call({ method: 'POST', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt, payload });
const list = async (owner: Owner) =>
  (await t.call({ method: 'GET', url: `/api/clients/${owner.clientId}/payout-methods`, token: owner.jwt })).body.data as {
    holder: string;
    payee_check: unknown;
  }[];

describe('POST /clients/{clientId}/payout-methods/check', () => {
  it('gives the four answers for SEPA and UK accounts, with the time, and saves nothing', async () => {
    const owner = await signUpWithCard(t);
    const cases: [object, object][] = [
      [sepa(dupont.iban, dupont.bic, 'Dupont'), { result: 'match', bank_name: null }],
      [sepa(dupont.iban, dupont.bic, 'Dupond'), { result: 'close_match', bank_name: 'Dupont' }],
      [sepa(dupont.iban, dupont.bic, 'Martin'), { result: 'no_match', bank_name: null }],
      [sepa(unreachable.iban, unreachable.bic, 'Schulz'), { result: 'not_possible', bank_name: null }],
      [uk(smith.sortCode, smith.accountNumber, 'Jane Smith'), { result: 'match', bank_name: null }],
      [uk('40-47-84', smith.accountNumber, 'Jane Smyth'), { result: 'close_match', bank_name: 'Jane Smith' }],
      [uk(smith.sortCode, smith.accountNumber, 'John Brown'), { result: 'no_match', bank_name: null }],
      [uk(ukUnreachable.sortCode, ukUnreachable.accountNumber, 'Jane Smith'), { result: 'not_possible', bank_name: null }],
    ];
    for (const [payload, answer] of cases) {
      const response = await check(owner, payload);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...answer, checked_at: t.clock.now().toISOString() });
    }
    expect(await list(owner)).toEqual([]);
  });

  it('refuses a malformed account on its field before asking, and another user’s client', async () => {
    const owner = await signUpWithCard(t);
    const bad = await check(owner, sepa('FR7630006000011234567890188', dupont.bic, 'Dupont'));
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation_failed');
    expect(Object.keys(bad.body.validation_errors)).toEqual(['iban']);
    const noLetters = await check(owner, sepa(dupont.iban, dupont.bic, '1234'));
    expect(noLetters.status).toBe(422);
    expect(Object.keys(noLetters.body.validation_errors)).toEqual(['holder_last_name']);

    const other = await signUpWithCard(t);
    expect((await check(owner, sepa(dupont.iban, dupont.bic, 'Dupont'), other.clientId)).status).toBe(404);
  });

  it('is rate-limited per user', async () => {
    const owner = await signUpWithCard(t);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await check(owner, sepa(dupont.iban, dupont.bic, 'Dupont'))).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});

describe('adding a method after the payee check', () => {
  it('refuses anything but a match without confirm_mismatch, saving nothing', async () => {
    const owner = await signUpWithCard(t);
    for (const payload of [
      sepa(dupont.iban, dupont.bic, 'Martin'),
      sepa(dupont.iban, dupont.bic, 'Dupond'),
      sepa(unreachable.iban, unreachable.bic, 'Schulz'),
      uk(smith.sortCode, smith.accountNumber, 'John Brown', { confirm_mismatch: false }),
    ]) {
      const refused = await add(owner, payload);
      expect(refused.status).toBe(422);
      expect(refused.body.code).toBe('payee_check_unconfirmed');
    }
    expect(await list(owner)).toEqual([]);
  });

  it('saves knowingly with confirm_mismatch and keeps the answer, the bank’s name and the time with the method', async () => {
    const owner = await signUpWithCard(t);
    const kept = await add(owner, sepa(dupont.iban, dupont.bic, 'Dupond', { confirm_mismatch: true }));
    expect(kept.status).toBe(201);
    expect(kept.body.data).toMatchObject({
      holder: 'Dupond',
      payee_check: { result: 'close_match', bank_name: 'Dupont', checked_at: t.clock.now().toISOString() },
    });
    const unchecked = await add(
      owner,
      uk(ukUnreachable.sortCode, ukUnreachable.accountNumber, 'Jane', { confirm_mismatch: true }),
    );
    expect(unchecked.body.data.payee_check).toMatchObject({ result: 'not_possible', bank_name: null });
    expect((await list(owner)).map((method) => [method.holder, method.payee_check])).toEqual([
      ['Dupond', { result: 'close_match', bank_name: 'Dupont', checked_at: t.clock.now().toISOString() }],
      ['Jane', { result: 'not_possible', bank_name: null, checked_at: t.clock.now().toISOString() }],
    ]);
  });

  it('asks again itself: the name the bank holds (the one-tap correction) is saved as a match without confirmation', async () => {
    const owner = await signUpWithCard(t);
    const asked = await check(owner, uk(smith.sortCode, smith.accountNumber, 'Jane Smyth'));
    const corrected = await add(owner, uk(smith.sortCode, smith.accountNumber, asked.body.data.bank_name));
    expect(corrected.status).toBe(201);
    expect(corrected.body.data).toMatchObject({ holder: 'Jane Smith', payee_check: { result: 'match', bank_name: null } });
  });
});
