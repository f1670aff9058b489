import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TransactionsPage as Page } from '@tipcard/shared/transactions/schemas';
import { apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { CLIENT_ID, payoutTransaction, signedInRoutes, tipTransaction } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import TransactionsPage from './transactions-page.tsx';

const LIST = `GET /clients/${CLIENT_ID}/transactions`;
const CSV = `GET /clients/${CLIENT_ID}/transactions.csv`;

const firstPage: Page = { items: [tipTransaction(), payoutTransaction()], next_cursor: 'cursor-2' };
const lastPage: Page = {
  items: [tipTransaction({ id: '7c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f', detail: { kind: 'invoice', invoice: 'Wedding photos' } })],
  next_cursor: null,
};

const answerRoute = (method: 'GET' | 'POST', id: string) => `${method} /clients/${CLIENT_ID}/transactions/${id}/answer`;

/** The query the page sent, without the page size it always sends. */
const filtersOf = (request: SentRequest) => {
  const query = new URLSearchParams(request.query);
  query.delete('limit');
  return query.toString();
};

describe('the transactions page', () => {
  it('holds places for the lines while they load', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: pending });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    expect(await screen.findByRole('status', { name: 'Loading transactions…' })).toBeInTheDocument();
  });

  it('lists each line with its amount, fee, status, stars and message', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: { items: [tipTransaction(), payoutTransaction()], next_cursor: null } });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    const list = await screen.findByRole('list', { name: 'Transaction list' });
    const [tip, payout] = within(list).getAllByTestId('transaction');
    expect(tip).toHaveTextContent('Tip via Anna');
    expect(within(tip!).getByTestId('transaction-amount')).toHaveTextContent('+€10.00');
    expect(tip).toHaveTextContent('Fee €0.50');
    expect(tip).toHaveTextContent('On hold');
    expect(within(tip!).getByRole('img', { name: 'Rated 5 out of 5' })).toBeInTheDocument();
    expect(tip).toHaveTextContent('“Thank you, lovely service!”');
    expect(payout).toHaveTextContent('Payout to LV•• •••• 5001');
    expect(within(payout!).getByTestId('transaction-amount')).toHaveTextContent('−€25.00');
    expect(screen.getByText('That is everything.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('opens a line to show all of it: dates, amounts, the guest’s words and the id to give support', async () => {
    const settled = tipTransaction({ status: 'PAID', settled_at: '2026-03-03T09:30:00Z' });
    fakeApi({
      ...signedInRoutes(),
      [LIST]: { items: [settled], next_cursor: null },
      [answerRoute('GET', settled.id)]: { can_answer: false, answer: null },
    });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    await userEvent.click(await screen.findByRole('button', { name: /^Details: Tip via Anna/ }));
    const dialog = screen.getByRole('dialog', { name: 'Transaction details' });
    const details = within(dialog).getByTestId('transaction-details');
    expect(details).toHaveTextContent('StatusPaid');
    expect(details).toHaveTextContent('You receive+€10.00');
    expect(details).toHaveTextContent('Service fee€0.50');
    expect(details).toHaveTextContent(/Added to your balanceMar 3, 2026/);
    expect(details).toHaveTextContent('Message“Thank you, lovely service!”');
    expect(details).toHaveTextContent(`Transaction ID (for support)${settled.id}`);
  });

  it('writes the lines in the reader’s language', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: { items: [tipTransaction()], next_cursor: null } });
    await renderPage(<TransactionsPage />, { path: '/transactions', locale: 'es' });
    const row = await screen.findByTestId('transaction');
    expect(within(row).getByTestId('transaction-amount')).toHaveTextContent('+10,00 €');
    expect(row).toHaveTextContent('Propina');
  });

  it('explains an empty history', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: { items: [], next_cursor: null } });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    const empty = await screen.findByTestId('transactions-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No transactions yet');
    expect(empty).toHaveTextContent('Tips appear here as soon as a guest pays with your QR code.');
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('says when nothing matches the filters from the link, and clears them', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: (request: SentRequest) => (request.query.get('status') ? { items: [], next_cursor: null } : firstPage),
    });
    await renderPage(<TransactionsPage />, { path: '/transactions?status=REFUNDED&type=PAYIN' });
    const empty = await screen.findByTestId('transactions-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('Nothing matches these filters');
    expect(filtersOf(api.sent(LIST)[0]!)).toBe('type=PAYIN&status=REFUNDED');
    expect(screen.getByLabelText('Status')).toHaveValue('REFUNDED');
    expect(screen.getByLabelText('Type')).toHaveValue('PAYIN');

    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findAllByTestId('transaction')).toHaveLength(2);
    expect(filtersOf(api.sent(LIST).at(-1)!)).toBe('');
    expect(screen.getByLabelText('Status')).toHaveValue('');
  });

  it('asks for the chosen type, status and dates', async () => {
    const api = fakeApi({ ...signedInRoutes(), [LIST]: { items: [payoutTransaction()], next_cursor: null } });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    await screen.findByTestId('transaction');
    await userEvent.selectOptions(screen.getByLabelText('Type'), 'Payout');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Paid');
    await userEvent.type(screen.getByLabelText('From'), '2026-03-01');
    await screen.findByRole('button', { name: 'Clear filters' });
    expect(filtersOf(api.sent(LIST).at(-1)!)).toBe('type=PAYOUT&status=PAID&from=2026-03-01');
  });

  it('loads the next page on request and says when that was all', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: (request: SentRequest) => (request.query.get('cursor') === 'cursor-2' ? lastPage : firstPage),
    });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    expect(await screen.findAllByTestId('transaction')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('That is everything.')).toBeInTheDocument();
    const rows = screen.getAllByTestId('transaction');
    expect(rows).toHaveLength(3);
    expect(rows[2]).toHaveTextContent('Invoice: Wedding photos');
    expect(api.sent(LIST).map((request) => request.query.get('cursor'))).toEqual([null, 'cursor-2']);
  });

  it('offers to try again after a failed load, and shows the lines once they come', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : firstPage),
    });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The transactions could not be loaded.');
    expect(screen.queryByTestId('transactions-empty')).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findAllByTestId('transaction')).toHaveLength(2);
    expect(api.sent(LIST)).toHaveLength(2);
  });

  describe('the export', () => {
    const saved: string[] = [];
    beforeEach(() => {
      saved.length = 0;
      Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:tipcard-csv' });
      Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        saved.push(this.download);
      });
    });
    afterEach(() => vi.restoreAllMocks());

    it('downloads the filtered history as a CSV file', async () => {
      const api = fakeApi({ ...signedInRoutes(), [LIST]: firstPage, [CSV]: 'id;amount\n' });
      await renderPage(<TransactionsPage />, { path: '/transactions?type=PAYIN' });
      await screen.findAllByTestId('transaction');
      await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      await vi.waitFor(() => expect(saved).toHaveLength(1));
      expect(saved[0]).toMatch(/^tipcard-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
      const [request] = api.sent(CSV);
      expect(request!.query.get('type')).toBe('PAYIN');
      expect(request!.headers.get('Accept')).toBe('text/csv');
    });

    it('says so when the file could not be downloaded, and stays on the list', async () => {
      fakeApi({ ...signedInRoutes(), [LIST]: firstPage, [CSV]: apiError(500, 'internal_error') });
      await renderPage(<TransactionsPage />, { path: '/transactions' });
      await screen.findAllByTestId('transaction');
      await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
      await vi.waitFor(() => expect(snackbarText()).toBe('The export could not be downloaded. Please try again.'));
      expect(saved).toEqual([]);
      expect(screen.getAllByTestId('transaction')).toHaveLength(2);
    });
  });

  it('answers the guest’s message once from the details, and says when it cannot', async () => {
    const tip = tipTransaction();
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: { items: [tip], next_cursor: null },
      [answerRoute('GET', tip.id)]: { can_answer: true, answer: null },
      [answerRoute('POST', tip.id)]: {
        can_answer: false,
        answer: { text: 'Thanks for coming!', created_at: '2026-03-02T10:00:00Z' },
      },
    });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    await userEvent.click(await screen.findByRole('button', { name: /^Details: Tip via Anna/ }));
    const dialog = screen.getByRole('dialog', { name: 'Transaction details' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Answer' }));
    const field = within(dialog).getByRole('textbox', { name: /^Your answer/ });
    expect(field).toHaveFocus();
    await userEvent.type(field, 'Thanks for coming!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    expect(await within(dialog).findByTestId('tip-answer-sent')).toHaveTextContent('Thanks for coming!');
    expect(api.sent(answerRoute('POST', tip.id)).map((request) => request.body)).toEqual([{ text: 'Thanks for coming!' }]);
    expect(within(dialog).queryByRole('button', { name: 'Answer' })).toBeNull();
  });

  it('offers no answer without the guest’s e-mail, and shows a refusal in place', async () => {
    const noEmail = tipTransaction();
    const raced = tipTransaction({ id: '6b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e', message: 'Merci !' });
    fakeApi({
      ...signedInRoutes(),
      [LIST]: { items: [noEmail, raced], next_cursor: null },
      [answerRoute('GET', noEmail.id)]: { can_answer: false, answer: null },
      [answerRoute('GET', raced.id)]: { can_answer: true, answer: null },
      [answerRoute('POST', raced.id)]: apiError(409, 'tip_answer_sent', 'This message has already been answered'),
    });
    await renderPage(<TransactionsPage />, { path: '/transactions' });
    const [first, second] = await screen.findAllByRole('button', { name: /^Details: Tip via Anna/ });
    await userEvent.click(first!);
    let dialog = screen.getByRole('dialog', { name: 'Transaction details' });
    expect(await within(dialog).findByText(/left no e-mail address/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Answer' })).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(second!);
    dialog = screen.getByRole('dialog', { name: 'Transaction details' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Answer' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Your answer/ }), 'Hello');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    expect(await within(dialog).findByText('This message has already been answered')).toBeInTheDocument();
    // The page stays: a refusal here is no reason for the error page or a snackbar.
    expect(snackbarText()).toBeNull();
  });
});
