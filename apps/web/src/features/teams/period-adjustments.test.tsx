import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PeriodAdjustment } from '@tipcard/shared/teams/schemas';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { signedInRoutes, USER_ID } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import { PeriodsPanel } from './components/team-periods.tsx';
import { COLLEAGUE_ID, period, team, TEAM_ROUTES } from './workplace-test-data.ts';

const locked = {
  state: 'locked' as const,
  closed_at: '2026-11-02T09:00:00.000Z',
  locked_at: '2026-11-03T10:00:00.000Z',
  locked_by: { user_id: USER_ID, public_name: 'Anna' },
};
const adjustment: PeriodAdjustment = {
  id: '8dac1d2e-3f4a-4b6c-8d7e-8f9a0b1c2d67',
  from: { user_id: USER_ID, public_name: 'Anna' },
  to: { user_id: COLLEAGUE_ID, public_name: 'Jānis' },
  amount_cents: 1_250,
  reason: 'Jānis covered the Saturday shift.',
  created_at: '2026-11-10T12:00:00.000Z',
  created_by: { user_id: USER_ID, public_name: 'Anna' },
};

async function openForm() {
  const row = within(await screen.findByTestId('period-2026-10'));
  await userEvent.click(row.getByRole('button', { name: 'Add an adjustment' }));
  const form = within(row.getByTestId('adjustment-form'));
  await userEvent.selectOptions(form.getByLabelText('From'), 'Anna');
  await userEvent.selectOptions(form.getByLabelText('To'), 'Jānis');
  await userEvent.type(form.getByLabelText(/Amount/), '12,50');
  await userEvent.type(form.getByLabelText(/Reason/), 'Jānis covered the Saturday shift.');
  return { row, form };
}

describe('adjustments of a locked period', () => {
  it('lets the admin move an amount after a review, once, and then lists it', async () => {
    let current = period({ ...locked, can_adjust: true });
    const api = fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.periods]: () => [current],
      [TEAM_ROUTES.adjustPeriod]: () => {
        current = period({ ...locked, can_adjust: true, adjustments: [adjustment] });
        return { adjustment, period: current };
      },
    });
    await renderPage(<PeriodsPanel team={team()} />);
    const { row, form } = await openForm();
    await userEvent.click(form.getByRole('button', { name: 'Review' }));
    const review = await screen.findByRole('dialog', { name: 'Move €12.50?' });
    expect(review).toHaveTextContent('From Anna to Jānis, for October 2026.');
    expect(api.sent(TEAM_ROUTES.adjustPeriod)).toHaveLength(0);
    await userEvent.click(within(review).getByRole('button', { name: 'Move the money' }));
    await waitFor(() => expect(snackbarText()).toBe('Adjustment recorded'));
    const [sent] = api.sent(TEAM_ROUTES.adjustPeriod);
    expect(sent!.body).toEqual({
      from_user_id: USER_ID,
      to_user_id: COLLEAGUE_ID,
      amount_cents: 1_250,
      reason: 'Jānis covered the Saturday shift.',
    });
    expect(sent!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await row.findByTestId('period-adjustment')).toHaveTextContent('€12.50 from Anna to Jānis');
    expect(row.getByTestId('period-adjustment')).toHaveTextContent('Jānis covered the Saturday shift.');
    expect(row.queryByTestId('adjustment-form')).not.toBeInTheDocument();
  });

  it('checks the form before sending, and shows a refusal inline, keeping the key for a retry', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.periods]: [period({ ...locked, can_adjust: true })],
      [TEAM_ROUTES.adjustPeriod]: apiError(
        422,
        'team_adjustment_balance_short',
        'The giving member’s available balance is less than this amount: nothing was moved',
        { amount_cents: ['The giving member’s available balance is less than this amount: nothing was moved'] },
      ),
    });
    await renderPage(<PeriodsPanel team={team()} />);
    const row = within(await screen.findByTestId('period-2026-10'));
    await userEvent.click(row.getByRole('button', { name: 'Add an adjustment' }));
    const form = within(row.getByTestId('adjustment-form'));
    await userEvent.selectOptions(form.getByLabelText('From'), 'Anna');
    await userEvent.selectOptions(form.getByLabelText('To'), 'Anna');
    await userEvent.type(form.getByLabelText(/Amount/), '900');
    await userEvent.click(form.getByRole('button', { name: 'Review' }));
    expect(await form.findByText('Enter an amount between €0.01 and €500.00')).toBeInTheDocument();
    expect(form.getByText('This field is required')).toBeInTheDocument();

    await userEvent.clear(form.getByLabelText(/Amount/));
    await userEvent.type(form.getByLabelText(/Amount/), '12.50');
    await userEvent.type(form.getByLabelText(/Reason/), 'Saturday');
    await userEvent.click(form.getByRole('button', { name: 'Review' }));
    expect(await form.findByText('Choose two different members')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.sent(TEAM_ROUTES.adjustPeriod)).toHaveLength(0);

    await userEvent.selectOptions(form.getByLabelText('To'), 'Jānis');
    for (let attempt = 0; attempt < 2; attempt++) {
      await userEvent.click(form.getByRole('button', { name: 'Review' }));
      await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Move the money' }));
      expect(await form.findByText(/available balance is less than this amount/)).toBeInTheDocument();
    }
    const sent = api.sent(TEAM_ROUTES.adjustPeriod);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers.get('idempotency-key')).toBe(sent[0]!.headers.get('idempotency-key'));
    expect(snackbarText()).toBeNull();
  });

  it('shows a refusal without a field above the buttons', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.periods]: [period({ ...locked, can_adjust: true })],
      [TEAM_ROUTES.adjustPeriod]: apiError(
        409,
        'team_period_not_locked',
        'This period is not locked yet: an adjustment is made after the lock',
      ),
    });
    await renderPage(<PeriodsPanel team={team()} />);
    const { form } = await openForm();
    await userEvent.click(form.getByRole('button', { name: 'Review' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Move the money' }));
    expect(await form.findByTestId('adjustment-refusal')).toHaveTextContent(
      'This period is not locked yet: an adjustment is made after the lock',
    );
  });

  it('shows a member the adjustments they are part of, with no form', async () => {
    fakeApi({
      ...signedInRoutes(),
      [TEAM_ROUTES.periods]: [period({ ...locked, adjustments: [adjustment] })],
    });
    await renderPage(<PeriodsPanel team={team({ is_admin: false })} />);
    const row = within(await screen.findByTestId('period-2026-10'));
    expect(row.getByRole('heading', { name: 'Adjustments after the lock' })).toBeInTheDocument();
    expect(row.getByTestId('period-adjustment')).toHaveTextContent('By Anna, Nov 10, 2026');
    expect(row.queryByRole('button', { name: 'Add an adjustment' })).not.toBeInTheDocument();
  });
});
