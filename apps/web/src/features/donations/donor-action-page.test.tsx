import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicAction } from '@tipcard/shared/donations/schemas';
import { Answer, apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { renderGuestPage } from '../../test/render-guest-page.tsx';
import { DonorActionPage } from './donor-action-page.tsx';

const ACTION_ID = 'b3c4d5e6-f7a8-4b9c-8d0e-1f2a3b4c5d6e';
const ACTION = `GET /public/actions/${ACTION_ID}`;
const CONFIRM = `POST /public/actions/${ACTION_ID}`;

function action(overrides: Partial<PublicAction> = {}, plan: Partial<PublicAction['plan']> = {}): PublicAction {
  return {
    kind: 'cancel',
    state: 'ready',
    expires_at: '2026-12-26T00:00:00Z',
    plan: {
      recipient_name: 'Dzīvnieku draugs',
      donor_name: 'Jānis Bērziņš',
      amount_cents: 1_000,
      cover_fee: false,
      status: 'active',
      next_charge_at: '2026-12-03T00:00:00Z',
      ...plan,
    },
    year: null,
    locale: 'en',
    ...overrides,
  };
}

function openAction(answer: unknown, routes: Record<string, unknown> = {}) {
  const api = fakeApi({ [ACTION]: answer, ...routes });
  return { api, ...renderGuestPage(<DonorActionPage actionId={ACTION_ID} />, { path: `/actions/${ACTION_ID}` }) };
}

afterEach(() => vi.restoreAllMocks());

describe('the donor action page', () => {
  it('says it is loading the link', async () => {
    openAction(pending);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('says a forged or unknown link is not valid', async () => {
    openAction(apiError(404, 'not_found'));
    expect(await screen.findByTestId('action-invalid')).toHaveTextContent('This link is not valid');
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    openAction(() => (failures-- > 0 ? apiError(503, 'unavailable') : action()));
    expect(await screen.findByText('No connection. Check your internet and try again.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Cancel your monthly donation?' })).toBeInTheDocument();
  });

  it.each([
    ['used', action({ state: 'used' }), 'action-used', 'This link has already been used'],
    ['expired', action({ state: 'expired' }), 'action-expired', 'This link has expired'],
    ['of an ended plan', action({}, { status: 'canceled' }), 'action-ended', 'This monthly donation has already ended'],
  ])('offers nothing for a link %s', async (_case, answer, testId, text) => {
    openAction(answer);
    expect(await screen.findByTestId(testId)).toHaveTextContent(text);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('cancels the plan after one confirmation', async () => {
    const { api } = openAction(action(), { [CONFIRM]: action({ state: 'used' }, { status: 'canceled' }) });
    expect(await screen.findByTestId('action-amount')).toHaveTextContent('€10.00 each month');
    expect(screen.getByText('Next donation: December 3, 2026')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel the monthly donation' }));
    expect(await screen.findByTestId('action-done')).toHaveTextContent('Your monthly donation is canceled');
    expect(api.sent(CONFIRM)[0]!.body).toEqual({});
  });

  it('pauses the plan for the months chosen', async () => {
    const { api } = openAction(action({ kind: 'pause' }), {
      [CONFIRM]: action({ kind: 'pause', state: 'used' }, { status: 'paused', next_charge_at: '2027-02-03T00:00:00Z' }),
    });
    expect(await screen.findByRole('radio', { name: '1 month' })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: '2 months' }));
    await userEvent.click(screen.getByRole('button', { name: 'Pause the donation' }));
    expect(await screen.findByTestId('action-done')).toHaveTextContent('Your next donation is on February 3, 2027.');
    expect(api.sent(CONFIRM)[0]!.body).toEqual({ months: 2 });
  });

  it('checks the new amount before changing it', async () => {
    const { api } = openAction(action({ kind: 'change_amount' }), {
      [CONFIRM]: action({ kind: 'change_amount', state: 'used' }, { amount_cents: 1_550 }),
    });
    const amount = await screen.findByRole('textbox', { name: 'New monthly amount' });
    await userEvent.type(amount, '900');
    await userEvent.click(screen.getByRole('button', { name: 'Change the amount' }));
    expect(amount).toHaveAccessibleDescription('Enter an amount from €1.00 to €500.00');
    expect(amount).toHaveFocus();
    expect(api.sent(CONFIRM)).toHaveLength(0);
    await userEvent.type(amount, '0');
    expect(amount).toHaveAccessibleDescription('From €1.00 to €500.00');

    await userEvent.clear(amount);
    await userEvent.type(amount, '15.50');
    await userEvent.click(screen.getByRole('button', { name: 'Change the amount' }));
    expect(await screen.findByTestId('action-done')).toHaveTextContent('From December 3, 2026: €15.50 each month.');
    expect(api.sent(CONFIRM)[0]!.body).toEqual({ amount_cents: 1_550 });
  });

  it('shows the refusal when the link was used meanwhile', async () => {
    openAction(action(), { [CONFIRM]: apiError(409, 'action_link_used') });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the monthly donation' }));
    expect(await screen.findByTestId('action-used')).toBeInTheDocument();
  });

  it.each([
    ['too many requests', apiError(429, 'too_many_requests'), 'Too many attempts. Please wait a moment and try again.'],
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), 'No connection. Check your internet and try again.'],
    ['an unexpected refusal', apiError(500, 'internal'), 'No connection. Check your internet and try again.'],
  ])('says what went wrong after %s, and lets the donor confirm again', async (_case, answer, text) => {
    openAction(action(), { [CONFIRM]: answer });
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel the monthly donation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.getByRole('button', { name: 'Cancel the monthly donation' })).toBeEnabled();
  });

  it('opens in the language the donor gave in', async () => {
    openAction(action({ kind: 'pause', locale: 'lv' }));
    expect(await screen.findByRole('heading', { name: 'Apturēt ikmēneša ziedojumu' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('lv');
  });

  it('downloads a statement as a PDF named by its year', async () => {
    const saved: string[] = [];
    URL.createObjectURL = vi.fn(() => 'blob:statement');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { api } = openAction(action({ kind: 'statement', year: 2026 }), {
      // Not a Blob: the fake API hands a jsdom Blob to Node's Response, which refuses it (the page saves any body).
      [CONFIRM]: new Answer(200, '%PDF-1.7', { 'Content-Type': 'application/pdf' }),
    });
    expect(await screen.findByRole('heading', { name: 'Your donations in 2026' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(saved).toEqual(['donation-statement-2026.pdf']));
    expect(api.sent(CONFIRM)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeEnabled();
  });
});
