import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { signedInRoutes } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import PayoutConfirmationPage from './payout-confirmation-page.tsx';
import { PAYOUT_ID, payout, ROUTES } from './test-data.ts';

const page = { path: `/payouts/${PAYOUT_ID}/confirmation`, route: '/payouts/:payoutId/confirmation' };

describe('the payout confirmation page', () => {
  it('says it is loading the payout', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.payout]: pending });
    await renderPage(<PayoutConfirmationPage />, page);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the payout…');
  });

  it('asks for the SMS code next to what is being paid out, and where to', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.payout]: payout('awaiting_confirmation') });
    await renderPage(<PayoutConfirmationPage />, page);
    expect(await screen.findByRole('textbox', { name: 'Confirmation code' })).toHaveFocus();
    expect(screen.getByRole('heading', { level: 1, name: 'Confirm payout' })).toBeInTheDocument();
    expect(screen.getByText('To the account of Anna Ozola.')).toBeInTheDocument();
    expect(screen.getByTestId('confirm-account')).toHaveTextContent('LV•• •••• 5001');
    expect(screen.getByRole('button', { name: 'Confirm €10.00' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to payouts' })).toHaveAttribute('href', '/payouts');
  });

  it('sends the code without spaces and shows the payout on its way', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.payout]: payout('awaiting_confirmation'),
      [ROUTES.confirm]: payout('in_flight'),
    });
    await renderPage(<PayoutConfirmationPage />, page);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Confirmation code' }), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm €10.00' }));
    const outcome = await screen.findByTestId('payout-outcome');
    expect(within(outcome).getByRole('heading')).toHaveTextContent('Your money is on its way');
    expect(screen.getByTestId('outcome-amount')).toHaveTextContent('€10.00');
    expect(screen.getByRole('heading', { level: 1, name: 'Payout' })).toBeInTheDocument();
    expect(api.sent(ROUTES.confirm)[0]!.body).toEqual({ code: '123456' });
  });

  it('asks for the code when the field is left empty, and sends nothing', async () => {
    const api = fakeApi({ ...signedInRoutes(), [ROUTES.payout]: payout('awaiting_confirmation') });
    await renderPage(<PayoutConfirmationPage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm €10.00' }));
    expect(await screen.findByText('The field is empty')).toBeInTheDocument();
    expect(api.sent(ROUTES.confirm)).toEqual([]);
  });

  it('says when the code is wrong, and shows the payout as it is now', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.payout]: payout('awaiting_confirmation'),
      [ROUTES.confirm]: apiError(403, 'wrong_code'),
    });
    await renderPage(<PayoutConfirmationPage />, page);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Confirmation code' }), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm €10.00' }));
    expect(await screen.findByText('Code that you entered is not correct')).toBeInTheDocument();
    const field = screen.getByRole('textbox', { name: 'Confirmation code' });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    // The refused code is cleared and the field focused, so the next one is typed straight in.
    expect(field).toHaveValue('');
    expect(field).toHaveFocus();
    await vi.waitFor(() => expect(api.sent(ROUTES.payout)).toHaveLength(2));
  });

  it('says so after too many attempts', async () => {
    fakeApi({
      ...signedInRoutes(),
      [ROUTES.payout]: payout('awaiting_confirmation'),
      [ROUTES.confirm]: apiError(429, 'too_many_attempts'),
    });
    await renderPage(<PayoutConfirmationPage />, page);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Confirmation code' }), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm €10.00' }));
    expect(await screen.findByRole('textbox', { name: 'Confirmation code' })).toHaveAccessibleDescription(/Too many attempts/);
  });

  it('sends a new code on request, then counts down to the next one', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [ROUTES.payout]: payout('awaiting_confirmation'),
      [ROUTES.resend]: payout('awaiting_confirmation', { resend_after_seconds: 60 }),
    });
    await renderPage(<PayoutConfirmationPage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText(/^Send a new code in \d+ s$/)).toBeInTheDocument();
    expect(snackbarText()).toBe('We sent you a new code.');
    expect(screen.queryByRole('button', { name: 'Send a new code' })).not.toBeInTheDocument();
    expect(api.sent(ROUTES.resend)).toHaveLength(1);
  });

  it('waits to offer a new code while the last one is fresh', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.payout]: payout('awaiting_confirmation', { resend_after_seconds: 45 }) });
    await renderPage(<PayoutConfirmationPage />, page);
    expect(await screen.findByText(/^Send a new code in \d+ s$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a new code' })).not.toBeInTheDocument();
  });

  it.each([
    ['paid', 'Payout paid', 'Paid on'],
    ['returned', 'The payout was returned', 'Expected arrival'],
    ['expired', 'This payout expired', 'Expected arrival'],
  ] as const)('tells how a %s payout ended', async (status, title, dateLabel) => {
    fakeApi({ ...signedInRoutes(), [ROUTES.payout]: payout(status) });
    await renderPage(<PayoutConfirmationPage />, page);
    const outcome = await screen.findByTestId('payout-outcome');
    expect(within(outcome).getByRole('heading')).toHaveTextContent(title);
    expect(screen.getByText(dateLabel)).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Confirmation code' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to payouts' })).toHaveAttribute('href', '/payouts');
  });

  it('says when there is no such payout', async () => {
    fakeApi({ ...signedInRoutes(), [ROUTES.payout]: apiError(404, 'not_found') });
    await renderPage(<PayoutConfirmationPage />, page);
    expect(await screen.findByText('This payout could not be found.')).toBeInTheDocument();
  });
});
