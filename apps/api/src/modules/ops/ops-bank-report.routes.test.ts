import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { userBalances } from '../ledger/ledger.service.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { buildCamt054, buildPain002, expectValidBankReport, type BankAnswer } from '../payouts/bank-report.test-support.ts';
import { fundMain, SEPA_METHOD, withdraw } from '../payouts/payouts.test-support.ts';
import { signInOperator } from './ops.test-support.ts';

type Operator = Awaited<ReturnType<typeof signInOperator>>;

describe("importing the bank's status report of a payout batch", () => {
  let t: TestApp;
  let finance: Operator;
  let finance2: Operator;
  beforeAll(async () => {
    // Twenty-odd users sign up here: the per-IP sign-up limit is not what this suite tests.
    t = await createTestApp({
      env: { FEE_PERCENT: '0', HOLD_HOURS: '0', PAYOUT_RAIL: 'files', VERIFICATION_LIMIT_CENTS: '100000', RATE_LIMITS: 'off' },
    });
    finance = await signInOperator(t, 'finance');
    finance2 = await signInOperator(t, 'finance');
  });
  afterAll(() => t.close());
  afterEach(async () => expect(await checkLedgerInvariants(t.app.db)).toEqual([]));

  const auditCount = async () => (await t.app.services.ops.listAudit({}, 10_000)).length;

  /** `count` users who each withdrew 500 of their 900 cents to a SEPA account, in one batch: its id and real pain.001. */
  async function batchOf(count: number, { sent = true } = {}) {
    const payouts: { payoutId: string; userId: string; clientId: string; jwt: string }[] = [];
    for (let i = 0; i < count; i++) {
      const owner = await signUpWithCard(t);
      await fundMain(t, owner, 900);
      const methodId = (
        await t.call({
          method: 'POST',
          url: `/api/clients/${owner.clientId}/payout-methods`,
          token: owner.jwt,
          payload: SEPA_METHOD,
        })
      ).body.data.id;
      const { created, confirmed } = await withdraw(t, owner, 500, methodId);
      expect(confirmed.status).toBe(200);
      payouts.push({ payoutId: created.body.data.id as string, userId: owner.userId, clientId: owner.clientId, jwt: owner.jwt });
    }
    const made = await t.call({
      method: 'POST',
      url: '/api/ops/payout-batches',
      token: finance.opsToken,
      payload: { kind: 'sepa' },
    });
    const batchId = made.body.data.batch.id as string;
    const pain001 = (await t.call({ method: 'GET', url: `/api/ops/payout-batches/${batchId}/file`, token: finance.opsToken }))
      .body as string;
    if (sent) await t.call({ method: 'POST', url: `/api/ops/payout-batches/${batchId}/sent`, token: finance.opsToken });
    return { batchId, pain001, payouts };
  }

  const answer = (payoutId: string, outcome: BankAnswer['outcome'], reason?: string): BankAnswer => ({
    payoutId,
    amountCents: 500,
    outcome,
    reason,
  });
  const post = (operator: Operator, batchId: string, file: string, step: 'preview' | 'import' = 'import') =>
    t.call({
      method: 'POST',
      url: `/api/ops/payout-batches/${batchId}/bank-report${step === 'preview' ? '/preview' : ''}`,
      token: operator.opsToken,
      payload: { file },
    });
  /** The batch's payouts as the back office shows them, in the order of `order` (the order this test made them). */
  async function statuses(batchId: string, order: { payoutId: string }[]) {
    const detail = await t.call({ method: 'GET', url: `/api/ops/payout-batches/${batchId}`, token: finance.opsToken });
    const shown = detail.body.data.payouts as { id: string; status: string; return_reason: string | null }[];
    return order.map(({ payoutId }) => {
      const payout = shown.find((one) => one.id === payoutId)!;
      return { id: payout.id, status: payout.status, return_reason: payout.return_reason };
    });
  }

  /** Preview, then import: the preview changes nothing; the import marks the payouts; the same file again changes nothing. */
  async function previewAndImport(
    { batchId, payouts }: { batchId: string; payouts: { payoutId: string }[] },
    file: string,
    expected: { paid: number; returned: number; unchanged: number },
  ) {
    const before = await statuses(batchId, payouts);
    const preview = await post(finance, batchId, file, 'preview');
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject(expected);
    expect(await statuses(batchId, payouts)).toEqual(before);

    const audits = await auditCount();
    const imported = await post(finance, batchId, file);
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject(expected);
    // One record per payout moved, and one of the import.
    expect((await auditCount()) - audits).toBe(expected.paid + expected.returned + 1);
    const record = (await t.app.services.ops.listAudit({ subjectId: batchId }))[0]!;
    expect(record).toMatchObject({
      operator_id: finance.id,
      action: 'payout_batch.bank_report',
      after: { report_message_id: imported.body.data.message_id, ...expected },
    });

    const again = await post(finance, batchId, file);
    expect(again.body.data).toMatchObject({
      paid: 0,
      returned: 0,
      unchanged: expected.paid + expected.returned + expected.unchanged,
    });
    return imported.body.data as {
      lines: { payout_id: string; reported: string; reason_code: string | null; change: string | null }[];
    };
  }

  it('pain.002.001.10: a settled payout is paid, a rejected one returned with its reason in the user’s language, one in flight stays', async () => {
    const { batchId, pain001, payouts } = await batchOf(3);
    const [paid, returned, pending] = payouts as [(typeof payouts)[0], (typeof payouts)[0], (typeof payouts)[0]];
    const file = buildPain002('pain.002.001.10', pain001, [
      answer(paid.payoutId, 'paid'),
      answer(returned.payoutId, 'returned', 'AC04'),
      answer(pending.payoutId, 'pending'),
    ]);
    await expectValidBankReport(file, 'pain.002.001.10');
    const result = await previewAndImport({ batchId, payouts }, file, { paid: 1, returned: 1, unchanged: 1 });
    expect(result.lines.map((line) => [line.payout_id, line.reported, line.reason_code])).toEqual(
      expect.arrayContaining([
        [paid.payoutId, 'paid', null],
        [returned.payoutId, 'returned', 'AC04'],
        [pending.payoutId, 'pending', null],
      ]),
    );
    expect((await statuses(batchId, payouts)).map((payout) => [payout.status, payout.return_reason])).toEqual([
      ['paid', null],
      ['returned', 'AC04 Closed account number'],
      ['in_flight', null],
    ]);
    expect(await userBalances(t.app.db, paid.userId)).toMatchObject({ main: 200 });
    expect(await userBalances(t.app.db, returned.userId)).toMatchObject({ main: 900 });
    // The user's own history names the reason by its code, which their app shows in their language.
    const mine = await t.call({ method: 'GET', url: `/api/payouts/${returned.payoutId}`, token: returned.jwt });
    expect(mine.body.data).toMatchObject({ status: 'returned', return_reason: 'AC04' });
  });

  it('pain.002.001.03 (EPC): the rejected payouts are returned with their reason, the ones it does not name stay in flight', async () => {
    const { batchId, pain001, payouts } = await batchOf(2);
    const file = buildPain002('pain.002.001.03', pain001, [answer(payouts[0]!.payoutId, 'returned', 'AM04')]);
    await expectValidBankReport(file, 'pain.002.001.03');
    const result = await previewAndImport({ batchId, payouts }, file, { paid: 0, returned: 1, unchanged: 1 });
    const reported = Object.fromEntries(result.lines.map((line) => [line.payout_id, line.reported]));
    expect(payouts.map((payout) => reported[payout.payoutId])).toEqual(['returned', 'not_reported']);
    expect((await statuses(batchId, payouts)).map((payout) => payout.return_reason)).toEqual(['AM04 Insufficient funds', null]);
  });

  it('a whole file rejected by its group status returns each payout with the group’s reason', async () => {
    const { batchId, pain001, payouts } = await batchOf(2);
    const file = buildPain002('pain.002.001.10', pain001, [], { groupStatus: 'RJCT' }).replace(
      '<GrpSts>RJCT</GrpSts>',
      '<GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>RC01</Cd></Rsn></StsRsnInf>',
    );
    await expectValidBankReport(file, 'pain.002.001.10');
    await previewAndImport({ batchId, payouts }, file, { paid: 0, returned: 2, unchanged: 0 });
    expect((await statuses(batchId, payouts)).map((payout) => payout.return_reason)).toEqual([
      'RC01 Bank identifier incorrect',
      'RC01 Bank identifier incorrect',
    ]);
  });

  for (const format of ['camt.054.001.08', 'camt.054.001.02'] as const) {
    it(`${format}: a booked debit is paid, a returned credit is returned with its reason`, async () => {
      const { batchId, pain001, payouts } = await batchOf(2);
      const file = buildCamt054(format, pain001, [
        answer(payouts[0]!.payoutId, 'paid'),
        answer(payouts[1]!.payoutId, 'returned', 'RR03'),
      ]);
      await expectValidBankReport(file, format);
      await previewAndImport({ batchId, payouts }, file, { paid: 1, returned: 1, unchanged: 0 });
      expect((await statuses(batchId, payouts)).map((payout) => [payout.status, payout.return_reason])).toEqual([
        ['paid', null],
        ['returned', "RR03 Missing creditor's name or address"],
      ]);
    });
  }

  it('a payout already settled by hand is reported unchanged', async () => {
    const { batchId, pain001, payouts } = await batchOf(2);
    await t.call({
      method: 'POST',
      url: `/api/ops/payouts/${payouts[0]!.payoutId}/outcome`,
      token: finance.opsToken,
      payload: { outcome: 'returned', reason_code: 'AC01' },
    });
    const file = buildPain002(
      'pain.002.001.10',
      pain001,
      payouts.map((payout) => answer(payout.payoutId, 'paid')),
    );
    const result = await previewAndImport({ batchId, payouts }, file, { paid: 1, returned: 0, unchanged: 1 });
    expect(result.lines.find((line) => line.payout_id === payouts[0]!.payoutId)).toMatchObject({
      reported: 'paid',
      change: null,
    });
    expect((await statuses(batchId, payouts)).map((payout) => payout.status)).toEqual(['returned', 'paid']);
  });

  it('refuses, changing nothing: a batch not sent, not XML, another message type, an invalid file, a foreign file, a huge file', async () => {
    const unsent = await batchOf(1, { sent: false });
    const { batchId, pain001, payouts } = await batchOf(2);
    const other = await batchOf(1);
    const good = (xml = pain001) => buildPain002('pain.002.001.10', xml, [answer(payouts[0]!.payoutId, 'paid')]);
    const refusals: [string, string, string, number, string][] = [
      [
        'not sent',
        unsent.batchId,
        buildPain002('pain.002.001.10', unsent.pain001, [answer(unsent.payouts[0]!.payoutId, 'paid')]),
        409,
        'batch_not_sent',
      ],
      ['not XML', batchId, 'MsgId;EndToEndId;Status\nTC1;abc;ACSC\n', 422, 'bank_report_not_xml'],
      ['malformed', batchId, good().replace('</CstmrPmtStsRpt>', ''), 422, 'bank_report_not_xml'],
      [
        'entities',
        batchId,
        `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "y">]>${good().slice(good().indexOf('<Document'))}`,
        422,
        'bank_report_not_xml',
      ],
      ['our own pain.001', batchId, pain001, 422, 'bank_report_unsupported'],
      ['another ISO message', batchId, good().replaceAll('pain.002.001.10', 'pain.002.001.11'), 422, 'bank_report_unsupported'],
      ['invalid', batchId, good().replace('<TxSts>ACSC</TxSts>', '<TxSts>SETTLED</TxSts>'), 422, 'bank_report_invalid'],
      [
        'another message id',
        batchId,
        buildPain002('pain.002.001.10', pain001, [answer(payouts[0]!.payoutId, 'paid')], { originalMessageId: 'TCOTHERFILE' }),
        422,
        'bank_report_foreign',
      ],
      [
        'another batch’s payout',
        batchId,
        good().replace(payouts[0]!.payoutId.replaceAll('-', ''), other.payouts[0]!.payoutId.replaceAll('-', '')),
        422,
        'bank_report_foreign',
      ],
      [
        'another batch’s file',
        batchId,
        buildCamt054('camt.054.001.08', other.pain001, [answer(other.payouts[0]!.payoutId, 'paid')]),
        422,
        'bank_report_foreign',
      ],
      ['too large', batchId, `${good()}<!--${'x'.repeat(2 * 1024 * 1024)}-->`, 413, 'payload_too_large'],
    ];
    const before = [await statuses(batchId, payouts), await statuses(unsent.batchId, unsent.payouts)];
    const audits = await auditCount();
    for (const [what, batch, file, status, code] of refusals) {
      for (const step of ['preview', 'import'] as const) {
        const refused = await post(finance, batch, file, step);
        expect([refused.status, refused.body.code], `${what} (${step})`).toEqual([status, code]);
      }
    }
    const invalid = await post(finance, batchId, refusals[6]![2], 'preview');
    expect(invalid.body.validation_errors.file[0]).toMatch(/^pain\.002\.001\.10: .*TxSts.*maxLength/);
    expect([await statuses(batchId, payouts), await statuses(unsent.batchId, unsent.payouts)]).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('two operators importing one file at once mark each payout once, and the ledger agrees', async () => {
    const { batchId, pain001, payouts } = await batchOf(4);
    const file = buildPain002(
      'pain.002.001.10',
      pain001,
      payouts.map((payout, index) =>
        answer(payout.payoutId, index % 2 === 0 ? 'paid' : 'returned', index % 2 === 0 ? undefined : 'MS03'),
      ),
    );
    const answers = await Promise.all([post(finance, batchId, file), post(finance2, batchId, file)]);
    expect(answers.map((one) => one.status)).toEqual([200, 200]);
    const total = (key: 'paid' | 'returned') => answers.reduce((sum, one) => sum + (one.body.data[key] as number), 0);
    expect([total('paid'), total('returned')]).toEqual([2, 2]);
    const moves = (await t.app.services.ops.listAudit({}, 10_000)).filter(
      (record) => payouts.some((payout) => payout.payoutId === record.subject_id) && record.action.startsWith('payout.'),
    );
    expect(moves).toHaveLength(4);
    for (const [index, payout] of payouts.entries())
      expect(await userBalances(t.app.db, payout.userId)).toMatchObject({ main: index % 2 === 0 ? 200 : 900 });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });
});
