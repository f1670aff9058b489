import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi, pending } from '../../test/fake-api.ts';
import { meAnswer } from '../../test/fixtures.ts';
import { renderPage, snackbarText } from '../../test/render-page.tsx';
import RestoreAccountPage from './restore-account-page.tsx';

const DELETION = { deleted_at: '2026-03-02T09:30:00Z', restore_until: '2026-04-01T09:30:00Z' };
const open = (locale: 'en' | 'fr' = 'en') => renderPage(<RestoreAccountPage deletion={DELETION} />, { path: '/', locale });

// Leaving reloads the page signed out; jsdom cannot reload, so the reload is only recorded.
const reload = vi.fn();
const realLocation = window.location;
beforeEach(() => {
  reload.mockClear();
  vi.stubGlobal('location', { ...realLocation, hash: '', reload });
});
afterEach(() => vi.unstubAllGlobals());

describe('the restore account page', () => {
  it('says when the account was deleted and until when it can come back, in the reader’s language', async () => {
    fakeApi({});
    await open('fr');
    expect(await screen.findByRole('heading', { name: 'Restaurer votre compte\u202F?' })).toBeInTheDocument();
    expect(screen.getByText(/2 mars 2026/)).toHaveTextContent(/1 avril 2026/);
  });

  it('restores the account and welcomes the user back', async () => {
    const api = fakeApi({
      'POST /user/restore': { status: 'active', restore_until: null },
      'GET /me': meAnswer(),
    });
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Restore my account' }));
    await waitFor(() => expect(snackbarText()).toBe('Welcome back! Your account is restored.'));
    expect(api.sent('POST /user/restore')).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('keeps the other choice out of reach while one is under way', async () => {
    fakeApi({ 'POST /user/restore': pending });
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Restore my account' }));
    expect(screen.getByRole('button', { name: 'No, sign out' })).toBeDisabled();
  });

  it('signs out on the server too and reloads signed out', async () => {
    const api = fakeApi({ 'POST /logout': null });
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'No, sign out' }));
    await waitFor(() => expect(reload).toHaveBeenCalled());
    expect(api.sent('POST /logout')).toHaveLength(1);
    expect(document.cookie).not.toContain('test-access-token');
  });
});
