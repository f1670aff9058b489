import { startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { apiError, Answer, fakeApi } from '../../test/fake-api.ts';
import { findHeading, renderOps } from '../test-render.tsx';

// jsdom has no WebAuthn: the browser's prompt is faked, the rest (options, the API's answers) is the page's own.
vi.mock(import('@simplewebauthn/browser'), async (original) => ({
  ...(await original()),
  browserSupportsWebAuthn: () => true,
  startRegistration: vi.fn(),
}));

const LIST = 'GET /ops/passkeys';
const OPTIONS = 'POST /ops/passkeys/options';
const ADD = 'POST /ops/passkeys';
const macBook = {
  id: '0f1e2d3c-4b5a-4968-8776-655443322110',
  name: 'MacBook',
  created_at: '2026-11-20T09:00:00Z',
  last_used_at: null,
};
const options = { challenge: 'c2lnbi1tZS1vbmNl', rp: { id: 'localhost', name: 'Tipcard Ops' } };
const made = { id: 'Y3JlZA', rawId: 'Y3JlZA', type: 'public-key', response: {}, clientExtensionResults: {} };

describe('the account page', () => {
  it('is reached from the side bar, and says when there is no passkey yet', async () => {
    fakeApi({ [LIST]: [], 'GET /ops/operators': [] });
    renderOps('/operators', { role: 'support' });
    await userEvent.click(await screen.findByRole('link', { name: 'Your account and passkeys' }));
    expect(await findHeading('Your account')).toBeInTheDocument();
    expect(await screen.findByText('No passkey yet.')).toBeInTheDocument();
    expect(screen.getByText('support@ops.example')).toBeInTheDocument();
  });

  it('adds a named passkey through the browser’s prompt and lists it', async () => {
    let added = false;
    const api = fakeApi({
      [LIST]: () => (added ? [macBook] : []),
      [OPTIONS]: options,
      [ADD]: () => {
        added = true;
        return new Answer(201, { data: macBook });
      },
    });
    vi.mocked(startRegistration).mockResolvedValueOnce(made as never);
    renderOps('/account');
    await userEvent.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText('Name the passkey')).toBeInTheDocument();
    expect(api.sent(OPTIONS)).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Name'), 'MacBook');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Passkey “MacBook” added.');
    expect(vi.mocked(startRegistration)).toHaveBeenCalledWith({ optionsJSON: options });
    expect(api.sent(ADD)[0]!.body).toEqual({ name: 'MacBook', response: made });
    const table = await screen.findByRole('table', { name: 'Your passkeys' });
    expect(within(table).getByRole('cell', { name: 'MacBook' })).toBeInTheDocument();
    expect(within(table).getByRole('cell', { name: 'Never' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('');
  });

  it('says so when the prompt is closed, or the authenticator is already added, and sends nothing', async () => {
    const api = fakeApi({ [LIST]: [], [OPTIONS]: options });
    const closed = new Error('The operation either timed out or was not allowed.');
    closed.name = 'NotAllowedError';
    vi.mocked(startRegistration)
      .mockRejectedValueOnce(closed)
      .mockRejectedValueOnce(
        new WebAuthnError({ message: 'registered', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', cause: new Error('x') }),
      );
    renderOps('/account');
    await userEvent.type(await screen.findByLabelText('Name'), 'YubiKey');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The passkey prompt was closed or timed out.');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This passkey is already added.'));
    expect(api.sent(ADD)).toHaveLength(0);
  });

  it('shows the API’s refusal of the new passkey', async () => {
    fakeApi({
      [LIST]: [],
      [OPTIONS]: options,
      [ADD]: apiError(422, 'ops_passkey_not_added', 'The passkey could not be added: try again from this page'),
    });
    vi.mocked(startRegistration).mockResolvedValueOnce(made as never);
    renderOps('/account');
    await userEvent.type(await screen.findByLabelText('Name'), 'YubiKey');
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The passkey could not be added');
  });

  it('removes a passkey after confirming', async () => {
    let removed = false;
    const api = fakeApi({
      [LIST]: () => (removed ? [] : [{ ...macBook, last_used_at: '2026-11-21T08:30:00Z' }]),
      [`DELETE /ops/passkeys/${macBook.id}`]: () => {
        removed = true;
        return new Answer(204, undefined);
      },
    });
    renderOps('/account');
    await userEvent.click(await screen.findByRole('button', { name: 'Remove MacBook…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the passkey' });
    expect(dialog).toHaveTextContent('This signs you out of your other sessions; this one stays.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No passkey yet.')).toBeInTheDocument();
    expect(api.sent(`DELETE /ops/passkeys/${macBook.id}`)).toHaveLength(1);
  });
});
