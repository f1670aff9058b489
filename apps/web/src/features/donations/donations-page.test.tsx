import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Donation } from '@tipcard/shared/donations/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../../test/fixtures.ts';
import { renderPage } from '../../test/render-page.tsx';
import DonationsPage from './donations-page.tsx';

const DONATIONS = `GET /clients/${CLIENT_ID}/donations`;

const donation: Donation = {
  id: '3e9c1d4f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  kind: 'monthly',
  donor_name: 'Jānis Bērziņš',
  donor_email: 'janis@example.lv',
  donor_code: 'D-4821',
  amount_cents: 2_500,
  currency: 'EUR',
  status: 'succeeded',
  plan: 'active',
  created_at: '2026-03-02T09:30:00Z',
};

describe('the donations page', () => {
  it('says it is loading while the donations are on their way', async () => {
    fakeApi({ ...signedInRoutes(), [DONATIONS]: pending });
    await renderPage(<DonationsPage />, { path: '/donations' });
    expect(await screen.findByRole('status', { name: 'Loading donations…' })).toBeInTheDocument();
  });

  it('explains an empty list', async () => {
    fakeApi({ ...signedInRoutes(), [DONATIONS]: [] });
    await renderPage(<DonationsPage />, { path: '/donations' });
    const empty = await screen.findByTestId('donations-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No donations yet');
  });

  it('shows each donor with the amount and kind, in the reader’s language', async () => {
    fakeApi({
      ...signedInRoutes(),
      [DONATIONS]: [
        donation,
        { ...donation, id: '4f0d2e5a-7b8c-4d9e-8f1a-2b3c4d5e6f70', status: 'refunded', kind: 'one_off', plan: null },
      ],
    });
    await renderPage(<DonationsPage />, { path: '/donations', locale: 'fr' });
    const rows = await screen.findAllByTestId('donation-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Jānis Bērziņš');
    expect(rows[0]).toHaveTextContent('janis@example.lv');
    expect(rows[0]).toHaveTextContent('D-4821');
    expect(rows[0]).toHaveTextContent('25,00 €');
    expect(rows[1]).toHaveTextContent('Remboursé');
  });

  it('says when a monthly gift has ended or is paused, so an ended plan no longer reads as running', async () => {
    fakeApi({
      ...signedInRoutes(),
      [DONATIONS]: [
        donation,
        { ...donation, id: '5a1e3f6b-8c9d-4e0f-9a2b-3c4d5e6f7081', plan: 'ended' },
        { ...donation, id: '6b2f4a7c-9d0e-4f1a-8b3c-4d5e6f708192', plan: 'paused' },
      ],
    });
    await renderPage(<DonationsPage />, { path: '/donations', locale: 'lv' });
    const rows = await screen.findAllByTestId('donation-row');
    expect(within(rows[0]!).queryByTestId('donation-plan')).toBeNull();
    expect(within(rows[1]!).getByTestId('donation-plan')).toHaveTextContent('Beidzies');
    expect(within(rows[2]!).getByTestId('donation-plan')).toHaveTextContent('Apturēts');
  });

  it('offers to try again after a failed load, and shows the list once it comes', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [DONATIONS]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : [donation]),
    });
    await renderPage(<DonationsPage />, { path: '/donations' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The donations could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('donation-row')).toHaveTextContent('Jānis Bērziņš');
    expect(api.sent(DONATIONS)).toHaveLength(2);
  });
});
