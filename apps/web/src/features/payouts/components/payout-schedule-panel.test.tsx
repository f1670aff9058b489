import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PayoutScheduleState } from '@tipcard/shared/payouts/schedules';
import { apiError, fakeApi, pending, type SentRequest } from '../../../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../../../test/fixtures.ts';
import { renderPage } from '../../../test/render-page.tsx';
import { METHOD_ID, NO_SCHEDULE, ROUTES, sepaMethod } from '../test-data.ts';
import { PayoutSchedulePanel } from './payout-schedule-panel.tsx';

const CHANGE_ID = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const method = { id: METHOD_ID, kind: 'sepa' as const, masked_account: 'LV•• •••• •••• •••• •••• 5001', holder: 'Anna Ozola' };
const weekly = { kind: 'weekly' as const, weekday: 1, month_day: null, threshold_cents: null, method };
const inForce: PayoutScheduleState = {
  schedule: { ...weekly, status: 'active', next_run_at: '2026-03-09T07:00:00Z', paused_for: null },
  pending_change: null,
  last_run: {
    period: '2026-03-02',
    outcome: 'paid',
    reason: null,
    amount_cents: 4_250,
    payout_id: 'c18c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9da0',
    ran_at: '2026-03-02T07:00:05Z',
  },
};

const render = (methods = [sepaMethod()], methodsPending = false) =>
  renderPage(<PayoutSchedulePanel clientId={CLIENT_ID} methods={methods} methodsPending={methodsPending} />, {
    path: '/payouts',
  });

describe('the automatic payouts panel', () => {
  it('holds a place while it loads', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.schedule]: pending });
    await render();
    expect(await screen.findByRole('status', { name: 'Loading your automatic payouts' })).toBeInTheDocument();
  });

  it('offers to try again after it failed to load', async () => {
    let calls = 0;
    fakeApi({
      ...signedInRoutes(),
      [ROUTES.schedule]: () => (++calls === 1 ? apiError(500, 'internal_error') : NO_SCHEDULE),
    });
    await render();
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/Automatic payouts are off/)).toBeInTheDocument();
  });

  it('sets a weekly schedule: the rule, the texted code, then the schedule in force', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.schedule]: NO_SCHEDULE,
      [ROUTES.setSchedule]: {
        ...NO_SCHEDULE,
        pending_change: { id: CHANGE_ID, ...weekly, weekday: 5, code_expires_at: '2026-03-02T10:10:00Z' },
      },
      [ROUTES.confirmSchedule]: (request: SentRequest) =>
        (request.body as { code: string }).code === '123456'
          ? { ...inForce, schedule: { ...inForce.schedule!, weekday: 5 }, last_run: null }
          : apiError(403, 'wrong_code'),
    });
    await render();
    await userEvent.click(await screen.findByRole('button', { name: 'Set up automatic payouts' }));
    const form = screen.getByRole('form', { name: 'Automatic payout schedule' });
    expect(within(form).getByRole('radio', { name: 'Every week' })).toBeChecked();
    await userEvent.selectOptions(within(form).getByRole('combobox', { name: 'Day of the week' }), 'Friday');
    await userEvent.click(within(form).getByRole('button', { name: 'Text me the code' }));
    expect(api.sent(ROUTES.setSchedule)[0]!.body).toEqual({ kind: 'weekly', weekday: 5, method_id: METHOD_ID });

    expect(await screen.findByText(/It turns on automatic payouts: Every Friday, to LV•• •••• 5001/)).toBeInTheDocument();
    const code = screen.getByRole('textbox', { name: 'Code from the SMS' });
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Code that you entered is not correct')).toBeInTheDocument();
    expect(code).toHaveValue('');
    expect(code).toHaveFocus();
    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Every Friday')).toBeInTheDocument();
    expect(screen.getByTestId('schedule-next-run')).toHaveTextContent(/^Next payout: Mar 9, 2026/);
    expect(api.sent(ROUTES.confirmSchedule).at(-1)!.body).toEqual({ change_id: CHANGE_ID, code: '123456' });
  });

  it('asks for an amount of at least the minimum plus the fee for a threshold schedule', async () => {
    const api = fakeApi({ ...signedInRoutes(), [ROUTES.schedule]: NO_SCHEDULE, [ROUTES.setSchedule]: NO_SCHEDULE });
    await render();
    await userEvent.click(await screen.findByRole('button', { name: 'Set up automatic payouts' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Above an amount' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), '4');
    await userEvent.click(screen.getByRole('button', { name: 'Text me the code' }));
    expect(await screen.findByText(/^Enter an amount from €5\.00 to €10.000\.00\.$/)).toBeInTheDocument();
    expect(api.sent(ROUTES.setSchedule)).toHaveLength(0);
    await userEvent.clear(screen.getByRole('textbox', { name: 'Amount' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), '50');
    await userEvent.click(screen.getByRole('button', { name: 'Text me the code' }));
    await vi.waitFor(() => expect(api.sent(ROUTES.setSchedule)).toHaveLength(1));
    expect(api.sent(ROUTES.setSchedule)[0]!.body).toEqual({ kind: 'threshold', threshold_cents: 5_000, method_id: METHOD_ID });
  });

  it('shows the last run, a pause and its reason, and turns automatic payouts off', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.schedule]: {
        ...inForce,
        schedule: { ...inForce.schedule!, paused_for: 'verification_required' },
        last_run: { ...inForce.last_run!, outcome: 'paused', reason: 'verification_required', amount_cents: 0, payout_id: null },
      },
      [ROUTES.cancelSchedule]: NO_SCHEDULE,
    });
    await render();
    expect(await screen.findByText(/Paused: payouts wait until your identity is verified/)).toBeInTheDocument();
    expect(screen.getByTestId('schedule-last-run')).toHaveTextContent(
      'Last run, Mar 2, 2026: paused, your identity has to be verified first.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText(/Automatic payouts are off:/)).toBeInTheDocument();
    expect(api.sent(ROUTES.cancelSchedule)).toHaveLength(1);
  });

  it('says a paid run’s amount, and asks for an account when there is none', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.schedule]: inForce });
    await render([]);
    expect(await screen.findByTestId('schedule-last-run')).toHaveTextContent('€42.50 sent to your bank account.');
    expect(screen.getByText('Add a payout account first.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change' })).not.toBeInTheDocument();
  });
});
