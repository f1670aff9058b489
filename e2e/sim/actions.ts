/**
 * Every action the simulator can take, as a user, a guest, an operator, the payment provider or a fault. An action is
 * a name and numbers drawn by the seeded PRNG; entities are chosen by index into the world's model (`pickOf`: the
 * number modulo how many there are), so a recorded list replays on a fresh database, where the indices name the
 * entities the replay itself created. Each answers a short line of what it did, or null when there was nothing to
 * act on (skipped).
 *
 * Two actions write to the database directly. The "time jump" (`timeJump`) moves the due times of rows back by 31 days
 * (deletion and erasure times, pending referral checks, monthly donation charges; teams, memberships and the team tips
 * of months not closed, so a team has a past month to close; the end of a closed period's objection window, so it can
 * be locked), as if a month had passed for them,
 * rather than changing the app's clock. The bank's report (`bankReport`) moves payouts the sandbox rail has not
 * settled yet onto the SEPA file rail, the servers' rail being the sandbox. Everything else goes through HTTP.
 */
import { randomUUID } from 'node:crypto';
import { OTP_RESEND_WAIT_SECONDS } from '@tipcard/shared/constants';
import { PAYOUT_FEE_CENTS, PAYOUT_MIN_CENTS } from '@tipcard/shared/payouts/schemas';
import {
  SANDBOX_SIGNATURE_HEADER,
  SANDBOX_WALLET_PAYERS,
  signSandboxEvent,
} from '../../apps/api/src/integrations/sandbox-psp/sandbox-provider.ts';
import { payoutRef } from '../../apps/api/src/modules/payouts/payouts.service.ts';
import { buildCamt054, buildPain002 } from '../../apps/api/src/modules/payouts/bank-report.test-support.ts';
import { mulberry32, type Prng } from './prng.ts';
import type { SimAdjustment, SimPayment, SimTeam, SimUser, World } from './world.ts';

export interface Action {
  name: string;
  p: Record<string, number>;
}

interface ActionKind {
  weight: number;
  /** Only with --faults. */
  fault?: boolean;
  params(prng: Prng): Record<string, number>;
  run(world: World, p: Record<string, number>): Promise<string | null>;
}

const ANY = 1_000_000;
const pickOf = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);
const indexOf = <T>(items: readonly T[], item: T) => `#${items.indexOf(item)}`;
const SUCCEEDING_CARDS = ['4242424242424242', '5555555555554444', '4000056655665556', '4000000000000341', '4000000000009995'];
/** Payers 0–4 each have a card of their own and a wallet; payers 5–7 only pay by wallet. */
const PAYERS = 8;
const SEPA = {
  kind: 'sepa',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  holder_last_name: 'Müller',
  address: 'Hauptstraße 1, Berlin',
};
const ADDRESS = {
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Bērziņa',
};
const server = (n: number) => n % 2;
/** Reasons a bank gives for a transfer it sends back. */
const RETURNS = ['AC01', 'AC04', 'AC06', 'AM04', 'MS03', 'RR03'];

/** A tip-sized amount: mostly small, sometimes above the refund approval threshold. */
const tipCents = (prng: Prng) => (prng.chance(0.7) ? prng.int(100, 6_000) : prng.int(6_000, 30_000));

// ---- helpers shared by actions ----

/** A call as the user; a 401 (session ended or expired) signs them in again with a texted code and retries once. */
async function asUser(world: World, user: SimUser, method: string, path: string, options: { json?: unknown; key?: string } = {}) {
  const answer = await world.call(server(world.users.indexOf(user)), user.ip, method, path, { ...options, token: user.token });
  if (answer.status !== 401 || !(await signIn(world, user))) return answer;
  return world.call(server(world.users.indexOf(user) + 1), user.ip, method, path, { ...options, token: user.token });
}

/**
 * What a locked period is made of (decision 0055): its row, the splits recorded in its month and its objections with
 * their answers, as one text; the invariant compares it with the one taken at the lock.
 */
export async function periodFingerprint(world: World, teamId: string, month: string): Promise<string> {
  const [row] = await world.rows<{ fingerprint: string }>(
    `select coalesce((select string_agg(s.payment_id || ' ' || s.total_cents || ' ' || s.fee_cents || ' ' || s.shares::text, ';' order by s.payment_id)
                      from team_tip_splits s where s.team_id = $1 and to_char(s.at at time zone 'UTC', 'YYYY-MM') = $2), '')
         || '|' || coalesce((select string_agg(o.id || ' ' || o.text || ' ' || coalesce(o.answer, '-') || ' ' || coalesce(o.answered_at::text, '-'), ';' order by o.id)
                      from team_period_objections o where o.team_id = $1 and o.month = $2), '')
         || '|' || coalesce((select p.closed_at::text || ' ' || p.locked_at::text || ' ' || p.locked_by_user_id
                      from team_periods p where p.team_id = $1 and p.month = $2), 'none') as fingerprint`,
    [teamId, month],
  );
  return row!.fingerprint;
}

/**
 * Brings a team's period to a lock as its admin would, with the months passing that it takes (`timeJump`, the whole
 * world's, as the mix's own): the period closed and waiting longest, else last month, closed once the team is older
 * than it; the 24 hours to object over; every open objection answered; then the lock, whose fingerprint the
 * `locked-period-unchanged` invariant keeps. Answers the month locked, or what refused it.
 */
async function lockLastMonth(
  world: World,
  team: SimTeam,
  periods: { month: string; state: string }[],
): Promise<{ month?: string; how: string }> {
  const admin = world.users[team.admin]!;
  const path = `/api/teams/${team.teamId}/periods`;
  const jumps: string[] = [];
  const jump = async () => jumps.push((await ACTIONS.timeJump!.run(world, {}))!);
  let month = periods.filter((each) => each.state === 'closed').sort((a, b) => a.month.localeCompare(b.month))[0]?.month;
  if (!month) {
    const now = new Date();
    month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
    let closed = await asUser(world, admin, 'POST', `${path}/${month}/close`);
    // A team made this month has no last month (404) until a month has passed for it.
    if (closed.status === 404) {
      await jump();
      closed = await asUser(world, admin, 'POST', `${path}/${month}/close`);
    }
    if (closed.status !== 200 && closed.body?.code !== 'team_period_closed')
      return { how: `closing ${month}: ${closed.status} ${closed.body?.code ?? ''}` };
  }
  const lock = () => asUser(world, admin, 'POST', `${path}/${month}/lock`);
  let locked = await lock();
  if (locked.body?.code === 'team_period_window_open') {
    await jump();
    locked = await lock();
  }
  if (locked.body?.code === 'team_period_unanswered_objections') {
    const read = (await asUser(world, admin, 'GET', path)).body?.data as
      { month: string; objections: { id: string; answered_at: string | null }[] }[] | undefined;
    for (const objection of read?.find((each) => each.month === month)?.objections ?? [])
      if (objection.answered_at === null)
        await asUser(world, admin, 'POST', `${path}/${month}/objections/${objection.id}/answer`, { json: { answer: 'Checked' } });
    locked = await lock();
  }
  const how = `${jumps.length} month(s) passed, lock ${locked.status} ${locked.body?.code ?? ''}`.trim();
  if (locked.status !== 200) return { how };
  world.lockedPeriods.set(`${team.teamId} ${month}`, await periodFingerprint(world, team.teamId, month));
  return { month, how };
}

async function signIn(world: World, user: SimUser): Promise<boolean> {
  // The person waits out the resend wait (OTP_RESEND_WAIT_SECONDS) since their last code: its time is moved back.
  await world.rows(
    `update otp_codes set created_at = created_at - interval '${OTP_RESEND_WAIT_SECONDS + 1} seconds' where phone = $1`,
    [user.phone],
  );
  const asked = await world.call(0, user.ip, 'POST', '/api/request-otp', { json: { username: user.phone } });
  if (asked.status !== 200) return false;
  const code = await world.codeFrom(1, user.phone);
  const signedIn = await world.call(1, user.ip, 'POST', '/api/login_check', { json: { username: user.phone, password: code } });
  if (signedIn.status !== 200) return false;
  user.token = signedIn.body.data.jwt;
  return true;
}

const asOperator = (world: World, n: number, method: string, path: string, options: { json?: unknown; key?: string } = {}) =>
  world.call(server(n), '127.0.0.1', method, path, { ...options, token: world.operators[n % world.operators.length]!.token });

/**
 * The sandbox's hosted page submitted by payer `payer`: their own card, or their wallet, one of the sandbox's wallet
 * payers. Whom the provider saw pay is kept on the payment for the referral invariant.
 */
async function payCheckout(world: World, checkoutUrl: string, payer: number, wallet: boolean, n: number) {
  const url = new URL(checkoutUrl);
  const byWallet = wallet || payer >= SUCCEEDING_CARDS.length;
  const walletPayer = SANDBOX_WALLET_PAYERS[payer % SANDBOX_WALLET_PAYERS.length]!;
  const form = byWallet ? `method=apple_pay&wallet_payer=${walletPayer}` : `method=card&card_number=${SUCCEEDING_CARDS[payer]}`;
  const paid = await world.call(server(n), world.guestIp(1_000 + payer), 'POST', `${url.pathname}${url.search}`, { form });
  const payment = world.payments.find((item) => item.checkoutUrl === checkoutUrl);
  if (payment && paid.status < 400) payment.paidBy ??= byWallet ? `wallet ${walletPayer}` : `card ${payer}`;
  return paid.status;
}

function remember(
  world: World,
  payment: { id: string; total_cents: number; checkout_url: string },
  purpose: string,
  payer: number,
): SimPayment {
  const known = world.payments.find((item) => item.id === payment.id);
  if (known) return known;
  const simPayment: SimPayment = {
    id: payment.id,
    purpose,
    payer,
    paidBy: null,
    totalCents: payment.total_cents,
    checkoutUrl: payment.checkout_url,
    intendedRefundCents: 0,
    approvalKeys: 0,
  };
  world.payments.push(simPayment);
  return simPayment;
}

async function balancesOf(world: World, user: SimUser) {
  const account = await asUser(world, user, 'GET', `/api/clients/${user.clientId}/account`);
  const of = (type: string) =>
    (account.body?.data?.account_balances ?? []).find((row: { type: string }) => row.type === type)?.balance ?? 0;
  return { main: of('main') as number, hold: of('hold') as number, ok: account.status === 200 };
}

/** A provider event about a payment, signed as the sandbox signs its webhooks, delivered to either server. */
async function deliverEvent(
  world: World,
  payment: SimPayment,
  type: string,
  amountCents: number,
  n: number,
  eventId = `evt_sim_${randomUUID()}`,
) {
  const [row] = await world.rows<{ provider_ref: string | null }>('select provider_ref from payments where id = $1', [
    payment.id,
  ]);
  if (!row?.provider_ref) return null;
  const body = JSON.stringify({
    id: eventId,
    type,
    provider_ref: row.provider_ref,
    payment_id: payment.id,
    amount_cents: amountCents,
    currency: 'EUR',
    created_at: Date.now(),
  });
  const signature = signSandboxEvent(world.jwtSecret, body, Math.floor(Date.now() / 1000));
  return world.call(server(n), '127.0.0.1', 'POST', '/api/webhooks/sandbox', {
    rawJson: body,
    headers: { [SANDBOX_SIGNATURE_HEADER]: signature },
  });
}

async function paymentRow(world: World, id: string) {
  const [row] = await world.rows<{ status: string; total_cents: string; refunded_cents: string; disputed_cents: string }>(
    'select status, total_cents, refunded_cents, disputed_cents from payments where id = $1',
    [id],
  );
  return (
    row && {
      status: row.status,
      total: Number(row.total_cents),
      refunded: Number(row.refunded_cents),
      disputed: Number(row.disputed_cents),
    }
  );
}

/** A checkout of some purpose opened and (unless `open`) paid at once; answers the payment. */
async function openAndPay(world: World, path: string, json: unknown, purpose: string, p: Record<string, number>) {
  const opened = await world.call(server(p.n!), world.guestIp(1_000 + (p.payer! % PAYERS)), 'POST', path, {
    key: randomUUID(),
    json,
  });
  if (opened.status !== 201) return { opened, payment: null };
  const payment = remember(world, opened.body.data, purpose, p.payer! % PAYERS);
  if (p.later! % 5 !== 0) await payCheckout(world, payment.checkoutUrl, payment.payer, p.wallet! % 3 === 0, p.n! + 1);
  return { opened, payment };
}

const guestParams = (prng: Prng) => ({
  payer: prng.int(0, PAYERS - 1),
  cents: tipCents(prng),
  wallet: prng.int(0, 2),
  later: prng.int(0, 4),
  n: prng.int(0, 1),
});

// ---- the actions ----

export const ACTIONS: Record<string, ActionKind> = {
  /** Registration with the texted code (sometimes through a friend's referral code), a card and a payout method. */
  signUp: {
    weight: 6,
    params: (prng) => ({ referrer: prng.chance(0.4) ? prng.int(0, ANY) : -1, charity: prng.int(0, 4), n: prng.int(0, 1) }),
    async run(world, p) {
      const index = world.users.length;
      const phone = world.nextPhone();
      const ip = world.guestIp(index);
      const referrer = p.referrer! >= 0 ? pickOf(world.users, p.referrer!) : undefined;
      const registered = await world.call(server(p.n!), ip, 'POST', '/api/register', {
        json: {
          username: phone,
          age_confirmed: true,
          terms_accepted: true,
          ...(referrer && { referral_code: referrer.referralCode }),
        },
      });
      if (registered.status !== 200) return `register refused ${registered.status}`;
      const code = await world.codeFrom(server(p.n! + 1), phone);
      const verified = await world.call(server(p.n! + 1), ip, 'POST', `/api/register/${registered.body.data.uuid}/verify`, {
        json: { code },
      });
      if (verified.status !== 200) return `verify refused ${verified.status}`;
      const token = verified.body.data.jwt as string;
      const me = await world.call(server(p.n!), ip, 'GET', '/api/me', { token });
      const user: SimUser = {
        phone,
        ip,
        token,
        userId: me.body.data.id,
        clientId: me.body.data.clients[0].id,
        referralCode: '',
        cardId: null,
        charity: p.charity! === 0,
        methodId: null,
        referredBy: referrer ? world.users.indexOf(referrer) : null,
        deleted: false,
        deletedAt: null,
      };
      world.users.push(user);
      const referrals = await asUser(world, user, 'GET', `/api/clients/${user.clientId}/referrals`);
      user.referralCode = referrals.body?.data?.code ?? '';
      const card = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/cards`, {
        json: {
          title: 'Sim',
          public_name: `User ${index}`,
          welcome_phrase: null,
          public_text: null,
          activity_type: user.charity ? 'DONATION' : 'WAITER',
          country: 'LV',
          instagram: null,
          facebook: null,
          tiktok: null,
        },
      });
      if (card.status === 201) user.cardId = card.body.data.id;
      const method = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/payout-methods`, { json: SEPA });
      if (method.status === 201) user.methodId = method.body.data.id;
      return `user #${index}${user.charity ? ' (charity card)' : ''}${referrer ? ` invited by #${user.referredBy}` : ''}`;
    },
  },

  /** A guest's tip through the JSON API, paid at the sandbox by card or wallet, or left open to be paid later. */
  tip: {
    weight: 14,
    params: (prng) => ({ user: prng.int(0, ANY), ...guestParams(prng) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user?.cardId || user.charity) return null;
      const { opened, payment } = await openAndPay(
        world,
        `/api/public/cards/${user.cardId}/payments`,
        { amount_cents: p.cents, cover_fee: false, terms_accepted: true },
        'tip',
        p,
      );
      return payment
        ? `payer ${payment.payer} → user ${indexOf(world.users, user)}: ${p.cents} c, payment #${world.payments.indexOf(payment)}${p.later! % 5 === 0 ? ' (left open)' : ''}`
        : `tip refused ${opened.status}`;
    },
  },

  /** The guest page's plain-form POST (no script): the server opens the checkout and redirects to it. */
  tipForm: {
    weight: 3,
    params: (prng) => ({ user: prng.int(0, ANY), ...guestParams(prng) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user?.cardId || user.charity) return null;
      const payer = p.payer! % PAYERS;
      const form = `custom_amount=${(p.cents! / 100).toFixed(2)}&terms=1`;
      const posted = await world.call(server(p.n!), world.guestIp(1_000 + payer), 'POST', `/payment/${user.cardId}`, { form });
      if (posted.status !== 303 || !posted.location) return `form refused ${posted.status}`;
      const token = new URL(posted.location).searchParams.get('c')!;
      const ref = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).ref as string;
      const [row] = await world.rows<{ id: string; total_cents: string }>(
        'select id, total_cents from payments where provider_ref = $1',
        [ref],
      );
      if (!row) return 'form: no payment for its checkout';
      const payment = remember(
        world,
        { id: row.id, total_cents: Number(row.total_cents), checkout_url: posted.location },
        'tip',
        payer,
      );
      await payCheckout(world, payment.checkoutUrl, payer, p.wallet! % 3 === 0, p.n! + 1);
      return `payer ${payer} → user ${indexOf(world.users, user)} by the form: payment #${world.payments.indexOf(payment)}`;
    },
  },

  /**
   * The guest's receipt (decision 0042): the success page links to it only once the books hold the payment, the page
   * behind the link says what the books say of its refunds, and the guest may have it e-mailed (the e-mails are checked
   * against the ledger in invariants.ts).
   */
  receipt: {
    weight: 2,
    params: (prng) => ({ payment: prng.int(0, ANY), email: prng.int(0, 2), n: prng.int(0, 1) }),
    async run(world, p) {
      const tips = world.payments.filter((item) => ['tip', 'team_tip', 'venue_tip'].includes(item.purpose));
      const payment = pickOf(tips, p.payment!);
      if (!payment) return null;
      const [row] = await world.rows<{ card_id: string }>('select subject_id as card_id from payments where id = $1', [
        payment.id,
      ]);
      if (!row) return null;
      const label = `payment #${world.payments.indexOf(payment)}`;
      const ip = world.guestIp(1_000 + payment.payer);
      const success = await world.call(server(p.n!), ip, 'GET', `/payment/${row.card_id}/success?payment=${payment.id}`);
      const token = success.status === 200 ? /\/receipts\/([0-9a-f]+)/.exec(String(success.body))?.[1] : undefined;
      if (!token) return `${label}: no receipt yet (${success.status})`;
      const before = await paymentRow(world, payment.id);
      const [booked] = await world.rows('select 1 from ledger_entries where reference = $1', [`payment:${payment.id}:received`]);
      if (!booked)
        world.fail('receipt-backed-by-ledger', `${label} (${before?.status}) has a receipt link but no received entry`);
      const page = await world.call(server(p.n! + 1), ip, 'GET', `/receipts/${token}`);
      const after = await paymentRow(world, payment.id);
      const shown = /class="status ([a-z_]+)"/.exec(String(page.body))?.[1];
      const statusOf = (refunded: number, total: number): string =>
        refunded === 0 ? 'paid' : refunded >= total ? 'refunded' : 'partly_refunded';
      const possible = [before, after].filter((item) => item !== undefined).map((item) => statusOf(item.refunded, item.total));
      if (page.status !== 200 || !shown || !possible.includes(shown))
        world.fail(
          'receipt-says-what-books-say',
          `${label}: its receipt answered ${page.status} "${shown}", the books say ${possible.join(' or ')}`,
        );
      if (p.email! !== 0) return `${label}: receipt ${shown}`;
      const mailed = await world.call(server(p.n!), ip, 'POST', `/payment/${row.card_id}/receipt`, {
        form: `payment=${payment.id}&email=guest${payment.payer}%40example.com`,
      });
      return `${label}: receipt ${shown}, e-mailed (${new URL(mailed.location ?? '/', 'http://x').searchParams.get('receipt') ?? mailed.status})`;
    },
  },

  /** A checkout left open earlier, paid now (after a deletion, a cancel, another payment of the same invoice…). */
  payLate: {
    weight: 3,
    params: (prng) => ({ payment: prng.int(0, ANY), wallet: prng.int(0, 2), n: prng.int(0, 1) }),
    async run(world, p) {
      const payment = pickOf(world.payments, p.payment!);
      if (!payment) return null;
      const status = await payCheckout(world, payment.checkoutUrl, payment.payer, p.wallet! % 3 === 0, p.n!);
      return `payment #${world.payments.indexOf(payment)} (${payment.purpose}) paid late: ${status}`;
    },
  },

  createWorkplace: {
    weight: 2,
    params: (prng) => ({ user: prng.int(0, ANY) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user) return null;
      const made = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/workplace`, {
        json: { name: `Bar ${world.teams.length}`, country: 'LV' },
      });
      if (made.status !== 200 && made.status !== 201) return `workplace refused ${made.status} ${made.body?.code ?? ''}`;
      world.teams.push({
        teamId: made.body.data.team.id,
        cardId: made.body.data.team.card_id,
        admin: world.users.indexOf(user),
        workplaceId: made.body.data.id,
      });
      return `team #${world.teams.length - 1} by user ${indexOf(world.users, user)}`;
    },
  },

  /**
   * The admin of a venue's team adds a second team to the venue (issue 29, decision 0057), its admin the one who
   * added it, and up to three people in no team ask to join it and are approved; a venue with two teams already only
   * gains members. Its venue tips are then split between the two teams (invariant `venue-split`).
   */
  addVenueTeam: {
    weight: 2,
    params: (prng) => ({ team: prng.int(0, ANY), user: prng.int(0, ANY), joiners: prng.int(1, 3) }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      const ofVenue = world.teams.filter((each) => each.workplaceId === team.workplaceId);
      let second = ofVenue[1];
      let added = '';
      if (!second) {
        const made = await asUser(world, world.users[team.admin]!, 'POST', `/api/workplaces/${team.workplaceId}/teams`, {
          json: { title: `Kitchen ${world.teams.length}` },
        });
        if (made.status !== 201)
          return `second team of team #${world.teams.indexOf(team)}'s venue refused ${made.status} ${made.body?.code ?? ''}`;
        second = { teamId: made.body.data.id, cardId: made.body.data.card_id, admin: team.admin, workplaceId: team.workplaceId };
        world.teams.push(second);
        added = `team #${world.teams.length - 1} added to team #${world.teams.indexOf(team)}'s venue`;
      }
      // People in no team, looked for from user p.user on (a few at most, each look being a request).
      const joined: string[] = [];
      for (let look = 0; look < 6 && joined.length < p.joiners! && look < world.users.length; look += 1) {
        const user = world.users[(p.user! + look) % world.users.length]!;
        if (user.deleted) continue;
        const workplace = await asUser(world, user, 'GET', `/api/clients/${user.clientId}/workplace`);
        if (workplace.status !== 200 || workplace.body?.data?.team) continue;
        const asked = await asUser(world, user, 'POST', `/api/teams/${second.teamId}/requests`);
        if (asked.status !== 201) continue;
        const approved = await asUser(
          world,
          world.users[second.admin]!,
          'POST',
          `/api/teams/${second.teamId}/requests/${asked.body.data.id}/approve`,
        );
        joined.push(`${indexOf(world.users, user)}: ${approved.status}`);
      }
      if (!added && joined.length === 0) return null;
      return `${added || `team #${world.teams.indexOf(second)}`}; joined ${joined.join(', ') || 'nobody'}`;
    },
  },

  /** A join request and its approval by the team's admin. */
  joinTeam: {
    weight: 4,
    params: (prng) => ({ user: prng.int(0, ANY), team: prng.int(0, ANY) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      const team = pickOf(world.teams, p.team!);
      if (!user || !team) return null;
      const asked = await asUser(world, user, 'POST', `/api/teams/${team.teamId}/requests`);
      if (asked.status !== 201) return `join request refused ${asked.status} ${asked.body?.code ?? ''}`;
      const admin = world.users[team.admin]!;
      const approved = await asUser(world, admin, 'POST', `/api/teams/${team.teamId}/requests/${asked.body.data.id}/approve`);
      return `user ${indexOf(world.users, user)} joins team #${world.teams.indexOf(team)}: ${approved.status}`;
    },
  },

  /** The admin removes a member, or hands the admin role (and the team card) over to one. */
  removeOrHandOver: {
    weight: 2,
    params: (prng) => ({ team: prng.int(0, ANY), member: prng.int(0, ANY), handOver: prng.int(0, 1) }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      const admin = world.users[team.admin]!;
      const read = await asUser(world, admin, 'GET', `/api/teams/${team.teamId}`);
      const others = ((read.body?.data?.members ?? []) as { user_id: string; is_admin: boolean }[]).filter(
        (member) => !member.is_admin,
      );
      const member = pickOf(others, p.member!);
      if (!member) return null;
      const memberIndex = world.users.findIndex((user) => user.userId === member.user_id);
      if (p.handOver === 1) {
        const handed = await asUser(world, admin, 'POST', `/api/teams/${team.teamId}/admin`, {
          json: { user_id: member.user_id },
        });
        if (handed.status === 200) team.admin = memberIndex;
        return `team #${world.teams.indexOf(team)} handed to user #${memberIndex}: ${handed.status}`;
      }
      const removed = await asUser(world, admin, 'DELETE', `/api/teams/${team.teamId}/members/${member.user_id}`);
      return `user #${memberIndex} removed from team #${world.teams.indexOf(team)}: ${removed.status}`;
    },
  },

  leaveTeam: {
    weight: 1,
    params: (prng) => ({ user: prng.int(0, ANY) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user) return null;
      const workplace = await asUser(world, user, 'GET', `/api/clients/${user.clientId}/workplace`);
      const teamId = workplace.body?.data?.team?.id as string | undefined;
      if (!teamId) return null;
      const left = await asUser(world, user, 'POST', `/api/teams/${teamId}/leave`);
      return `user ${indexOf(world.users, user)} leaves: ${left.status} ${left.body?.code ?? ''}`;
    },
  },

  /** The admin saves a new split rule (decision 0045); for points, the members get roles first. */
  changeSplitRule: {
    weight: 2,
    params: (prng) => ({
      team: prng.int(0, ANY),
      kind: prng.int(0, 2),
      bar: prng.int(0, 5),
      kitchen: prng.int(0, 5),
      roles: prng.int(0, ANY),
    }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      const admin = world.users[team.admin]!;
      const kind = (['even', 'hours', 'points'] as const)[p.kind!]!;
      if (kind === 'points') {
        const read = await asUser(world, admin, 'GET', `/api/teams/${team.teamId}`);
        const members = (read.body?.data?.members ?? []) as { user_id: string }[];
        for (const [index, member] of members.entries())
          await asUser(world, admin, 'PATCH', `/api/teams/${team.teamId}/members/${member.user_id}`, {
            json: { role: (p.roles! >> index) % 3 === 0 ? null : (p.roles! >> index) % 3 === 1 ? 'bar' : 'kitchen' },
          });
      }
      const rule = kind === 'points' ? { kind, points: { bar: p.bar!, kitchen: p.kitchen! } } : { kind };
      const saved = await asUser(world, admin, 'POST', `/api/teams/${team.teamId}/rules`, { json: rule });
      return `team #${world.teams.indexOf(team)} rule ${kind}: ${saved.status} ${saved.body?.code ?? ''}`;
    },
  },

  /**
   * The admin closes one of the last two months (decision 0055): refused for a month not over or before the team,
   * which is every month until a time jump has moved the team back.
   */
  closePeriod: {
    weight: 2,
    params: (prng) => ({ team: prng.int(0, ANY), back: prng.int(1, 2) }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      const now = new Date();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - p.back!, 1)).toISOString().slice(0, 7);
      const closed = await asUser(world, world.users[team.admin]!, 'POST', `/api/teams/${team.teamId}/periods/${month}/close`);
      return `team #${world.teams.indexOf(team)} closes ${month}: ${closed.status} ${closed.body?.code ?? ''}`;
    },
  },

  /** A member objects to a closed period of their team, or confirms it. */
  objectToPeriod: {
    weight: 2,
    params: (prng) => ({ user: prng.int(0, ANY), period: prng.int(0, ANY), confirm: prng.int(0, 2) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user) return null;
      const workplace = await asUser(world, user, 'GET', `/api/clients/${user.clientId}/workplace`);
      const teamId = workplace.body?.data?.team?.id as string | undefined;
      if (!teamId) return null;
      const periods = (await asUser(world, user, 'GET', `/api/teams/${teamId}/periods`)).body?.data as
        { month: string; state: string }[] | undefined;
      const period = pickOf(
        (periods ?? []).filter((each) => each.state !== 'open'),
        p.period!,
      );
      if (!period) return null;
      const path = `/api/teams/${teamId}/periods/${period.month}`;
      const answer =
        p.confirm === 0
          ? await asUser(world, user, 'POST', `${path}/confirm`)
          : await asUser(world, user, 'POST', `${path}/objections`, { json: { text: `Objection ${world.salt}` } });
      return `user ${indexOf(world.users, user)} ${p.confirm === 0 ? 'confirms' : 'objects to'} ${period.month}: ${answer.status} ${answer.body?.code ?? ''}`;
    },
  },

  /**
   * The admin answers an objection of a closed period, or locks one; a lock that goes through takes the period's
   * fingerprint (its recorded splits and objections), which must never change afterwards.
   */
  settlePeriod: {
    weight: 2,
    params: (prng) => ({ team: prng.int(0, ANY), period: prng.int(0, ANY), lock: prng.int(0, 1) }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      const admin = world.users[team.admin]!;
      const periods = (await asUser(world, admin, 'GET', `/api/teams/${team.teamId}/periods`)).body?.data as
        { month: string; state: string; objections: { id: string; answered_at: string | null }[] }[] | undefined;
      const period = pickOf(
        (periods ?? []).filter((each) => each.state === 'closed'),
        p.period!,
      );
      if (!period) return null;
      const path = `/api/teams/${team.teamId}/periods/${period.month}`;
      const open = period.objections.find((objection) => objection.answered_at === null);
      if (p.lock === 0 && open) {
        const answered = await asUser(world, admin, 'POST', `${path}/objections/${open.id}/answer`, {
          json: { answer: 'Checked' },
        });
        return `team #${world.teams.indexOf(team)} answers on ${period.month}: ${answered.status} ${answered.body?.code ?? ''}`;
      }
      const locked = await asUser(world, admin, 'POST', `${path}/lock`);
      if (locked.status === 200)
        world.lockedPeriods.set(`${team.teamId} ${period.month}`, await periodFingerprint(world, team.teamId, period.month));
      return `team #${world.teams.indexOf(team)} locks ${period.month}: ${locked.status} ${locked.body?.code ?? ''}`;
    },
  },

  /**
   * The admin moves cents between two members of a locked period (decision 0059): mostly a little, sometimes more than
   * the giver has or the same member twice (refused); or an earlier adjustment is sent again with its Idempotency-Key,
   * which must answer the same adjustment and move nothing more. A team with no locked period has its last month
   * brought to a lock first (`lockLastMonth`), so adjustments happen in a short run too.
   */
  adjustPeriod: {
    weight: 2,
    params: (prng) => ({
      team: prng.int(0, ANY),
      period: prng.int(0, ANY),
      from: prng.int(0, ANY),
      to: prng.int(0, ANY),
      same: prng.chance(0.1) ? 1 : 0,
      cents: prng.chance(0.8) ? prng.int(1, 1_500) : prng.int(1_500, 50_000),
      retry: prng.int(0, 3),
    }),
    async run(world, p) {
      const send = (adjustment: SimAdjustment) =>
        asUser(
          world,
          world.users[adjustment.by]!,
          'POST',
          `/api/teams/${adjustment.teamId}/periods/${adjustment.month}/adjustments`,
          {
            key: adjustment.key,
            json: {
              from_user_id: adjustment.fromUserId,
              to_user_id: adjustment.toUserId,
              amount_cents: adjustment.amountCents,
              reason: adjustment.reason,
            },
          },
        );
      const earlier = p.retry === 0 ? pickOf(world.adjustments, p.period!) : undefined;
      if (earlier) {
        const again = await send(earlier);
        const id = again.status === 201 ? (again.body.data.adjustment.id as string) : null;
        if (id && earlier.id && id !== earlier.id)
          world.fail('adjustment-idempotent', `a retry of adjustment ${earlier.id} answered another one, ${id}`);
        if (id) earlier.id = id;
        // A refusal of the retry says nothing of an earlier attempt whose answer was lost; a lost answer makes it unknown.
        if (earlier.status !== 201 && (again.status === 201 || again.status === 0 || again.status >= 500))
          earlier.status = again.status;
        return `adjustment ${earlier.key.slice(0, 8)} sent again: ${again.status} ${again.body?.code ?? ''}`;
      }
      // A team of two or more if one of the next few is (an adjustment moves cents between two people), else the
      // team drawn.
      let team = pickOf(world.teams, p.team!);
      if (!team) return null;
      let members: { user_id: string }[] = [];
      for (let look = 0; look < Math.min(4, world.teams.length); look += 1) {
        const candidate = world.teams[(p.team! + look) % world.teams.length]!;
        const read = await asUser(world, world.users[candidate.admin]!, 'GET', `/api/teams/${candidate.teamId}`);
        const found = (read.body?.data?.members ?? []) as { user_id: string }[];
        if (look === 0 || found.length >= 2) [team, members] = [candidate, found];
        if (found.length >= 2) break;
      }
      const admin = world.users[team.admin]!;
      const periods = (await asUser(world, admin, 'GET', `/api/teams/${team.teamId}/periods`)).body?.data as
        { month: string; state: string }[] | undefined;
      if (!periods) return null;
      let month = pickOf(
        periods.filter((each) => each.state === 'locked'),
        p.period!,
      )?.month;
      let locking = '';
      if (!month) {
        const brought = await lockLastMonth(world, team, periods);
        if (!brought.month) return `team #${world.teams.indexOf(team)} has no locked period: ${brought.how}`;
        month = brought.month;
        locking = ` (${brought.how})`;
      }
      const from = pickOf(members, p.from!);
      // Another member than the giver, but for the odd same-member attempt (refused) or a team of one.
      const to =
        p.same === 1 || members.length < 2
          ? from
          : members[(members.indexOf(from!) + 1 + (p.to! % (members.length - 1))) % members.length];
      if (!from || !to) return null;
      const adjustment: SimAdjustment = {
        key: randomUUID(),
        by: team.admin,
        teamId: team.teamId,
        month,
        fromUserId: from.user_id,
        toUserId: to.user_id,
        amountCents: p.cents!,
        reason: `Adjustment ${world.salt}`,
        id: null,
        status: 0,
      };
      world.adjustments.push(adjustment);
      const made = await send(adjustment);
      adjustment.status = made.status;
      if (made.status === 201) adjustment.id = made.body.data.adjustment.id as string;
      return `team #${world.teams.indexOf(team)} adjusts ${month}${locking} by ${p.cents} c: ${made.status} ${made.body?.code ?? ''}`;
    },
  },

  /** A member starts or ends their shift, or the admin enters one for a member (overlaps are refused). */
  clockShift: {
    weight: 3,
    params: (prng) => ({ user: prng.int(0, ANY), how: prng.int(0, 2), back: prng.int(1, 12), length: prng.int(1, 10) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user) return null;
      const workplace = await asUser(world, user, 'GET', `/api/clients/${user.clientId}/workplace`);
      const teamId = workplace.body?.data?.team?.id as string | undefined;
      if (!teamId) return null;
      if (p.how === 2) {
        const team = world.teams.find((item) => item.teamId === teamId);
        if (!team) return null;
        const hour = 3_600_000;
        const start = Date.now() - p.back! * hour;
        const entered = await asUser(world, world.users[team.admin]!, 'POST', `/api/teams/${teamId}/shifts`, {
          json: {
            user_id: user.userId,
            started_at: new Date(start).toISOString(),
            ended_at: new Date(start + p.length! * hour).toISOString(),
          },
        });
        return `shift of user ${indexOf(world.users, user)} entered: ${entered.status} ${entered.body?.code ?? ''}`;
      }
      const clocked = await asUser(world, user, 'POST', `/api/teams/${teamId}/shifts/${p.how === 0 ? 'clock-in' : 'clock-out'}`);
      return `user ${indexOf(world.users, user)} ${p.how === 0 ? 'starts' : 'ends'} a shift: ${clocked.status} ${clocked.body?.code ?? ''}`;
    },
  },

  /** A guest's tip through a team card: split among the members of the moment. */
  teamTip: {
    weight: 6,
    params: (prng) => ({ team: prng.int(0, ANY), ...guestParams(prng) }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      const { opened, payment } = await openAndPay(
        world,
        `/api/public/cards/${team.cardId}/payments`,
        { amount_cents: p.cents, cover_fee: false, terms_accepted: true },
        'team_tip',
        p,
      );
      return payment
        ? `payer ${payment.payer} → team #${world.teams.indexOf(team)}: ${p.cents} c, payment #${world.payments.indexOf(payment)}`
        : `team tip refused ${opened.status}`;
    },
  },

  /**
   * A guest's tip through a venue card (decision 0058): the team's admin opens the venue card (made on first need) and
   * now and then sets the percentages between the venue's teams, or tries a set that does not add up (refused, nothing
   * changed); the tip is split between the teams, then among each team's members of the moment (invariant
   * `venue-split`).
   */
  venueTip: {
    weight: 4,
    params: (prng) => ({
      team: prng.int(0, ANY),
      percentages: prng.int(0, 5),
      first: prng.chance(0.2) ? prng.pick([0, 10_000]) : prng.int(1, 9_999),
      ...guestParams(prng),
    }),
    async run(world, p) {
      const team = pickOf(world.teams, p.team!);
      if (!team) return null;
      // The team's admin is an admin of its venue (decision 0057): the first team's, or the venue admin who added it.
      const admin = world.users[team.admin]!;
      let venue = world.venues.find((each) => each.workplaceId === team.workplaceId);
      if (!venue) {
        const card = await asUser(world, admin, 'GET', `/api/workplaces/${team.workplaceId}/venue-card`);
        if (card.status !== 200)
          return `venue card of team #${world.teams.indexOf(team)}: ${card.status} ${card.body?.code ?? ''}`;
        venue = { workplaceId: team.workplaceId, cardId: card.body.data.card_id as string, team: world.teams.indexOf(team) };
        world.venues.push(venue);
      }
      let set = '';
      if (p.percentages! <= 1) {
        const path = `/api/workplaces/${venue.workplaceId}/percentages`;
        const before = (await asUser(world, admin, 'GET', path)).body?.data as
          { id: string | null; teams: { team_id: string }[] } | undefined;
        if (before) {
          // `first` basis points to the first team and the rest evenly to the others (the last taking what is left
          // over), all to the one team of a venue with one; a point short when refused on purpose.
          const short = p.percentages === 1 ? 1 : 0;
          const others = before.teams.length - 1;
          const first = others === 0 ? 10_000 : p.first!;
          const points = before.teams.map((_, i) =>
            i === 0 ? first : Math.floor((10_000 - first) / others) + (i === others ? (10_000 - first) % others : 0),
          );
          points[points.findIndex((each) => each > 0)]! -= short;
          const shares = before.teams.map((each, i) => ({ team_id: each.team_id, basis_points: points[i]! }));
          const answer = await asUser(world, admin, 'PUT', path, { json: { shares } });
          const after = (await asUser(world, admin, 'GET', path)).body?.data as { id: string | null } | undefined;
          if (short === 1 && (answer.status !== 422 || after?.id !== before.id))
            world.fail('venue-percentages-refused', `a sum of 9999 answered ${answer.status} and left version ${after?.id}`);
          set = `, percentages ${short ? 'refused' : 'set'}: ${answer.status}`;
        }
      }
      const { opened, payment } = await openAndPay(
        world,
        `/api/public/cards/${venue.cardId}/payments`,
        { amount_cents: p.cents, cover_fee: p.wallet === 1, terms_accepted: true },
        'venue_tip',
        p,
      );
      return payment
        ? `payer ${payment.payer} → venue #${world.venues.indexOf(venue)}: ${p.cents} c, payment #${world.payments.indexOf(payment)}${set}`
        : `venue tip refused ${opened.status}${set}`;
    },
  },

  /**
   * A card order: the free first one placed at once, a paid one with its checkout paid now or left for later. Now and
   * then it prints a team card, asked for by the user the model last saw run the team (the server decides: a team
   * handed over or closed meanwhile is not theirs to print).
   */
  orderCards: {
    weight: 2,
    params: (prng) => ({
      user: prng.int(0, ANY),
      quantity: prng.int(1, 3),
      pay: prng.int(0, 2),
      payer: prng.int(0, PAYERS - 1),
      teamCard: prng.int(0, 2),
    }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user) return null;
      const team = p.teamCard === 0 ? world.teams.find((each) => each.admin === world.users.indexOf(user)) : undefined;
      const ordered = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/card-orders`, {
        key: randomUUID(),
        json: { product: 'card', quantity: p.quantity, ...ADDRESS, ...(team && { card_id: team.cardId }) },
      });
      if (ordered.status !== 201 && ordered.status !== 200) return `order refused ${ordered.status} ${ordered.body?.code ?? ''}`;
      const order = ordered.body.data as { id: string; checkout_url: string | null; total_cents: number };
      const [row] = await world.rows<{ payment_id: string | null }>('select payment_id from card_orders where id = $1', [
        order.id,
      ]);
      world.orders.push({
        id: order.id,
        user: world.users.indexOf(user),
        paymentId: row?.payment_id ?? null,
        checkoutUrl: order.checkout_url,
        canceled: false,
      });
      if (order.checkout_url && row?.payment_id) {
        remember(
          world,
          { id: row.payment_id, total_cents: order.total_cents, checkout_url: order.checkout_url },
          'card_order',
          p.payer!,
        );
        if (p.pay !== 0) await payCheckout(world, order.checkout_url, p.payer!, false, p.pay!);
      }
      return `order #${world.orders.length - 1} of ${p.quantity}${team ? ` of team #${world.teams.indexOf(team)}'s card` : ''} by user ${indexOf(world.users, user)}${order.checkout_url ? (p.pay !== 0 ? ' paid' : ' awaiting payment') : ' (free)'}`;
    },
  },

  /** The back office cancels an order, the button pressed by 1–4 operators' tabs at once. */
  cancelOrder: {
    weight: 2,
    params: (prng) => ({ order: prng.int(0, ANY), clicks: prng.chance(0.5) ? 1 : prng.int(2, 4) }),
    async run(world, p) {
      const order = pickOf(world.orders, p.order!);
      if (!order) return null;
      const answers = await Promise.all(
        Array.from({ length: p.clicks! }, (_, i) => asOperator(world, i, 'POST', `/api/ops/card-orders/${order.id}/cancel`)),
      );
      if (answers.some((answer) => answer.status === 200 && answer.body.data.status === 'canceled')) order.canceled = true;
      return `order #${world.orders.indexOf(order)} canceled by ${p.clicks} clicks: ${answers.map((answer) => answer.status).join('/')}`;
    },
  },

  /** The checkout of an order paid late, whatever became of the order meanwhile (canceled by the back office…). */
  payOrderLate: {
    weight: 2,
    params: (prng) => ({ order: prng.int(0, ANY), payer: prng.int(0, PAYERS - 1), n: prng.int(0, 1) }),
    async run(world, p) {
      const order = pickOf(world.orders, p.order!);
      if (!order?.checkoutUrl) return null;
      const status = await payCheckout(world, order.checkoutUrl, p.payer!, false, p.n!);
      return `order #${world.orders.indexOf(order)}${order.canceled ? ' (canceled)' : ''} paid late: ${status}`;
    },
  },

  createInvoice: {
    weight: 2,
    params: (prng) => ({ user: prng.int(0, ANY), cents: prng.int(100, 20_000) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user) return null;
      const made = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/invoices`, {
        json: { description: 'Sim invoice', amount_cents: p.cents },
      });
      if (made.status !== 201 && made.status !== 200) return `invoice refused ${made.status} ${made.body?.code ?? ''}`;
      world.invoices.push({ id: made.body.data.id, user: world.users.indexOf(user) });
      return `invoice #${world.invoices.length - 1} of ${p.cents} c by user ${indexOf(world.users, user)}`;
    },
  },

  /** A payer pays an invoice (a second checkout of a paid one is given back by the invoices job). */
  payInvoice: {
    weight: 3,
    params: (prng) => ({ invoice: prng.int(0, ANY), ...guestParams(prng) }),
    async run(world, p) {
      const invoice = pickOf(world.invoices, p.invoice!);
      if (!invoice) return null;
      const { opened, payment } = await openAndPay(
        world,
        `/api/public/invoices/${invoice.id}/payments`,
        { terms_accepted: true },
        'invoice',
        p,
      );
      return payment
        ? `invoice #${world.invoices.indexOf(invoice)} paid by ${payment.payer}: payment #${world.payments.indexOf(payment)}`
        : `invoice payment refused ${opened.status} ${opened.body?.code ?? ''}`;
    },
  },

  cancelInvoice: {
    weight: 1,
    params: (prng) => ({ invoice: prng.int(0, ANY) }),
    async run(world, p) {
      const invoice = pickOf(world.invoices, p.invoice!);
      if (!invoice) return null;
      const owner = world.users[invoice.user]!;
      const canceled = await asUser(world, owner, 'POST', `/api/clients/${owner.clientId}/invoices/${invoice.id}/cancel`);
      return `invoice #${world.invoices.indexOf(invoice)} canceled: ${canceled.status} ${canceled.body?.code ?? ''}`;
    },
  },

  /** A one-off or monthly donation to a charity's card. */
  donate: {
    weight: 3,
    params: (prng) => ({ user: prng.int(0, ANY), monthly: prng.int(0, 2), ...guestParams(prng) }),
    async run(world, p) {
      const charities = world.users.filter((user) => user.charity && user.cardId);
      const charity = pickOf(charities, p.user!);
      if (!charity) return null;
      const payer = p.payer! % PAYERS;
      const body = {
        donor_name: `Donor ${payer}`,
        email: `donor${payer}@sim.test`,
        donor_code: `D${payer}`,
        amount_cents: p.cents,
        monthly: p.monthly === 0,
        locale: 'en',
        terms_accepted: true,
      };
      // A monthly plan saves the card: paid by card, never by wallet.
      const { opened, payment } = await openAndPay(world, `/api/public/cards/${charity.cardId}/donations`, body, 'donation', {
        ...p,
        wallet: p.monthly === 0 ? 1 : p.wallet!,
      });
      return payment
        ? `donor ${payer} → charity ${indexOf(world.users, charity)}: ${p.cents} c${p.monthly === 0 ? ' monthly' : ''}, payment #${world.payments.indexOf(payment)}`
        : `donation refused ${opened.status} ${opened.body?.code ?? ''}`;
    },
  },

  /** A link from a donor's e-mail (pause, change the amount, cancel…) followed. */
  donationAction: {
    weight: 1,
    params: (prng) => ({
      payer: prng.int(0, PAYERS - 1),
      link: prng.int(0, ANY),
      months: prng.int(1, 3),
      cents: prng.int(100, 5_000),
    }),
    async run(world, p) {
      const outbox = await world.call(
        0,
        '127.0.0.1',
        'GET',
        `/api/dev/outbox?limit=50&to=${encodeURIComponent(`donor${p.payer}@sim.test`)}`,
      );
      const links = ((outbox.body?.data ?? []) as { body: string }[]).flatMap((message) =>
        [...message.body.matchAll(/\/actions\/([0-9a-zA-Z_-]{16,})/g)].map((match) => match[1]!),
      );
      const actionId = pickOf([...new Set(links)], p.link!);
      if (!actionId) return null;
      const shown = await world.call(1, world.guestIp(1_000 + p.payer!), 'GET', `/api/public/actions/${actionId}`);
      const kind = shown.body?.data?.kind as string | undefined;
      const body = kind === 'pause' ? { months: p.months } : kind === 'change_amount' ? { amount_cents: p.cents } : {};
      const done = await world.call(0, world.guestIp(1_000 + p.payer!), 'POST', `/api/public/actions/${actionId}`, {
        json: body,
      });
      return `donor ${p.payer}'s link ${kind ?? '?'}: ${done.status}`;
    },
  },

  /**
   * An operator's refund: direct (at most the threshold), above the threshold with a second operator's approval, the
   * same request double-clicked under one Idempotency-Key (each waiting request then approved), split into several
   * small ones, or an amount the payment cannot give back.
   */
  refund: {
    weight: 7,
    params: (prng) => ({
      payment: prng.int(0, ANY),
      mode: Number(prng.weighted({ 0: 4, 1: 3, 2: 2, 3: 2, 4: 1 })),
      share: prng.int(1, 100),
      n: prng.int(0, 1),
    }),
    async run(world, p) {
      // The double click and the split aim at payments above the threshold, where the second operator's rule bites.
      const large = world.payments.filter((item) => item.totalCents > world.refundApprovalCents);
      const payment = pickOf(
        p.mode === 2 || p.mode === 3 ? (large.length > 0 ? large : world.payments) : world.payments,
        p.payment!,
      );
      if (!payment) return null;
      const row = await paymentRow(world, payment.id);
      if (!row) return null;
      const left = row.total - row.refunded - row.disputed;
      const threshold = world.refundApprovalCents;
      const mode = Number(p.mode);
      const label = `payment #${world.payments.indexOf(payment)} (${row.status}, ${row.total} c, ${left} c left)`;
      const request = async (amount: number, key: string, operator: number) => {
        const answer = await asOperator(world, operator, 'POST', `/api/ops/payments/${payment.id}/refunds`, {
          key,
          json: { amount_cents: amount, reason: 'Simulated refund' },
        });
        if (answer.status === 200 && answer.body.data.status === 'awaiting_approval') {
          // Judged on the payment as it is now: the row read before the request may predate its success's webhook.
          const now = (await paymentRow(world, payment.id))!;
          if (now.status !== 'succeeded' || amount > now.total - now.refunded - now.disputed) {
            world.fail(
              'refund-request-beyond-payment',
              `a request for ${amount} c was accepted on payment #${world.payments.indexOf(payment)} (${now.status}, ${now.total} c, ${now.total - now.refunded - now.disputed} c left)`,
            );
          }
        }
        return answer;
      };
      const approveWaiting = async () => {
        const waiting = await asOperator(world, 1, 'GET', '/api/ops/refund-requests');
        const mine = ((waiting.body?.data ?? []) as { id: string; payment_id: string }[]).filter(
          (item) => item.payment_id === payment.id,
        );
        const statuses: number[] = [];
        for (const item of mine) {
          const approved = await asOperator(world, 1, 'POST', `/api/ops/refund-requests/${item.id}/approve`);
          statuses.push(approved.status);
          if (approved.status !== 200) {
            const [state] = await world.rows<{ status: string }>('select status from refund_requests where id = $1', [item.id]);
            if (state?.status === 'approved')
              world.fail(
                'refund-approval-stuck',
                `request ${item.id} on ${label} answered ${approved.status} ${approved.body?.code} and stays approved, unrefunded`,
              );
          }
        }
        return statuses;
      };
      const count = (answer: { status: number; body: any }, amount: number) => {
        if (answer.status !== 200) return;
        payment.intendedRefundCents += amount;
        if (answer.body.data.status === 'awaiting_approval') payment.approvalKeys += 1;
      };
      if (mode === 0 || mode === 1) {
        const amount = Math.max(1, Math.min(mode === 0 ? threshold : row.total, Math.ceil((row.total * p.share!) / 100)));
        const answer = await request(amount, randomUUID(), 0);
        count(answer, amount);
        const approvals = answer.body?.data?.status === 'awaiting_approval' ? await approveWaiting() : [];
        return `refund ${amount} c of ${label}: ${answer.status} ${answer.body?.data?.status ?? answer.body?.code ?? ''}${approvals.length ? `, approved ${approvals.join('/')}` : ''}`;
      }
      if (mode === 2) {
        // Above the threshold and, when the payment allows it, within what it can give back.
        const amount = left > threshold ? threshold + 1 + Math.floor(((left - threshold - 1) * p.share!) / 100) : threshold + 1;
        const key = randomUUID();
        const answers = await Promise.all([request(amount, key, 0), request(amount, key, 0)]);
        const ok = answers.find((answer) => answer.status === 200);
        if (ok) count(ok, amount);
        const approvals = await approveWaiting();
        return `refund ${amount} c of ${label} double-clicked: ${answers.map((answer) => answer.status).join('/')}, approved ${approvals.join('/') || 'none'}`;
      }
      if (mode === 3) {
        const parts = 3;
        const amount = Math.max(1, Math.min(threshold, Math.floor(left / parts)));
        const statuses: number[] = [];
        for (let i = 0; i < parts; i += 1) {
          const answer = await request(amount, randomUUID(), 0);
          count(answer, amount);
          statuses.push(answer.status);
        }
        return `refund of ${label} split into ${parts} × ${amount} c: ${statuses.join('/')}`;
      }
      const amount = p.share! % 2 === 0 ? 2_147_483_647 : 2_147_483_648;
      const answer = await request(amount, randomUUID(), 0);
      count(answer, amount);
      return `refund ${amount} c of ${label}: ${answer.status} ${answer.body?.code ?? ''}`;
    },
  },

  /** The provider's dispute: a chargeback of what is left, then lost (kept) or won (reinstated). */
  dispute: {
    weight: 2,
    params: (prng) => ({ payment: prng.int(0, ANY), won: prng.int(0, 1), n: prng.int(0, 1) }),
    async run(world, p) {
      const payment = pickOf(world.payments, p.payment!);
      if (!payment) return null;
      const row = await paymentRow(world, payment.id);
      if (!row || row.status !== 'succeeded') return null;
      const amount = row.total - row.refunded;
      if (amount <= 0) return null;
      const charged = await deliverEvent(world, payment, 'payment.chargeback', amount, p.n!);
      const reinstated = p.won === 1 ? await deliverEvent(world, payment, 'payment.reinstated', amount, p.n! + 1) : null;
      return `dispute of ${amount} c on payment #${world.payments.indexOf(payment)}: ${charged?.status}${reinstated ? `, won ${reinstated.status}` : ', lost'}`;
    },
  },

  /**
   * Webhooks as providers send them: a success delivered again (same event, or a new id), late after refunds, or a
   * failure after success. A success is only ever sent for a charge the payer paid: a provider never tells of one
   * for a checkout left open.
   */
  webhook: {
    weight: 3,
    params: (prng) => ({ payment: prng.int(0, ANY), kind: prng.int(0, 2), n: prng.int(0, 1) }),
    async run(world, p) {
      const payment = pickOf(world.payments, p.payment!);
      if (!payment) return null;
      const row = await paymentRow(world, payment.id);
      if (!row || row.status === 'pending') return null;
      const [charge] = await world.rows<{ status: string }>('select status from sandbox_charges where payment_id = $1', [
        payment.id,
      ]);
      if (p.kind !== 2 && charge?.status !== 'succeeded' && charge?.status !== 'refunded') return null;
      const label = `payment #${world.payments.indexOf(payment)}`;
      if (p.kind === 0) {
        const id = `evt_sim_${randomUUID()}`;
        const answers = await Promise.all([
          deliverEvent(world, payment, 'payment.succeeded', row.total, p.n!, id),
          deliverEvent(world, payment, 'payment.succeeded', row.total, p.n! + 1, id),
        ]);
        return `${label}: its success delivered twice at once: ${answers.map((answer) => answer?.status).join('/')}`;
      }
      if (p.kind === 1) {
        const answer = await deliverEvent(world, payment, 'payment.succeeded', row.total, p.n!);
        return `${label}: a late success (new event id) after ${row.status}: ${answer?.status}`;
      }
      const answer = await deliverEvent(world, payment, 'payment.failed', row.total, p.n!);
      return `${label}: a failure after ${row.status}: ${answer?.status}`;
    },
  },

  /** A withdrawal of part or all of the balance, confirmed by its texted code; the sandbox rail pays it. */
  payout: {
    weight: 3,
    params: (prng) => ({ user: prng.int(0, ANY), share: prng.int(10, 100) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user?.methodId) return null;
      const { main } = await balancesOf(world, user);
      if (main <= 0) return null;
      const amount = Math.max(PAYOUT_MIN_CENTS, Math.floor((main * p.share!) / 100));
      const asked = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/payouts`, {
        key: randomUUID(),
        json: { amount_cents: amount, method_id: user.methodId },
      });
      if (asked.status !== 201)
        return `payout of ${amount} c (balance ${main}) refused ${asked.status} ${asked.body?.code ?? ''}`;
      const id = asked.body.data.id as string;
      world.payouts.push({ id, user: world.users.indexOf(user) });
      const code = await world.codeFrom(0, user.phone, `withdrawal ${payoutRef(id)}:`);
      const confirmed = await asUser(world, user, 'POST', `/api/payouts/${id}/confirm`, { json: { code } });
      return `payout #${world.payouts.length - 1} of ${amount} c by user ${indexOf(world.users, user)}: confirmed ${confirmed.status}`;
    },
  },

  /**
   * Automatic payouts (issue 31): a weekly, monthly or above-an-amount schedule, confirmed with its texted code; the
   * workers run it when due (`dueSchedules` makes it due now).
   */
  setSchedule: {
    weight: 1,
    params: (prng) => ({ user: prng.int(0, ANY), kind: prng.int(0, 2), day: prng.int(1, 7), threshold: prng.int(5, 40) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user?.methodId) return null;
      const rule =
        p.kind === 0
          ? { kind: 'weekly', weekday: p.day }
          : p.kind === 1
            ? { kind: 'monthly', month_day: p.day! * 4 }
            : { kind: 'threshold', threshold_cents: p.threshold! * 100 };
      const asked = await asUser(world, user, 'PUT', `/api/clients/${user.clientId}/payout-schedule`, {
        json: { ...rule, method_id: user.methodId },
      });
      if (asked.status !== 202) return `schedule ${rule.kind} refused ${asked.status} ${asked.body?.code ?? ''}`;
      const code = await world.codeFrom(0, user.phone, 'automatic payouts');
      const confirmed = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/payout-schedule/confirm`, {
        json: { change_id: asked.body.data.pending_change.id, code },
      });
      return `user ${indexOf(world.users, user)} sets a ${rule.kind} schedule: ${confirmed.status}`;
    },
  },

  /** Schedules fall due now, some twice over (a stale due time after a restart): each period still pays once. */
  dueSchedules: {
    weight: 1,
    params: () => ({}),
    async run(world) {
      const [moved] = await world.rows<{ count: number }>(
        `with due as (update payout_schedules set next_run_at = now() - interval '1 minute' where status = 'active' returning 1)
         select count(*)::int as count from due`,
      );
      return `${moved!.count} schedules fall due`;
    },
  },

  /** A withdrawal by SEPA Instant where the account's bank takes it: paid (or rejected) within seconds. */
  instantPayout: {
    weight: 1,
    params: (prng) => ({ user: prng.int(0, ANY) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user?.methodId) return null;
      const { main } = await balancesOf(world, user);
      const amount = main - PAYOUT_FEE_CENTS;
      if (amount < PAYOUT_MIN_CENTS) return null;
      const asked = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/payouts`, {
        key: randomUUID(),
        json: { amount_cents: amount, method_id: user.methodId, instant: true },
      });
      if (asked.status !== 201)
        return `instant payout of ${amount} c (balance ${main}) refused ${asked.status} ${asked.body?.code ?? ''}`;
      const id = asked.body.data.id as string;
      world.payouts.push({ id, user: world.users.indexOf(user) });
      const code = await world.codeFrom(0, user.phone, `withdrawal ${payoutRef(id)}:`);
      const confirmed = await asUser(world, user, 'POST', `/api/payouts/${id}/confirm`, { json: { code } });
      return `instant payout #${world.payouts.length - 1} of ${amount} c by user ${indexOf(world.users, user)}: confirmed ${confirmed.status}`;
    },
  },

  /** The bank returns a withdrawal (the back office records it). */
  payoutReturned: {
    weight: 1,
    params: (prng) => ({ payout: prng.int(0, ANY) }),
    async run(world, p) {
      const payout = pickOf(world.payouts, p.payout!);
      if (!payout) return null;
      const answer = await asOperator(world, 0, 'POST', `/api/ops/payouts/${payout.id}/outcome`, {
        json: { outcome: 'returned', reason_code: 'AC04' },
      });
      return `payout #${world.payouts.indexOf(payout)} returned: ${answer.status} ${answer.body?.code ?? ''}`;
    },
  },

  /**
   * The bank's status report closes a sent SEPA file (docs/decisions/0049). The simulator's servers pay through the
   * sandbox rail, so the bank's file rail is played by a withdrawal (as `payout`) moved at once, with any other SEPA
   * payout the sandbox has not settled yet, onto the SEPA file rail (a direct write, as the time jump; the sandbox
   * worker may be settling one of them meanwhile, and then the report finds it settled). Then a file of them, marked
   * sent, and the bank's pain.002 or camt.054 answering each payout paid or returned (seeded), previewed, then imported
   * by both operators at once. A SEPA file an earlier run left with payouts in flight (a kill between two calls) is
   * answered the same way.
   */
  bankReport: {
    weight: 1,
    params: (prng) => ({ user: prng.int(0, ANY), share: prng.int(10, 100), outcomes: prng.int(0, ANY), camt: prng.int(0, 1) }),
    async run(world, p) {
      const withdrawal = p.user === undefined ? null : await ACTIONS.payout!.run(world, { user: p.user, share: p.share! });
      const moved = await world.rows<{ id: string }>(
        `update payouts set rail = 'sepa_file' where id in (
           select id from payouts where status = 'in_flight' and rail = 'sandbox' and dest_kind = 'sepa'
             and batch_id is null and not instant
           for update skip locked) returning id`,
      );
      await asOperator(world, 0, 'POST', '/api/ops/payout-batches', { json: { kind: 'sepa' } });
      const open = await world.rows<{ id: string }>(
        `select distinct b.id from payout_batches b join payouts p on p.batch_id = b.id
         where b.kind = 'sepa' and p.status = 'in_flight' order by b.id`,
      );
      if (open.length === 0) return null;
      const outcomes = mulberry32(p.outcomes!);
      const done: string[] = [];
      for (const { id } of open) {
        await asOperator(world, 0, 'POST', `/api/ops/payout-batches/${id}/sent`);
        const file = await asOperator(world, 1, 'GET', `/api/ops/payout-batches/${id}/file`);
        if (file.status !== 200) {
          done.push(`file ${id.slice(0, 8)}: download ${file.status}`);
          continue;
        }
        const payouts = await world.rows<{ id: string; amount_cents: number }>(
          `select id, amount_cents::int from payouts where batch_id = $1 order by id`,
          [id],
        );
        const answers = payouts.map((payout) =>
          outcomes.chance(0.3)
            ? {
                payoutId: payout.id,
                amountCents: payout.amount_cents,
                outcome: 'returned' as const,
                reason: outcomes.pick(RETURNS),
              }
            : { payoutId: payout.id, amountCents: payout.amount_cents, outcome: 'paid' as const },
        );
        const xml = p.camt
          ? buildCamt054('camt.054.001.08', file.body as string, answers)
          : buildPain002('pain.002.001.10', file.body as string, answers);
        const preview = await asOperator(world, 0, 'POST', `/api/ops/payout-batches/${id}/bank-report/preview`, {
          json: { file: xml },
        });
        const imports = await Promise.all(
          [0, 1].map((n) => asOperator(world, n, 'POST', `/api/ops/payout-batches/${id}/bank-report`, { json: { file: xml } })),
        );
        const moved = imports.map(
          (answer) => `${answer.status} (${answer.body?.data?.paid ?? '-'} paid, ${answer.body?.data?.returned ?? '-'} returned)`,
        );
        done.push(`file ${id.slice(0, 8)} of ${payouts.length}: preview ${preview.status}, imports ${moved.join(' / ')}`);
      }
      return `${withdrawal ?? 'no withdrawal'}; ${moved.length} moved to the file rail; bank report ${p.camt ? 'camt.054' : 'pain.002'}: ${done.join('; ')}`;
    },
  },

  /**
   * The user deletes the account. An available balance goes with the closing payout the preview offers (decision
   * 0025): asked for, its texted code read, and confirmed by the deletion itself; or, a third of the time when `gift`
   * is drawn, it is given whole to a charity user's card (decision 0029), as the balance the preview showed, which the
   * gift's ledger entry must move exactly. A balance the preview offers no way out for (nothing on hold, no debt) is the
   * failure "every cent has a way out".
   */
  deleteAccount: {
    weight: 2,
    params: (prng) => ({ user: prng.int(0, ANY), gift: prng.int(0, 2), charity: prng.int(0, ANY) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user || user.deleted) return null;
      let answer = await asUser(world, user, 'POST', '/api/user/deletion_statements');
      let closing = '';
      if (answer.body?.code === 'deletion_balance') {
        const preview = await asUser(world, user, 'GET', '/api/user/deletion_statements/preview');
        if (preview.body?.data?.outcome !== 'closing_payout') {
          checkWayOut(world, user, await balancesOf(world, user), preview.body?.data);
          return `deletion of user ${indexOf(world.users, user)} refused: ${answer.body?.code}, preview ${preview.body?.data?.outcome}`;
        }
        const charities = world.users.filter((other) => other.charity && other.cardId && !other.deleted && other !== user);
        const charity = p.gift === 0 ? pickOf(charities, p.charity!) : undefined;
        if (charity) {
          const seen: number = preview.body.data.available_cents;
          answer = await asUser(world, user, 'POST', '/api/user/deletion_statements', {
            json: { gift: { card_id: charity.cardId, amount_cents: seen } },
          });
          closing = ` giving ${seen} c to charity user ${indexOf(world.users, charity)}`;
          if (answer.status === 200) {
            const [entry] = await world.rows<{ given: string }>(
              `select (-p.amount_cents)::text as given from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
               where e.kind = 'closing_gift' and a.owner_user_id = $1 and p.amount_cents < 0 order by e.id desc limit 1`,
              [user.userId],
            );
            if (Number(entry?.given) !== seen)
              world.fail(
                'gift-moves-the-balance-seen',
                `user #${world.users.indexOf(user)} gave ${entry?.given ?? 'nothing'} c of the ${seen} c its preview showed`,
              );
          }
        } else {
          if (!user.methodId) return `deletion of user ${indexOf(world.users, user)} waits for a bank account to close out to`;
          const asked = await asUser(world, user, 'POST', `/api/clients/${user.clientId}/closing-payouts`, {
            key: randomUUID(),
            json: { method_id: user.methodId },
          });
          if (asked.status !== 201)
            return `closing payout of user ${indexOf(world.users, user)} refused ${asked.status} ${asked.body?.code ?? ''}`;
          const id = asked.body.data.id as string;
          world.payouts.push({ id, user: world.users.indexOf(user) });
          const code = await world.codeFrom(0, user.phone, `withdrawal ${payoutRef(id)}:`);
          answer = await asUser(world, user, 'POST', '/api/user/deletion_statements', { json: { closing_payout: { id, code } } });
          closing = ` with closing payout #${world.payouts.length - 1} of ${asked.body.data.amount_cents} c`;
        }
      }
      if (answer.status === 200) {
        user.deleted = true;
        user.deletedAt = new Date();
        return `user ${indexOf(world.users, user)} deleted${closing}`;
      }
      return `deletion of user ${indexOf(world.users, user)}${closing} refused: ${answer.body?.code}`;
    },
  },

  /** A guest pays a tip at the moment its recipient deletes the account. */
  tipRacingDeletion: {
    weight: 1,
    params: (prng) => ({ user: prng.int(0, ANY), ...guestParams(prng) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (!user?.cardId || user.charity || user.deleted) return null;
      const payer = p.payer! % PAYERS;
      const opened = await world.call(
        server(p.n!),
        world.guestIp(1_000 + payer),
        'POST',
        `/api/public/cards/${user.cardId}/payments`,
        {
          key: randomUUID(),
          json: { amount_cents: p.cents, cover_fee: false, terms_accepted: true },
        },
      );
      if (opened.status !== 201) return `tip refused ${opened.status}`;
      const payment = remember(world, opened.body.data, 'tip', payer);
      const [paid, deleted] = await Promise.all([
        payCheckout(world, payment.checkoutUrl, payer, p.wallet! % 3 === 0, p.n! + 1),
        asUser(world, user, 'POST', '/api/user/deletion_statements'),
      ]);
      if (deleted.status === 200) Object.assign(user, { deleted: true, deletedAt: new Date() });
      return `payment #${world.payments.indexOf(payment)} paid (${paid}) while user ${indexOf(world.users, user)} deletes the account (${deleted.status} ${deleted.body?.code ?? ''})`;
    },
  },

  restoreAccount: {
    weight: 1,
    params: (prng) => ({ user: prng.int(0, ANY) }),
    async run(world, p) {
      const deleted = world.users.filter((user) => user.deleted);
      const user = pickOf(deleted, p.user!);
      if (!user) return null;
      const answer = await asUser(world, user, 'POST', '/api/user/restore');
      if (answer.status === 200) Object.assign(user, { deleted: false, deletedAt: null });
      return `restore of user ${indexOf(world.users, user)}: ${answer.status} ${answer.body?.code ?? ''}`;
    },
  },

  /** A month passes for due times (see the file's comment): restore windows close, erasures, referral checks and charges fall due. */
  timeJump: {
    weight: 1,
    params: () => ({}),
    async run(world) {
      const month = "interval '31 days'";
      const moved = await world.rows<{ what: string; count: number }>(`
        with deletions as (update users set deleted_at = deleted_at - ${month}, erasure_due_at = erasure_due_at - ${month} where deleted_at is not null and erased_at is null returning 1),
             rewards as (update referral_rewards set next_check_at = next_check_at - ${month}, window_ends_at = window_ends_at - ${month} where status = 'pending' returning 1),
             plans as (update donation_plans set next_charge_at = next_charge_at - ${month} where next_charge_at is not null returning 1),
             teams_moved as (update teams set created_at = created_at - ${month} returning 1),
             memberships as (update team_memberships set joined_at = joined_at - ${month}, left_at = left_at - ${month} returning 1),
             -- Tips move back with their team, except out of or into a month already closed: a closed month keeps its tips.
             splits as (update team_tip_splits s set at = at - ${month} where not exists (select 1 from team_periods p where p.team_id = s.team_id
                          and p.month in (to_char(s.at at time zone 'UTC', 'YYYY-MM'), to_char((s.at - ${month}) at time zone 'UTC', 'YYYY-MM'))) returning 1),
             -- A closed period's 24 hours to object are over a month later, so the admin may lock it (and then adjust it).
             windows as (update team_periods set objections_until = objections_until - ${month} where locked_at is null returning 1)
        select 'deletions' as what, count(*)::int as count from deletions union all
        select 'rewards', count(*)::int from rewards union all select 'plans', count(*)::int from plans union all
        select 'teams', count(*)::int from teams_moved union all select 'memberships', count(*)::int from memberships union all
        select 'team tips', count(*)::int from splits union all select 'objection windows', count(*)::int from windows`);
      return `a month passes: ${moved.map((row) => `${row.count} ${row.what}`).join(', ')}`;
    },
  },

  /** Input no client of ours sends: deeply nested JSON, year-0 dates, integers that are not, an amount past int4. */
  oddInput: {
    weight: 1,
    params: (prng) => ({ kind: prng.int(0, 2), user: prng.int(0, ANY) }),
    async run(world, p) {
      const user = pickOf(world.users, p.user!);
      if (p.kind === 0) {
        const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
        const answer = await world.call(0, world.guestIp(2_000), 'POST', '/api/contact', { rawJson: `{"message":${deep}}` });
        return `JSON nested 5,000 deep: ${answer.status}`;
      }
      if (!user) return null;
      if (p.kind === 1) {
        const team = world.teams.find((item) => item.admin === world.users.indexOf(user));
        const answers = [await asOperator(world, 0, 'GET', '/api/ops/audit?from=0000-01-01T00:00:00Z&to=2030-01-01T00:00:00Z')];
        if (team)
          answers.push(
            await asUser(
              world,
              user,
              'GET',
              `/api/teams/${team.teamId}/statistics?from=0000-01-01T00:00:00Z&to=2030-01-01T00:00:00Z`,
            ),
          );
        return `year-0 dates: ${answers.map((answer) => answer.status).join('/')}`;
      }
      const answers = await Promise.all(
        [true, '0x2', [2]].map((quantity) =>
          asUser(world, user, 'POST', `/api/clients/${user.clientId}/card-orders`, {
            key: randomUUID(),
            json: { product: 'sticker', quantity, ...ADDRESS },
          }),
        ),
      );
      const accepted = answers.filter((answer) => answer.status < 300).length;
      if (accepted > 0)
        world.fail(
          'integers-are-integers',
          `card order quantity true / "0x2" / [2] answered ${answers.map((answer) => answer.status).join('/')}`,
        );
      return `odd quantities: ${answers.map((answer) => answer.status).join('/')}`;
    },
  },

  /** kill -9 of a server or a worker, restarted at once. */
  kill: {
    weight: 1,
    fault: true,
    params: (prng) => ({ which: prng.int(0, 3) }),
    async run(world, p) {
      return `kill -9 ${await world.kill(p.which!)} and restart`;
    },
  },
};

/**
 * A balance the owner wants gone must have a way out. While the run goes on, a withdrawal still on its way or a debt
 * the ledger's job has yet to repay from main (docs/decisions/0028) is a wait, not a dead end; once the workers have
 * drained (the end's checks), any refusal of an available balance with nothing on hold is.
 */
export function checkWayOut(
  world: World,
  user: SimUser,
  balances: { main: number; hold: number; ok: boolean },
  preview: { outcome?: string; blockers?: string[] } | undefined,
) {
  const passing = ['deletion_pending_payout', 'deletion_debt'];
  const waits =
    !world.ending &&
    (preview?.blockers ?? []).every((blocker) => passing.includes(blocker)) &&
    (preview?.blockers?.length ?? 0) > 0;
  if (balances.ok && balances.hold === 0 && balances.main > 0 && !waits) {
    world.fail(
      'small-balance-without-way-out',
      `user #${world.users.indexOf(user)} holds ${balances.main} c: deletion asks to withdraw it, and its preview offers ${preview?.outcome ?? 'nothing'} (${(preview?.blockers ?? []).join(', ') || 'no blocker'})`,
    );
  }
}

export { balancesOf };

export function generate(prng: Prng, step: number, faults: boolean): Action {
  // The first steps make people to act on; after that the weighted mix.
  const weights = Object.fromEntries(
    Object.entries(ACTIONS)
      .filter(([, kind]) => faults || !kind.fault)
      .map(([name, kind]) => [name, kind.weight]),
  );
  const name = step < 3 ? 'signUp' : prng.weighted(weights);
  return { name, p: ACTIONS[name]!.params(prng) };
}

export const describe = (action: Action) =>
  `${action.name}(${Object.entries(action.p)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ')})`;
