import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReferralFriend, ReferralSummary } from '@tipcard/shared/referrals/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import ReferralsListPage from './referrals-list-page.tsx';
import ReferralsPage from './referrals-page.tsx';

const SUMMARY = `GET /clients/${CLIENT_ID}/referrals`;
const FRIENDS = `GET /clients/${CLIENT_ID}/referrals/list`;
const LINK = 'https://tipcard.test/registration?ref=ANNA2026';

const summary: ReferralSummary = {
  code: 'ANNA2026',
  link: LINK,
  friends: 4,
  earned_cents: 1_750,
  pending_cents: 320,
  cap_cents: 1_000,
  window_days: 90,
  min_payers: 3,
  currency: 'EUR',
};

const friend: ReferralFriend = {
  id: 'd29d0e1f-2a3b-4c4d-9e5f-6a7b8c9d0eb0',
  name: 'Līga Kalniņa',
  joined_at: '2026-02-14T10:00:00Z',
  status: 'pending',
  earned_cents: 320,
  window_ends_at: '2026-05-15T10:00:00Z',
};

afterEach(() => vi.restoreAllMocks());

describe('the referrals page', () => {
  it('waits for the link before offering to copy it', async () => {
    fakeApi({ ...signedInRoutes(), [SUMMARY]: pending });
    await renderPage(<ReferralsPage />, { path: '/referrals' });
    expect(await screen.findByRole('button', { name: 'Copy link' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Referral link' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByTestId('referrals-friends')).toHaveTextContent('…');
  });

  it('shows the personal link, the code, the totals and the rule', async () => {
    fakeApi({ ...signedInRoutes(), [SUMMARY]: summary });
    await renderPage(<ReferralsPage />, { path: '/referrals' });
    expect(await screen.findByTestId('referrals-earned')).toHaveTextContent('€17.50');
    expect(screen.getByRole('textbox', { name: 'Referral link' })).toHaveValue(LINK);
    expect(screen.getByText('ANNA2026')).toBeInTheDocument();
    expect(screen.getByTestId('referrals-pending')).toHaveTextContent('€3.20');
    expect(screen.getByTestId('referrals-friends')).toHaveTextContent('4');
    expect(screen.getByRole('heading', { name: 'Up to €10.00 per friend' })).toBeInTheDocument();
    expect(screen.getByText(/different payers\.$/)).toHaveTextContent('at least 3 different payers');
    expect(screen.getByRole('link', { name: 'See friends' })).toHaveAttribute('href', '/referrals/referrals-list');
  });

  it('copies the link and says so', async () => {
    fakeApi({ ...signedInRoutes(), [SUMMARY]: summary });
    const user = userEvent.setup();
    await renderPage(<ReferralsPage />, { path: '/referrals' });
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('Link copied'));
    expect(await navigator.clipboard.readText()).toBe(LINK);
  });

  it('asks to copy by hand when the clipboard refuses', async () => {
    fakeApi({ ...signedInRoutes(), [SUMMARY]: summary });
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    await renderPage(<ReferralsPage />, { path: '/referrals' });
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    await vi.waitFor(() => expect(snackbarText()).toBe('The link could not be copied. Select it and copy it by hand.'));
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    fakeApi({
      ...signedInRoutes(),
      [SUMMARY]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : summary),
    });
    await renderPage(<ReferralsPage />, { path: '/referrals' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong. Please try again later.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('referrals-earned')).toHaveTextContent('€17.50');
    expect(screen.getByRole('textbox', { name: 'Referral link' })).toHaveValue(LINK);
  });
});

describe('the invited friends page', () => {
  it('holds places for the friends while they load', async () => {
    fakeApi({ ...signedInRoutes(), [FRIENDS]: pending });
    await renderPage(<ReferralsListPage />, { path: '/referrals/referrals-list' });
    expect(await screen.findByRole('status', { name: 'Loading friends…' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Referrals' })).toHaveAttribute('href', '/referrals');
  });

  it('explains an empty list', async () => {
    fakeApi({ ...signedInRoutes(), [FRIENDS]: [] });
    await renderPage(<ReferralsListPage />, { path: '/referrals/referrals-list' });
    const empty = await screen.findByTestId('referrals-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No friends yet');
    expect(empty).toHaveTextContent('Share your link to invite them.');
  });

  it('lists each friend with the date they joined, what they earned and the reward’s state', async () => {
    fakeApi({
      ...signedInRoutes(),
      [FRIENDS]: [
        friend,
        { ...friend, id: 'e30e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1fc0', name: '+371 2••• ••45', status: 'paid', earned_cents: 1_000 },
      ],
    });
    await renderPage(<ReferralsListPage />, { path: '/referrals/referrals-list', locale: 'lv' });
    const list = await screen.findByRole('list', { name: 'Uzaicinātie draugi' });
    const [first, second] = within(list).getAllByTestId('referral-friend');
    expect(first).toHaveTextContent('Līga Kalniņa');
    expect(first).toHaveTextContent('3,20 €');
    expect(first).toHaveTextContent('2026');
    expect(second).toHaveTextContent('10,00 €');
    expect(within(first!).getByText('Procesā')).toBeInTheDocument();
    expect(within(second!).getByText('Ieskaitīts')).toBeInTheDocument();
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [FRIENDS]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : [friend]),
    });
    await renderPage(<ReferralsListPage />, { path: '/referrals/referrals-list' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong. Please try again later.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('referral-friend')).toHaveTextContent('Līga Kalniņa');
    expect(api.sent(FRIENDS)).toHaveLength(2);
  });
});
