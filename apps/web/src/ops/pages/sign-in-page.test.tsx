import { startAuthentication } from '@simplewebauthn/browser';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { session } from '../ops-api.ts';
import { operatorRow } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const SIGN_IN = 'POST /ops/sign-in';
const PASSKEY_OPTIONS = 'POST /ops/sign-in/passkey/options';
const PASSKEY_SIGN_IN = 'POST /ops/sign-in/passkey';

// jsdom has no WebAuthn: the browser's prompt is faked, the calls around it are the page's own.
vi.mock(import('@simplewebauthn/browser'), async (original) => ({
  ...(await original()),
  browserSupportsWebAuthn: () => true,
  startAuthentication: vi.fn(),
}));
const passkeyOptions = { challenge: 'c2lnbi1tZS1vbmNl', rpId: 'localhost', userVerification: 'required' };
const assertion = { id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: {}, clientExtensionResults: {} };

async function fillIn(code = '123456') {
  await userEvent.type(await screen.findByLabelText('E-mail'), 'finance@ops.example');
  await userEvent.type(screen.getByLabelText('Password'), 'Correct-horse-1');
  await userEvent.type(screen.getByLabelText('Authenticator code'), code);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('the sign-in page', () => {
  it('signs in, keeps the token for the tab and opens the operator’s first screen', async () => {
    const api = fakeApi({
      [SIGN_IN]: { token: 'fresh-token', operator: operatorRow({ role: 'finance' }), idle_timeout_seconds: 1800 },
    });
    const { router } = renderOps('/sign-in', { role: null });
    await fillIn();
    expect(await findHeading('Search')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/search');
    expect(api.sent(SIGN_IN)[0]!.body).toEqual({
      email: 'finance@ops.example',
      password: 'Correct-horse-1',
      code: '123456',
    });
    expect(session.token()).toBe('fresh-token');
    expect(session.operator()?.role).toBe('finance');
  });

  it('asks for the six digits before calling the API', async () => {
    const api = fakeApi({});
    renderOps('/sign-in', { role: null });
    await fillIn('12a');
    expect(await screen.findByText('Enter the 6 digits of the authenticator app')).toBeInTheDocument();
    expect(screen.getByLabelText('Authenticator code')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls).toHaveLength(0);
  });

  it('says what the API refused, and stays on sign-in', async () => {
    fakeApi({ [SIGN_IN]: apiError(401, 'invalid_credentials', 'Wrong e-mail, password or code.') });
    const { router } = renderOps('/sign-in', { role: null });
    await fillIn();
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail, password or code.');
    expect(currentPath(router)).toBe('/sign-in');
    expect(session.token()).toBeNull();
  });

  it('puts a field the API refused on that field', async () => {
    fakeApi({ [SIGN_IN]: apiError(422, 'validation_failed', 'Invalid data', { email: ['Not an operator e-mail.'] }) });
    renderOps('/sign-in', { role: null });
    await fillIn();
    expect(await screen.findByText('Not an operator e-mail.')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true');
  });

  it('goes back after sign-in to the screen the operator opened, a colleague’s link say', async () => {
    fakeApi({
      [SIGN_IN]: { token: 'fresh-token', operator: operatorRow({ role: 'admin' }), idle_timeout_seconds: 1800 },
      'GET /ops/operators': [operatorRow()],
    });
    const { router } = renderOps('/operators', { role: null });
    await fillIn();
    expect(await findHeading('Operators')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/operators');
  });

  it('signs in with a passkey alone and goes back to the deep-linked screen', async () => {
    const api = fakeApi({
      [PASSKEY_OPTIONS]: passkeyOptions,
      [PASSKEY_SIGN_IN]: { token: 'passkey-token', operator: operatorRow({ role: 'admin' }), idle_timeout_seconds: 1800 },
      'GET /ops/operators': [operatorRow()],
    });
    vi.mocked(startAuthentication).mockResolvedValueOnce(assertion as never);
    const { router } = renderOps('/operators', { role: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await findHeading('Operators')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/operators');
    expect(vi.mocked(startAuthentication)).toHaveBeenCalledWith({ optionsJSON: passkeyOptions });
    expect(api.sent(PASSKEY_SIGN_IN)[0]!.body).toEqual({ response: assertion });
    expect(api.sent(SIGN_IN)).toHaveLength(0);
    expect(session.token()).toBe('passkey-token');
  });

  it('says why a passkey did not sign in, and stays on sign-in', async () => {
    const api = fakeApi({
      [PASSKEY_OPTIONS]: passkeyOptions,
      [PASSKEY_SIGN_IN]: apiError(403, 'ops_passkey_failed', 'This passkey could not sign you in'),
    });
    const closed = new Error('The operation either timed out or was not allowed.');
    closed.name = 'NotAllowedError';
    vi.mocked(startAuthentication)
      .mockRejectedValueOnce(closed)
      .mockResolvedValueOnce(assertion as never);
    const { router } = renderOps('/sign-in', { role: null });
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The passkey prompt was closed or timed out.');
    expect(api.sent(PASSKEY_SIGN_IN)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('This passkey could not sign you in')).toBeInTheDocument();
    expect(currentPath(router)).toBe('/sign-in');
    expect(session.token()).toBeNull();
  });
});
