import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '@tipcard/shared/money/format';
import { donationPlans, donations } from '../../db/schema/donations.ts';
import { textOfPdf } from '../../test/pdf.ts';
import { payAtSandboxCheckout } from '../../test/sandbox-events.ts';
import { createTestApp, signUpWithCard, type TestApp } from '../../test/test-app.ts';
import { checkLedgerInvariants } from '../transactions/transactions.service.ts';
import { chargeDateOf } from './charge-date.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SANDBOX_WEBHOOK_DELAY_MS: '60000', FEE_PERCENT: '5' } });
});
afterAll(() => t.close());

const DAY = 86_400_000;
let donors = 0;
const moveTo = (when: Date) => t.clock.advance(Math.max(0, when.getTime() - t.clock.now().getTime()));
const planOf = async (id: string) => (await t.app.db.select().from(donationPlans).where(eq(donationPlans.id, id)))[0]!;
const giftsOf = (planId: string) => t.app.db.select().from(donations).where(eq(donations.planId, planId));
const mailTo = async (email: string) =>
  (await t.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}&limit=200` })).body.data as {
    body: string;
  }[];
const linksIn = (mail: string) => [...mail.matchAll(/\/actions\/([0-9a-f]{64})/g)].map((match) => match[1]!);
const describeLink = (token: string) => t.call({ method: 'GET', url: `/api/public/actions/${token}` });
const confirm = (token: string, body: object = {}) => {
  donors += 1;
  return t.call({
    method: 'POST',
    url: `/api/public/actions/${token}`,
    payload: body,
    remoteAddress: `10.40.${Math.floor(donors / 250)}.${donors % 250}`,
  });
};

/**
 * A running monthly plan, and the links of its first receipt e-mail: the payer's receipt (docs/decisions/0042), the
 * year's statement, cancel, pause, change.
 */
async function startedPlan() {
  const staff = await signUpWithCard(t, { activity_type: 'DONATION', public_name: 'Bērnu fonds' });
  const email = `donor-${crypto.randomUUID()}@example.com`;
  donors += 1;
  const started = await t.call({
    method: 'POST',
    url: `/api/public/cards/${staff.cardId}/donations`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: {
      donor_name: 'Ana García',
      email,
      donor_code: 'X1234567L',
      amount_cents: 1_000,
      cover_fee: false,
      monthly: true,
      locale: 'es',
      terms_accepted: true,
    },
    remoteAddress: `10.41.${Math.floor(donors / 250)}.${donors % 250}`,
  });
  const payment = started.body.data;
  await payAtSandboxCheckout(t, payment);
  t.clock.advance(5_000);
  await t.app.services.payments.getPublicPayment(payment.id);
  const [gift] = await t.app.db.select().from(donations).where(eq(donations.paymentId, payment.id));
  const planId = gift!.planId!;
  const first = (await mailTo(email))[0]!.body;
  const receipt = /\/es\/receipts\/([0-9a-f]{64})/.exec(first)![1]!;
  const [statement, cancel, pause, change] = linksIn(first);
  return { staff, email, planId, receipt: receipt!, statement: statement!, cancel: cancel!, pause: pause!, change: change! };
}

/** A running monthly plan and the links of the e-mail before its next charge: cancel, pause, change; and the receipt's. */
async function planWithReminder() {
  const { staff, email, planId, receipt, statement } = await startedPlan();
  moveTo(new Date((await planOf(planId)).nextChargeAt!.getTime() - 3 * DAY + 60_000));
  await t.runJob('donations.remind');
  const [cancel, pause, change] = linksIn((await mailTo(email))[0]!.body);
  return { staff, email, planId, cancel: cancel!, pause: pause!, change: change!, receipt, statement };
}

/** Charges whatever is due a minute after the plan's month `period`; answers this plan's gifts by then. */
async function chargeAt(planId: string, period: number) {
  moveTo(new Date(chargeDateOf((await planOf(planId)).startedAt!, period).getTime() + 60_000));
  await t.runJob('donations.charge');
  return giftsOf(planId);
}

describe('the signed links in a monthly donor’s e-mails', () => {
  it('cancel: says what it will do, takes one of two confirmations at once, and no month is charged after', async () => {
    const { planId, cancel, staff } = await planWithReminder();
    // Through the service: the clock has moved a month past the sign-in's token.
    const listed = () => t.app.services.donations.list(staff.userId, staff.clientId);
    expect(await listed()).toMatchObject([{ kind: 'monthly', plan: 'active' }]);
    const shown = await describeLink(cancel);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      kind: 'cancel',
      state: 'ready',
      plan: { recipient_name: 'Bērnu fonds', donor_name: 'Ana García', amount_cents: 1_000, status: 'active' },
    });

    const answers = await Promise.all([confirm(cancel), confirm(cancel)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('action_link_used');
    expect((await planOf(planId)).status).toBe('canceled');
    // The charity's list no longer shows the gift as a running monthly one.
    expect(await listed()).toMatchObject([{ kind: 'monthly', plan: 'ended' }]);
    expect((await describeLink(cancel)).body.data.state).toBe('used');
    expect(await chargeAt(planId, 1)).toHaveLength(1);
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('the first e-mail, the receipt, already carries working pause and change links, as the form promises', async () => {
    const { planId, email, pause, change } = await startedPlan();
    const mail = (await mailTo(email))[0]!.body;
    expect(mail).toContain('Pausarla de uno a tres meses');
    // Its links open their page in the e-mail's language (a Spanish head and page, whatever the browser says).
    expect(mail).toContain(`${t.app.config.publicUrl}/es/actions/${pause}`);
    expect((await describeLink(pause)).body.data).toMatchObject({ kind: 'pause', state: 'ready' });
    expect((await describeLink(change)).body.data).toMatchObject({ kind: 'change_amount', state: 'ready' });
    expect((await confirm(change, { amount_cents: 1_500 })).status).toBe(200);
    expect((await planOf(planId)).amountCents).toBe(1_500);
    expect((await confirm(pause, { months: 1 })).status).toBe(200);
    expect((await planOf(planId)).status).toBe('paused');
  });

  it('pause: skips the chosen months once, even when confirmed twice at once, then charges again', async () => {
    const { planId, pause } = await planWithReminder();
    expect((await confirm(pause, { months: 4 })).status).toBe(422);
    expect((await confirm(pause, {})).status).toBe(422);
    const answers = await Promise.all([confirm(pause, { months: 2 }), confirm(pause, { months: 2 })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const paused = await planOf(planId);
    expect(paused).toMatchObject({ status: 'paused', period: 3 });
    expect(answers.find((answer) => answer.status === 200)!.body.data.plan.next_charge_at).toBe(
      chargeDateOf(paused.startedAt!, 3).toISOString(),
    );
    expect(await chargeAt(planId, 1)).toHaveLength(1);
    expect(await chargeAt(planId, 2)).toHaveLength(1);
    const resumed = await chargeAt(planId, 3);
    expect(resumed.map((gift) => [gift.period, gift.status]).sort()).toEqual([
      [0, 'succeeded'],
      [3, 'succeeded'],
    ]);
    expect((await planOf(planId)).status).toBe('active');
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('change: one of two new amounts at once wins, and the next month charges it', async () => {
    const { planId, change } = await planWithReminder();
    const answers = await Promise.all([confirm(change, { amount_cents: 1_500 }), confirm(change, { amount_cents: 2_500 })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const amount = answers.find((answer) => answer.status === 200)!.body.data.plan.amount_cents;
    expect([1_500, 2_500]).toContain(amount);
    expect((await planOf(planId)).amountCents).toBe(amount);
    const gifts = await chargeAt(planId, 1);
    expect(gifts.find((gift) => gift.period === 1)).toMatchObject({ amountCents: amount, status: 'succeeded' });
    expect(await checkLedgerInvariants(t.app.db)).toEqual([]);
  });

  it('a forged, altered or expired link says so and changes nothing', async () => {
    const { planId, cancel, pause } = await planWithReminder();
    const altered = `${cancel.slice(0, 63)}${cancel.at(-1) === '0' ? '1' : '0'}`;
    const otherId = `${crypto.randomUUID().replaceAll('-', '')}${cancel.slice(32)}`;
    for (const forged of [altered, otherId, 'nonsense', cancel.slice(0, 32)]) {
      expect((await describeLink(forged)).status).toBe(404);
      expect((await confirm(forged)).status).toBe(404);
    }
    moveTo(new Date(t.clock.now().getTime() + 36 * DAY));
    expect((await describeLink(cancel)).body.data.state).toBe('expired');
    const late = await confirm(cancel);
    expect([late.status, late.body.code]).toEqual([410, 'action_link_expired']);
    expect((await confirm(pause, { months: 1 })).status).toBe(410);
    expect(await planOf(planId)).toMatchObject({ status: 'active', period: 1, amountCents: 1_000 });
  });

  it('a link of a plan that has ended changes nothing, and the used link stays unused', async () => {
    const { planId, cancel, pause } = await planWithReminder();
    expect((await confirm(cancel)).status).toBe(200);
    const refused = await confirm(pause, { months: 1 });
    expect([refused.status, refused.body.code]).toEqual([422, 'donation_plan_ended']);
    expect((await describeLink(pause)).body.data.state).toBe('ready');
    expect((await planOf(planId)).status).toBe('canceled');
  });

  it('downloads the receipt and the year’s statement as PDFs with the donor, code, recipient, payments and total', async () => {
    const { planId, receipt, statement } = await planWithReminder();
    await chargeAt(planId, 1);
    const pdfText = async (token: string) => {
      const answer = await t.app.inject({ method: 'POST', url: `/api/public/actions/${token}`, payload: {} });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('application/pdf');
      return textOfPdf(answer.rawPayload);
    };
    const receiptPdf = await t.app.inject({ method: 'GET', url: `/es/receipts/${receipt}/receipt.pdf` });
    expect(receiptPdf.headers['content-type']).toBe('application/pdf');
    const receiptText = await textOfPdf(receiptPdf.rawPayload);
    expect(receiptText).toContain('Recibo ');
    expect(receiptText).toContain('Ana García');
    expect(receiptText).toContain('X1234567L');
    expect(receiptText).toContain('Bērnu fonds');
    // The statement is of the year the link was sent in: the payments of that year at the time it is opened.
    const statementText = await pdfText(statement);
    const year = (await planOf(planId)).startedAt!.getUTCFullYear();
    expect(statementText).toContain(`Resumen de donaciones ${year}`);
    const paidThatYear = (await giftsOf(planId)).filter(
      (gift) => gift.status === 'succeeded' && gift.createdAt.getUTCFullYear() === year,
    );
    expect(paidThatYear.length).toBeGreaterThan(0);
    expect(statementText).toMatch(new RegExp(`Total .*${formatMoney(paidThatYear.length * 1_000, 'es')}`));
    expect(statementText.match(/Mensual/g)).toHaveLength(paidThatYear.length);
    // Downloads can be opened again.
    expect((await t.app.inject({ method: 'POST', url: `/api/public/actions/${statement}`, payload: {} })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/es/receipts/${receipt}/receipt.pdf` })).statusCode).toBe(200);
  });
});

describe('the recipient’s view of monthly donations', () => {
  it('lists monthly gifts marked as such, and counts active monthly donors and their monthly total on the overview', async () => {
    const { staff, cancel } = await startedPlan();
    const overview = async () =>
      (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/overview`, token: staff.jwt })).body.data
        .monthly_donations;
    expect(await overview()).toEqual({ donors: 1, total_cents: 1_000 });
    const list = (await t.call({ method: 'GET', url: `/api/clients/${staff.clientId}/donations`, token: staff.jwt })).body.data;
    expect(list).toEqual([
      expect.objectContaining({ kind: 'monthly', donor_name: 'Ana García', amount_cents: 1_000, status: 'succeeded' }),
    ]);
    expect((await confirm(cancel)).status).toBe(200);
    expect(await overview()).toEqual({ donors: 0, total_cents: 0 });
    const other = await signUpWithCard(t);
    expect(
      (await t.call({ method: 'GET', url: `/api/clients/${other.clientId}/overview`, token: other.jwt })).body.data
        .monthly_donations,
    ).toEqual({ donors: 0, total_cents: 0 });
  });
});

describe('the annual statement', () => {
  it('is e-mailed each January for the past year, once, with a link to the PDF of that year’s gifts', async () => {
    const { email, planId } = await startedPlan();
    const year = (await planOf(planId)).startedAt!.getUTCFullYear();
    const statementMails = async () =>
      (await mailTo(email)).filter((mail) => mail.body.includes(`Subject: Tu resumen de donaciones de ${year}`));
    moveTo(new Date(Date.UTC(year, 11, 31, 12)));
    await t.runJob('donations.statements');
    expect(await statementMails()).toHaveLength(0);
    moveTo(new Date(Date.UTC(year + 1, 0, 1, 9, 1)));
    await t.runJob('donations.statements');
    await t.runJob('donations.statements');
    const [mail, ...more] = await statementMails();
    expect(more).toHaveLength(0);
    const [link] = linksIn(mail!.body);
    const shown = await describeLink(link!);
    expect(shown.body.data).toMatchObject({ kind: 'statement', state: 'ready', year });
    const pdf = await t.app.inject({ method: 'POST', url: `/api/public/actions/${link}`, payload: {} });
    const text = await textOfPdf(pdf.rawPayload);
    const paid = (await giftsOf(planId)).filter(
      (gift) => gift.status === 'succeeded' && gift.createdAt.getUTCFullYear() === year,
    );
    expect(text.match(/Mensual/g)).toHaveLength(paid.length);
    expect(text).toContain(formatMoney(paid.length * 1_000, 'es'));
    // The plan goes on: next January brings this year's statement.
    expect((await planOf(planId)).statementDueAt?.toISOString()).toBe(new Date(Date.UTC(year + 2, 0, 1, 9)).toISOString());
  });
});
