import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ACCESS_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import LoginPage from './login-page.tsx';

const PHONE = '+37120000000';
const TOKENS = { jwt: 'new-access-token', refresh_token: 'new-refresh-token' };

const open = (locale: 'en' | 'es' = 'en') => renderPage(<LoginPage />, { path: '/login', locale, signedIn: false });
const phoneField = () => screen.getByRole('textbox', { name: 'Phone number' });

async function askCode(phone = PHONE) {
  await userEvent.type(phoneField(), phone);
  await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
}

afterEach(() => vi.useRealTimers());

describe('the login page', () => {
  it('sends a code to the phone, takes it and signs in', async () => {
    const api = fakeApi({ 'POST /request-otp': { resend_after_seconds: 60 }, 'POST /login_check': TOKENS });
    await open();
    await askCode();
    expect(await screen.findByRole('heading', { name: 'Enter the code' })).toBeInTheDocument();
    expect(screen.getByText(PHONE)).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Confirmation code' }), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await navigatedTo()).toBe('/overview');
    expect(api.sent('POST /request-otp')[0]!.body).toEqual({ username: PHONE });
    expect(api.sent('POST /login_check')[0]!.body).toEqual({ username: PHONE, password: '123456' });
    expect(document.cookie).toContain(`${ACCESS_TOKEN_COOKIE}=new-access-token`);
  });

  it('checks the phone number before sending anything', async () => {
    const api = fakeApi({});
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Get code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter or check your phone number');
    await askCode('12');
    expect(phoneField()).toHaveAccessibleDescription('Phone number is not correct');
    expect(api.calls).toHaveLength(0);
  });

  it('says a wrong code on the field, empties it and lets the user type again', async () => {
    fakeApi({
      'POST /request-otp': { resend_after_seconds: 60 },
      'POST /login_check': apiError(401, 'wrong_code', 'Wrong confirmation code'),
    });
    await open();
    await askCode();
    const code = await screen.findByRole('textbox', { name: 'Confirmation code' });
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription('Code that you entered is not correct'));
    expect(code).toHaveValue('');
    expect(code).toHaveFocus();
  });

  it('names a number without an account on the field, with the way to create one', async () => {
    fakeApi({ 'POST /request-otp': apiError(404, 'user_not_found', 'User not found') });
    await open();
    await askCode();
    await waitFor(() => expect(phoneField()).toHaveAccessibleDescription('User not found'));
    // The one beside the field, besides the footer's.
    const links = screen.getAllByRole('link', { name: 'Create an account' });
    expect(links).toHaveLength(2);
    await userEvent.click(links[0]!);
    expect(await navigatedTo()).toBe('/registration');
  });

  it('counts down to the next code, then sends a new one', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi({ 'POST /request-otp': { resend_after_seconds: 60 } });
    await open('es');
    await userEvent.type(screen.getByRole('textbox', { name: 'Número de teléfono' }), PHONE);
    await userEvent.click(screen.getByRole('button', { name: 'Recibir código' }));
    expect(await screen.findByText(/60 s/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enviar un código nuevo' })).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    await userEvent.click(await screen.findByRole('button', { name: 'Enviar un código nuevo' }));
    await waitFor(() => expect(api.sent('POST /request-otp')).toHaveLength(2));
    expect(await screen.findByText(/60 s/)).toBeInTheDocument();
  });

  it('goes on to the code when one was sent a moment ago, counting the server’s wait', async () => {
    fakeApi({ 'POST /request-otp': apiError(429, 'resend_wait', 'Wait', {}, { 'Retry-After': '42' }) });
    await open();
    await askCode();
    expect(await screen.findByRole('textbox', { name: 'Confirmation code' })).toBeInTheDocument();
    expect(screen.getByText('You can request a new code in 42 s')).toBeInTheDocument();
    expect(snackbarText()).toBe('42 seconds left before you can request a new code');
  });

  it('asks to try later after too many attempts', async () => {
    fakeApi({ 'POST /request-otp': apiError(429, 'too_many_requests') });
    await open();
    await askCode();
    await waitFor(() => expect(snackbarText()).toBe('Too many attempts to enter, try again later'));
    expect(screen.queryByRole('textbox', { name: 'Confirmation code' })).not.toBeInTheDocument();
  });

  it('goes back to the phone number from the code', async () => {
    fakeApi({ 'POST /request-otp': { resend_after_seconds: 60 } });
    await open();
    await askCode();
    await userEvent.click(await screen.findByRole('button', { name: 'Use another phone number' }));
    expect(await screen.findByRole('heading', { name: 'Log in to Tipcard' })).toBeInTheDocument();
  });
});
