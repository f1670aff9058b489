import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ANALYTICS_KEY, FUNCTIONAL_KEY, consentStore } from '../../lib/consent.ts';
import { deleteCookie } from '../../lib/cookies.ts';
import { openModal } from '../../lib/ui-store.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { navigatedTo, renderPage, snackbarText } from '../../test/render-page.tsx';
import { CookieConsent } from './cookie-consent.tsx';

const EVENTS = 'POST /analytics/events';

const open = (locale: 'en' | 'fr' = 'en') =>
  renderPage(<CookieConsent />, { path: '/about', route: '/about', locale, signedIn: false });

beforeEach(() => {
  window.localStorage.clear();
  deleteCookie('consent_chosen');
  consentStore.set({ functional: null, analytics: false });
  // The banner keeps room for itself below the page as it resizes; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      disconnect() {}
    },
  );
});

describe('the cookie banner', () => {
  it('asks before anything optional is stored, with Reject as easy as Accept, in the visitor’s language', async () => {
    const api = fakeApi({});
    await open('fr');
    const banner = screen.getByRole('region', { name: 'Consentement aux cookies' });
    expect(within(banner).getByRole('button', { name: 'Refuser' })).toBeInTheDocument();
    expect(within(banner).getByRole('button', { name: 'Accepter' })).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('rejects everything optional: the banner goes and no visit is counted', async () => {
    const api = fakeApi({});
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
    expect(window.localStorage.getItem(FUNCTIONAL_KEY)).toBe('false');
    expect(window.localStorage.getItem(ANALYTICS_KEY)).toBe('false');
    // The server learns that a choice exists (not which), and leaves the banner out of the landing page it renders.
    expect(document.cookie).toBe('consent_chosen=1');
    expect(api.calls).toHaveLength(0);
  });

  it('accepts both: the page view is counted on our own server', async () => {
    const api = fakeApi({ [EVENTS]: null });
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(api.sent(EVENTS)).toHaveLength(1));
    expect(api.sent(EVENTS)[0]!.body).toEqual({ name: 'page_view', path: '/about', locale: 'en' });
    expect(window.localStorage.getItem(FUNCTIONAL_KEY)).toBe('true');
  });

  it('does not show again once chosen', async () => {
    consentStore.set({ functional: false, analytics: false });
    fakeApi({});
    await open();
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).not.toBeInTheDocument();
  });
});

describe('the cookie settings', () => {
  it('opens from the banner with nothing ticked before a choice, and saves what is ticked', async () => {
    const api = fakeApi({});
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Cookie settings' });
    const functional = within(dialog).getByRole('switch', { name: 'Functional' });
    const analytics = within(dialog).getByRole('switch', { name: 'Analytics' });
    expect(functional).not.toBeChecked();
    expect(analytics).not.toBeChecked();
    await userEvent.click(functional);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save choices' }));
    expect(consentStore.get()).toEqual({ functional: true, analytics: false });
    expect(snackbarText()).toBe('Your cookie settings have been saved');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('starts from the stored choice when opened later, and “Reject all” turns everything off', async () => {
    consentStore.set({ functional: true, analytics: true });
    fakeApi({ [EVENTS]: null });
    await open();
    openModal('cookie');
    const dialog = await screen.findByRole('dialog', { name: 'Cookie settings' });
    expect(within(dialog).getByRole('switch', { name: 'Analytics' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reject all' }));
    expect(consentStore.get()).toEqual({ functional: false, analytics: false });
  });

  it('links to the cookie policy', async () => {
    fakeApi({});
    await open();
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    await userEvent.click(screen.getByRole('link', { name: 'Cookie policy' }));
    expect(await navigatedTo()).toBe('/cookies');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
