import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, uniquePhone, type TestApp } from '../test/test-app.ts';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ env: { LOG_LEVEL: 'trace' }, overrides: { logStream: { write: (line) => void lines.push(line) } } });
});
afterAll(() => t.close());

/** Makes every new row of `table` fail inside the database, as a broken migration or a full disk would. */
const breakInserts = (table: string) =>
  t.app.db.execute(sql.raw(`ALTER TABLE ${table} ADD CONSTRAINT h10_broken CHECK (false) NOT VALID`));
const repair = (table: string) => t.app.db.execute(sql.raw(`ALTER TABLE ${table} DROP CONSTRAINT h10_broken`));

describe('the log of a failing query', () => {
  it('names the SQLSTATE and constraint, never the values the request sent', async () => {
    const user = await signUp(t);
    lines.length = 0;

    await breakInserts('payout_methods');
    const iban = 'DE89370400440532013000';
    const method = {
      kind: 'sepa',
      iban,
      bic: 'COBADEFFXXX',
      holder_last_name: 'Kalniņš-Sūna',
      address: 'Zīlēnu iela 77, Jūrmala',
    };
    const methodAnswer = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/payout-methods`,
      token: user.jwt,
      payload: method,
    });
    await repair('payout_methods');

    await breakInserts('verifications');
    const person = {
      kind: 'person',
      first_name: 'Ilze',
      last_name: 'Ozoliņa-Priede',
      birthday: '1988-07-23',
      personal_code: '230788-10456',
      address: 'Ozolu iela 91, Cēsis',
    };
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const document = { content: png, name: 'id.png', mime: 'image/png' };
    const verificationAnswer = await t.call({
      method: 'POST',
      url: `/api/clients/${user.clientId}/verification`,
      token: user.jwt,
      payload: { ...person, document_front: document, document_back: document },
    });
    await repair('verifications');

    await breakInserts('registrations');
    const phone = uniquePhone();
    const registerAnswer = await t.call({
      method: 'POST',
      url: '/api/register',
      payload: { username: phone, age_confirmed: true, terms_accepted: true },
    });
    await repair('registrations');

    for (const answer of [methodAnswer, verificationAnswer, registerAnswer]) {
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ code: 'internal', message: 'Something went wrong' });
    }
    const log = lines.join('');
    const failures = lines.map((line) => JSON.parse(line)).filter((entry) => entry.err?.type === 'DatabaseError');
    expect(failures.length).toBe(3);
    for (const failure of failures) expect(failure.err).toMatchObject({ sqlState: '23514', constraint: 'h10_broken' });
    const sent = [
      iban,
      'DE89 3704',
      'COBADEFFXXX',
      method.holder_last_name,
      method.address,
      ...Object.values(person).slice(1),
      phone,
      phone.slice(1),
      phone.slice(4),
    ];
    for (const value of sent) expect(log, `the log carries ${value}`).not.toContain(value);
  });
});

describe('the log of a signed link', () => {
  it('shows the path of /actions links without their secret', async () => {
    lines.length = 0;
    const token = 'a'.repeat(64);
    await t.call({ method: 'GET', url: `/api/public/actions/${token}` });
    await t.call({ method: 'GET', url: `/actions/${token}?x=1` });
    const log = lines.join('\n');
    expect(log).toContain('/api/public/actions/[redacted]');
    expect(log).not.toContain(token);
  });
});
