import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeletionPreview } from '@tipcard/shared/account/schemas';
import type { Payout, PayoutMethod } from '@tipcard/shared/payouts/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../../test/fixtures.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import SettingsPage from './settings-page.tsx';

const NOTIFICATIONS = `GET /clients/${CLIENT_ID}/notifications`;
const SAVE_NOTIFICATIONS = `PATCH /clients/${CLIENT_ID}/notifications`;
const EXPORT = `GET /clients/${CLIENT_ID}/export`;
const PREVIEW = 'GET /user/deletion_statements/preview';
const METHODS = `GET /clients/${CLIENT_ID}/payout-methods`;
const CLOSING = `POST /clients/${CLIENT_ID}/closing-payouts`;
const DELETE = 'POST /user/deletion_statements';
const SAVE_LANGUAGE = `PATCH /clients/${CLIENT_ID}/language`;

const CHOICES = { sms_support_replies: true, sms_payouts: false, sms_refunds: true };

const method: PayoutMethod = {
  id: '3a4b5c6d-7e8f-4a9b-8c0d-1e2f3a4b5c6d',
  kind: 'sepa',
  holder: 'Anna Bērziņa',
  masked_account: 'LV•• •••• •••• •••• 1234',
  bic: 'HABALV22',
  instant: true,
  is_default: true,
  created_at: '2026-01-01T00:00:00Z',
  payee_check: null,
};
const closingPayout: Payout = {
  id: '4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e',
  status: 'awaiting_confirmation',
  amount_cents: 1_984,
  fee_cents: 16,
  currency: 'EUR',
  instant: false,
  method: { kind: 'sepa', holder: method.holder, masked_account: method.masked_account },
  expected_arrival: '2026-03-03',
  created_at: '2026-03-02T09:30:00Z',
  confirmed_at: null,
  paid_at: null,
  return_reason: null,
  code_expires_at: '2026-03-02T09:40:00Z',
  resend_after_seconds: 60,
};
const preview = (overrides: Partial<DeletionPreview>): DeletionPreview => ({
  outcome: 'delete',
  blockers: [],
  available_cents: 0,
  held_cents: 0,
  closing: null,
  ...overrides,
});

const open = (locale: 'en' | 'lv' = 'en') =>
  renderPage(<SettingsPage payoutAccount="Default: LV•• 1234" />, { path: '/settings', locale });

async function openDeletion() {
  await userEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
  return screen.getByRole('dialog', { name: 'Delete your account?' });
}

describe('the settings page', () => {
  it('shows the phone, the payout account and the way to the profile, in the reader’s language', async () => {
    fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES });
    await open('lv');
    expect(await screen.findByTestId('settings-phone')).toHaveTextContent('+37120000000');
    const sections = screen.getByRole('region', { name: 'Iestatījumi' });
    expect(within(sections).getByRole('link', { name: /Default: LV•• 1234/ })).toHaveAttribute('href', '/lv/settings/payout');
    expect(await within(sections).findByRole('link', { name: /Publiskais profils/ })).toHaveAttribute('href', '/lv/account/edit');
    await userEvent.click(screen.getByRole('link', { name: 'Lūgt atbalstam to nomainīt' }));
    expect(await navigatedTo()).toBe('/lv/support');
  });

  describe('the language', () => {
    // Choosing reloads the app in the language; jsdom cannot reload, so the reload is only recorded.
    const reload = vi.fn();
    const realLocation = window.location;
    const stubReload = () => vi.stubGlobal('location', { ...realLocation, reload });
    afterEach(() => {
      vi.unstubAllGlobals();
      reload.mockClear();
      window.history.replaceState(null, '', '/');
    });

    it('stores the choice as the language of what the user is sent, then reloads the app in it', async () => {
      const api = fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES, [SAVE_LANGUAGE]: { language: 'fr' } });
      await open();
      stubReload();
      await userEvent.click(screen.getByRole('button', { name: 'Français' }));
      await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
      expect(api.sent(SAVE_LANGUAGE).map((request) => request.body)).toEqual([{ language: 'fr' }]);
      // The page reloads under the French prefix (the test's router is in memory, so at the root).
      expect(realLocation.hash).toBe('#/fr');
    });

    it('keeps the app as it is when the choice is refused', async () => {
      const api = fakeApi({
        ...signedInRoutes(),
        [NOTIFICATIONS]: CHOICES,
        [SAVE_LANGUAGE]: apiError(429, 'too_many_requests', 'Too many requests'),
      });
      await open();
      stubReload();
      await userEvent.click(screen.getByRole('button', { name: 'Latviešu' }));
      await waitFor(() => expect(snackbarText()).toMatch(/^Too many attempts/));
      expect(api.sent(SAVE_LANGUAGE)).toHaveLength(1);
      expect(reload).not.toHaveBeenCalled();
    });

    it('sends nothing when the language chosen is the one shown', async () => {
      const api = fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES, [SAVE_LANGUAGE]: { language: 'en' } });
      await open();
      stubReload();
      await userEvent.click(screen.getByRole('button', { name: 'English' }));
      expect(api.sent(SAVE_LANGUAGE)).toHaveLength(0);
      expect(reload).not.toHaveBeenCalled();
    });
  });

  it('says plainly when this browser cannot take push notices, and offers no button that would fail', async () => {
    // jsdom, like a browser without the Push API (or an iPhone's Safari outside an app on the Home Screen).
    fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES });
    await open('lv');
    const panel = (await screen.findByRole('heading', { name: 'Paziņojumi šajā ierīcē' })).closest('section')!;
    expect(await within(panel).findByTestId('push-state')).toHaveTextContent(/^Šis pārlūks nevar saņemt paziņojumus/);
    expect(within(panel).queryByRole('button')).toBeNull();
  });

  it('shows the stored notification choices and saves a change', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [NOTIFICATIONS]: CHOICES,
      [SAVE_NOTIFICATIONS]: { ...CHOICES, sms_payouts: true },
    });
    await open();
    const payouts = await screen.findByRole('checkbox', { name: /withdrawal is paid/ });
    await waitFor(() => expect(payouts).toBeEnabled());
    expect(payouts).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /support answers/ })).toBeChecked();
    await userEvent.click(payouts);
    expect(payouts).toBeChecked();
    await waitFor(() => expect(snackbarText()).toBe('Your choice is saved.'));
    expect(api.sent(SAVE_NOTIFICATIONS)[0]!.body).toEqual({ sms_support_replies: true, sms_payouts: true, sms_refunds: true });
  });

  it('puts a notification box back when the change is refused', async () => {
    fakeApi({
      ...signedInRoutes(),
      [NOTIFICATIONS]: CHOICES,
      [SAVE_NOTIFICATIONS]: apiError(422, 'validation_failed', 'Enter valid data'),
    });
    await open();
    const support = await screen.findByRole('checkbox', { name: /support answers/ });
    await waitFor(() => expect(support).toBeEnabled());
    await userEvent.click(support);
    await waitFor(() => expect(support).toBeEnabled());
    expect(support).toBeChecked();
  });

  it('says the notification choices are loading', async () => {
    fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: pending });
    await open();
    expect(await screen.findByRole('status', { name: 'Loading your choices…' })).toBeInTheDocument();
  });

  it('offers to try again when the notification choices could not be loaded', async () => {
    let failures = 1;
    fakeApi({
      ...signedInRoutes(),
      [NOTIFICATIONS]: () => (failures-- > 0 ? apiError(429, 'too_many_requests') : CHOICES),
    });
    await open();
    await userEvent.click(within(await screen.findByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('checkbox', { name: /support answers/ })).toBeChecked();
  });

  it('says so when the data could not be prepared', async () => {
    fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES, [EXPORT]: apiError(429, 'too_many_requests') });
    await open();
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(snackbarText()).toBe('Your data could not be prepared. Try again in a minute.'));
  });
});

describe('deleting the account from the settings page', () => {
  it('checks the balance first, then names why the account cannot go yet, in the one error wording', async () => {
    let answer: () => unknown = pending;
    fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES, [PREVIEW]: () => answer() });
    await open();
    answer = () => preview({ outcome: 'blocked', blockers: ['deletion_pending_payout', 'deletion_team_admin'], held_cents: 500 });
    const dialog = await openDeletion();
    expect(await within(dialog).findByTestId('deletion-blockers')).toHaveTextContent(
      'A withdrawal is still on its way: delete your account once it has arrived',
    );
    expect(within(dialog).getByTestId('deletion-blockers')).toHaveTextContent('Hand the team admin role to a colleague');
    expect(within(dialog).queryByRole('button', { name: 'Yes, delete' })).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('says it is checking while the preview is asked', async () => {
    fakeApi({ ...signedInRoutes(), [NOTIFICATIONS]: CHOICES, [PREVIEW]: pending });
    await open();
    const dialog = await openDeletion();
    expect(dialog).toHaveTextContent('Checking your balance…');
  });

  it('pays the balance out by a closing payout confirmed with the texted code; a wrong code may be typed again', async () => {
    const api = fakeApi({
      ...signedInRoutes(),
      [NOTIFICATIONS]: CHOICES,
      [PREVIEW]: preview({ outcome: 'closing_payout', available_cents: 2_000, closing: { amount_cents: 1_984, fee_cents: 16 } }),
      [METHODS]: [method],
      [CLOSING]: closingPayout,
      [DELETE]: apiError(422, 'wrong_code', 'Wrong confirmation code'),
    });
    await open();
    const dialog = await openDeletion();
    expect(await within(dialog).findByRole('radio', { name: /1234/ })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete' }));
    // The code step is a new dialog: each closing payout starts with an empty code.
    const code = await screen.findByRole('textbox', { name: 'Code from the SMS' });
    const codeStep = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(api.sent(CLOSING)[0]!.body).toEqual({ method_id: method.id });
    expect(codeStep).toHaveTextContent('confirm the payout of €19.84 to LV•• •••• •••• •••• 1234');
    const confirm = within(codeStep).getByRole('button', { name: 'Confirm and delete' });
    expect(confirm).toBeDisabled();
    await userEvent.type(code, '123456');
    await userEvent.click(confirm);
    await waitFor(() => expect(snackbarText()).toBe('Wrong confirmation code'));
    expect(api.sent(DELETE)[0]!.body).toEqual({ closing_payout: { id: closingPayout.id, code: '123456' } });
    expect(within(codeStep).getByRole('textbox', { name: 'Code from the SMS' })).toHaveValue('123456');
  });

  it('says the bank accounts are loading before offering them', async () => {
    fakeApi({
      ...signedInRoutes(),
      [NOTIFICATIONS]: CHOICES,
      [PREVIEW]: preview({ outcome: 'closing_payout', available_cents: 2_000, closing: { amount_cents: 1_984, fee_cents: 16 } }),
      [METHODS]: pending,
    });
    await open();
    const dialog = await openDeletion();
    expect(await within(dialog).findByRole('status', { name: 'Loading your bank accounts…' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Yes, delete' })).not.toBeInTheDocument();
  });

  it('asks for a payout account first when there is none', async () => {
    fakeApi({
      ...signedInRoutes(),
      [NOTIFICATIONS]: CHOICES,
      [PREVIEW]: preview({ outcome: 'closing_payout', available_cents: 2_000, closing: { amount_cents: 1_984, fee_cents: 16 } }),
      [METHODS]: [],
    });
    await open();
    const dialog = await openDeletion();
    expect(await within(dialog).findByRole('link', { name: 'Add a bank account' })).toHaveAttribute(
      'href',
      '/payouts/add-method',
    );
    expect(within(dialog).queryByRole('button', { name: 'Yes, delete' })).not.toBeInTheDocument();
  });
});
