import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import RegistrationPage from './registration-page.tsx';

const PHONE = '+37120000000';
const UUID = '6c7d8e9f-0a1b-4c2d-8e3f-4a5b6c7d8e9f';
const VERIFY = `POST /register/${UUID}/verify`;
const RESEND = `POST /register/${UUID}/resend`;

const open = (path = '/registration', locale: 'en' | 'lv' = 'en') =>
  renderPage(<RegistrationPage />, { path, route: '/registration', locale, signedIn: false });

async function signUp() {
  await userEvent.type(screen.getByRole('textbox', { name: 'Phone number' }), PHONE);
  await userEvent.click(screen.getByRole('checkbox', { name: 'I confirm that I am 16 years old or older' }));
  await userEvent.click(screen.getByRole('checkbox', { name: /I agree to the terms of use/ }));
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
}

afterEach(() => vi.useRealTimers());

describe('the registration page', () => {
  it('takes the phone and both confirmations, then the texted code, and signs in', async () => {
    const api = fakeApi({
      'GET /public/referrals/FRIEND26': { inviter_name: 'Anna' },
      'POST /register': { uuid: UUID },
      [VERIFY]: { jwt: 'new-access-token', refresh_token: 'r' },
    });
    await open('/registration?ref=FRIEND26&utm_source=flyer');
    expect(await screen.findByTestId('referral-inviter')).toHaveTextContent('Anna invited you to Tipcard.');
    await signUp();
    expect(await screen.findByRole('heading', { name: 'Confirm your phone' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Confirmation code' }), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await navigatedTo()).toBe('/overview');
    expect(api.sent('POST /register')[0]!.body).toEqual({
      username: PHONE,
      age_confirmed: true,
      terms_accepted: true,
      referral_code: 'FRIEND26',
      promo_source: 'flyer',
    });
    expect(api.sent(VERIFY)[0]!.body).toEqual({ code: '654321' });
    expect(document.cookie).toContain(`${ACCESS_TOKEN_COOKIE}=new-access-token`);
  });

  it('says nothing of an inviter, and shows no error, when the referral code names nobody', async () => {
    const api = fakeApi({
      'GET /public/referrals/NOSUCH': apiError(404, 'not_found'),
    });
    await open('/registration?ref=NOSUCH', 'lv');
    await waitFor(() => expect(api.sent('GET /public/referrals/NOSUCH')).toHaveLength(1));
    expect(screen.queryByTestId('referral-inviter')).toBeNull();
    expect(snackbarText()).toBeNull();
  });

  it('asks for both confirmations before sending', async () => {
    const api = fakeApi({});
    await open();
    await userEvent.type(screen.getByRole('textbox', { name: 'Phone number' }), PHONE);
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('You must confirm that you are 16 or older')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /I agree to the terms of use/ })).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).toHaveLength(0);
  });

  it('opens the terms and the privacy policy in a new tab, in the reader’s language', async () => {
    fakeApi({});
    await open('/registration', 'lv');
    const terms = screen.getByRole('link', { name: 'lietošanas noteikumiem' });
    const privacy = screen.getByRole('link', { name: 'privātuma politikai' });
    expect(terms).toHaveAttribute('href', '/lv/terms');
    expect(privacy).toHaveAttribute('href', '/lv/privacy');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(privacy).toHaveAttribute('target', '_blank');
  });

  it('names a taken number on the field, with the way to log in instead', async () => {
    fakeApi({ 'POST /register': apiError(422, 'phone_taken', 'This phone is already taken', { username: ['taken'] }) });
    await open();
    await signUp();
    const phone = screen.getByRole('textbox', { name: 'Phone number' });
    await waitFor(() => expect(phone).toHaveAccessibleDescription('This phone is already taken'));
    await userEvent.click(screen.getByRole('link', { name: 'Log in instead' }));
    expect(await navigatedTo()).toBe('/login');
  });

  it('says a wrong code on the field', async () => {
    fakeApi({ 'POST /register': { uuid: UUID }, [VERIFY]: apiError(422, 'wrong_code', 'Wrong confirmation code') });
    await open();
    await signUp();
    const code = await screen.findByRole('textbox', { name: 'Confirmation code' });
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription('Code that you entered is not correct'));
  });

  it('restarts the countdown with the server’s figure when a new code is asked too early', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeApi({
      'POST /register': { uuid: UUID },
      [RESEND]: apiError(429, 'resend_wait', 'Wait', {}, { 'Retry-After': '30' }),
    });
    await open();
    await signUp();
    await screen.findByRole('textbox', { name: 'Confirmation code' });
    expect(screen.getByText('You can request a new code in 60 s')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await userEvent.click(await screen.findByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText('You can request a new code in 30 s')).toBeInTheDocument();
    expect(snackbarText()).toBe('30 seconds left before you can request a new code');
  });
});
