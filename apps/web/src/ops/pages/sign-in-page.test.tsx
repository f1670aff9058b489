import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api.ts';
import { session } from '../ops-api.ts';
import { operatorRow } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const SIGN_IN = 'POST /ops/sign-in';

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
});
