import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Overview } from '@tipcard/shared/transactions/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CARD_ID, CLIENT_ID, payoutTransaction, signedInRoutes, tipTransaction } from '../../test/fixtures.ts';
import { fatalErrorStatus, renderPage } from '../../test/render-page.tsx';
import OverviewPage from './overview-page.tsx';

const FIGURES = `GET /clients/${CLIENT_ID}/overview`;
const BALANCES = `GET /clients/${CLIENT_ID}/account`;
const QR = `GET /cards/${CARD_ID}/qr_code`;
const PRINT = `GET /cards/${CARD_ID}/print.pdf`;

const tip = tipTransaction();
const payout = payoutTransaction();

function figures(overrides: Partial<Overview> = {}): Overview {
  return {
    received_today_cents: 1_250,
    received_week_cents: 4_800,
    received_month_cents: 23_000,
    tip_count: 42,
    average_rating: 4.75,
    latest: [tip, payout],
    monthly_donations: { donors: 3, total_cents: 4_500 },
    currency: 'EUR',
    ...overrides,
  };
}

const balances = {
  account_balances: [
    { type: 'main', balance: 8_450 },
    { type: 'hold', balance: 1_000 },
  ],
  hold_releases: [
    { amount_cents: 600, release_at: '2026-03-03T09:30:00Z' },
    { amount_cents: 400, release_at: '2026-03-03T17:05:00Z' },
  ],
  currency: 'EUR',
};

/** The card's QR code: any body does, since jsdom has no object URLs and the page gets a stand-in address. */
const qrImage = 'png';

beforeAll(() => {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:tipcard-qr' });
});
afterEach(() => vi.restoreAllMocks());

function routes(overview: unknown, card: Parameters<typeof signedInRoutes>[1] = {}) {
  return { ...signedInRoutes({}, card), [BALANCES]: balances, [FIGURES]: overview, [QR]: qrImage };
}

describe('the overview page', () => {
  it('greets the user and holds places for the figures while they load', async () => {
    const { sent } = fakeApi(routes(pending));
    await renderPage(<OverviewPage />, { path: '/overview' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hello, Anna' })).toBeInTheDocument();
    expect(await screen.findByRole('status', { name: 'Loading the latest transactions…' })).toBeInTheDocument();
    expect(screen.getByTestId('received-today')).not.toHaveTextContent('€');
    // Where the QR card goes (first for a new user) waits for the figures: it is not drawn yet, nor its code asked for.
    expect(screen.queryByRole('button', { name: 'Show QR code' })).not.toBeInTheDocument();
    expect(sent(QR)).toHaveLength(0);
  });

  it('shows the balances and what was received, in the reader’s language', async () => {
    fakeApi(routes(figures()));
    await renderPage(<OverviewPage />, { path: '/overview', locale: 'lv' });
    expect(await screen.findByTestId('balance-main')).toHaveTextContent('84,50 €');
    expect(screen.getByTestId('balance-hold')).toHaveTextContent('10,00 €');
    // Each amount on hold with the date and time it becomes available, earliest first.
    const releases = within(screen.getByRole('list', { name: 'Kad rezervētā nauda kļūs pieejama' })).getAllByRole('listitem');
    expect(releases.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^6,00\u00A0€ – .*:30$/),
      expect.stringMatching(/^4,00\u00A0€ – .*:05$/),
    ]);
    // The available balance leads straight to a withdrawal.
    expect(screen.getByRole('link', { name: 'Izmaksāt' })).toHaveAttribute('href', '/lv/payouts?withdraw=1');
    expect(await screen.findByTestId('received-today')).toHaveTextContent('12,50 €');
    expect(screen.getByTestId('received-week')).toHaveTextContent('48,00 €');
    expect(screen.getByTestId('received-month')).toHaveTextContent('230,00 €');
    expect(screen.getByTestId('tip-count')).toHaveTextContent('42');
    expect(screen.getByTestId('average-rating')).toHaveTextContent('4,8 no 5');
  });

  it('lists the latest transactions with a way to all of them, and keeps the card below', async () => {
    fakeApi(routes(figures()));
    await renderPage(<OverviewPage />, { path: '/overview' });
    const latest = await screen.findByTestId('latest-transactions');
    const rows = within(latest).getAllByTestId('transaction');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Tip via Anna');
    expect(rows[0]).toHaveTextContent('Thank you, lovely service!');
    expect(rows[1]).toHaveTextContent('Payout to LV•• •••• 5001');
    expect(screen.getByRole('link', { name: 'All transactions' })).toHaveAttribute('href', '/transactions');
    expect(screen.queryByTestId('first-card')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Your QR card' })).toBeInTheDocument();
  });

  it('says when nothing was received yet and puts the QR card first', async () => {
    fakeApi(routes(figures({ latest: [], tip_count: 0, average_rating: null })));
    await renderPage(<OverviewPage />, { path: '/overview' });
    expect(await screen.findByRole('heading', { name: 'No tips yet' })).toBeInTheDocument();
    expect(screen.getByText('Show your QR code to receive the first one.')).toBeInTheDocument();
    expect(screen.getByTestId('average-rating')).toHaveTextContent('No ratings yet');
    const first = await screen.findByTestId('first-card');
    expect(within(first).getByRole('heading', { name: 'Your QR card is ready' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Print or share' })).toBeInTheDocument();
  });

  it('shows the monthly donations only to a card that takes donations', async () => {
    fakeApi(routes(figures(), { activity_type: 'DONATION' }));
    await renderPage(<OverviewPage />, { path: '/overview' });
    expect(await screen.findByRole('heading', { name: 'Monthly donations' })).toBeInTheDocument();
    expect(await screen.findByTestId('monthly-donors')).toHaveTextContent('3');
    expect(screen.getByTestId('monthly-total')).toHaveTextContent('€45.00');
  });

  it('leaves the monthly donations out for a waiter', async () => {
    fakeApi(routes(figures()));
    await renderPage(<OverviewPage />, { path: '/overview' });
    await screen.findByTestId('latest-transactions');
    expect(screen.queryByRole('heading', { name: 'Monthly donations' })).not.toBeInTheDocument();
  });

  it('does not pass failed figures off as zero, and loads them again on request', async () => {
    let failures = 1;
    const api = fakeApi(routes(() => (failures-- > 0 ? apiError(503, 'service_unavailable') : figures())));
    await renderPage(<OverviewPage />, { path: '/overview' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The figures could not be loaded.');
    expect(screen.getByTestId('received-today')).toHaveTextContent('—');
    expect(fatalErrorStatus()).not.toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('latest-transactions')).toBeInTheDocument();
    expect(screen.getByTestId('received-today')).toHaveTextContent('€12.50');
    expect(api.sent(FIGURES)).toHaveLength(2);
  });

  it('says so in its place when the QR code cannot be drawn, and keeps the page', async () => {
    fakeApi({ ...routes(figures()), [QR]: apiError(404, 'not_found') });
    await renderPage(<OverviewPage />, { path: '/overview' });
    // In the card's place, which still opens the card: "The QR code could not be loaded. Show QR code".
    const card = await screen.findByRole(
      'button',
      { name: /^The QR code could not be loaded\.\s*Show QR code$/ },
      { timeout: 5_000 },
    );
    expect(card).toBeEnabled();
    expect(fatalErrorStatus()).toBeNull();
    expect(screen.getByTestId('balance-main')).toBeInTheDocument();
  });

  it('opens the card with its QR code to print, share or download', async () => {
    fakeApi(routes(figures()));
    await renderPage(<OverviewPage />, { path: '/overview' });
    await userEvent.click(await screen.findByRole('button', { name: 'Show QR code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your QR card' });
    expect(await within(dialog).findByRole('img', { name: 'QR code for the payment page of Anna' })).toHaveAttribute(
      'src',
      'blob:tipcard-qr',
    );
    expect(within(dialog).getByRole('button', { name: 'Download QR' })).toBeEnabled();
    expect(within(dialog).getByRole('link', { name: 'Edit card' })).toHaveAttribute('href', '/account/edit');
    // Copying the link works on every device, with or without a share sheet.
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(`http://tipcard.test/payment/${CARD_ID}`);
    expect(within(dialog).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('downloads the printable card in the reader’s language', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
    const api = fakeApi({ ...routes(figures()), [PRINT]: 'pdf' });
    await renderPage(<OverviewPage />, { path: '/overview', locale: 'lv' });
    await userEvent.click(await screen.findByRole('button', { name: 'Rādīt QR kodu' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Drukāt karti' }));
    await vi.waitFor(() => expect(saved).toEqual(['tipcard-card-anna.pdf']));
    expect(api.sent(PRINT)[0]!.query.get('locale')).toBe('lv');
  });
});
