import { TIP_MAX_CENTS } from '@tipcard/shared/payments/fees';
import { expect } from 'vitest';
import { createSandboxProvider, SANDBOX_SIGNATURE_HEADER } from '../../integrations/sandbox-psp/sandbox-provider.ts';
import { settleDueTips } from '../transactions/transactions.service.ts';
import type { TestApp } from '../../test/test-app.ts';
import { payoutRef } from './payouts.service.ts';

/** Puts `cents` on the owner's main balance the way money really arrives: paid tips, their webhooks, settlement (FEE_PERCENT=0, HOLD_HOURS=0). */
export async function fundMain(t: TestApp, owner: { cardId: string }, cents: number) {
  for (let left = cents; left > 0; left -= TIP_MAX_CENTS) await receiveTip(t, owner, Math.min(left, TIP_MAX_CENTS));
  await settleDueTips(t.app.db, t.clock.now());
}

async function receiveTip(t: TestApp, owner: { cardId: string }, cents: number) {
  const created = await t.call({
    method: 'POST',
    url: `/api/public/cards/${owner.cardId}/payments`,
    headers: { 'idempotency-key': crypto.randomUUID() },
    payload: { amount_cents: cents, cover_fee: false, terms_accepted: true },
  });
  expect(created.status).toBe(201);
  const payment = created.body.data;
  const token = new URL(payment.checkout_url).searchParams.get('c')!;
  const body = JSON.stringify({
    id: `evt_${crypto.randomUUID()}`,
    type: 'payment.succeeded',
    provider_ref: JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).ref,
    payment_id: payment.id,
    amount_cents: payment.total_cents,
    currency: 'EUR',
    created_at: t.clock.now().getTime(),
  });
  const signer = createSandboxProvider({ db: t.app.db, clock: t.clock, publicUrl: t.app.config.publicUrl, secret: t.app.config.jwtSecret, deliveryDelayMs: 0, deliver: async () => 200 });
  const delivered = await t.call({
    method: 'POST',
    url: '/api/webhooks/sandbox',
    headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signer.signEvent(body) },
    payload: body,
  });
  expect(delivered.body.data.outcome).toBe('applied');
}

/** The code texted for this payout (the SMS names the payout's short reference). */
export async function codeFor(t: TestApp, phone: string, payoutId: string): Promise<string> {
  // The dev outbox, newest first, as a developer reads it (200 is its page limit and the concurrency test's size).
  const outbox = await t.call({ method: 'GET', url: `/api/dev/outbox?limit=200&to=${encodeURIComponent(phone)}` });
  const messages: { body: string }[] = outbox.body.data;
  const body = messages.find((message) => message.body.includes(`withdrawal ${payoutRef(payoutId)}:`))?.body ?? '';
  const code = /code is (\d{6})/.exec(body)?.[1];
  if (!code) throw new Error(`no code texted for payout ${payoutId}`);
  return code;
}

export const SEPA_METHOD = { kind: 'sepa', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', holder_last_name: 'Müller', address: 'Hauptstraße 1, Berlin' } as const;
export const UK_METHOD = { kind: 'uk', account_number: '31926819', sort_code: '60-16-13', holder_name: 'Jane Smith', address: '1 High St, London' } as const;
