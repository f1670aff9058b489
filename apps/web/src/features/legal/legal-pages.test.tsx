import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Locale } from '@tipcard/shared/constants';
import type { ReactNode } from 'react';
import type { SiteInfo } from '@tipcard/shared/site/schemas';
import { ACCESS_TOKEN_COOKIE } from '@tipcard/shared/constants';
import { loadNamespace } from '../../lib/i18n.ts';
import { uiStore } from '../../lib/ui-store.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { renderPage } from '../../test/render-page.tsx';
import CookiePolicyPage from './cookie-policy-page.tsx';
import PrivacyPage from './privacy-page.tsx';
import TermsPage from './terms-page.tsx';

/** The operator the pages name (`GET /site`); the legal texts quote no figures of it but the operator block. */
const siteInfo = (): SiteInfo => ({
  company: { name: 'Tipcard SIA', registration_number: '40203000000', licence: null, address: null },
  support: { email: null, phone: null },
  social: { instagram: null, facebook: null, tiktok: null },
  turnstile_site_key: null,
  contact_form: true,
  figures: { hold_hours: 72, verification_limit_cents: 100_000 },
});

async function open(page: ReactNode, path: string, locale: Locale = 'en') {
  // The catalogs come by a lazy import: loaded first, so the first test does not wait on the bundler.
  await Promise.all([loadNamespace('legal', locale), loadNamespace('marketing', locale)]);
  return renderPage(page, { path: locale === 'en' ? path : `/${locale}${path}`, locale, signedIn: false });
}

describe('the legal pages', () => {
  it('show the terms in the reader’s language, with a table of contents that scrolls to each section', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<TermsPage />, '/terms', 'fr');
    expect(await screen.findByRole('heading', { level: 1, name: 'Conditions d’utilisation' })).toBeInTheDocument();
    const contents = screen.getByRole('navigation', { name: 'Sur cette page' });
    const first = within(contents).getByRole('link', { name: '1. Qui sommes-nous' });
    const section = screen.getByRole('region', { name: '1. Qui sommes-nous' });
    section.scrollIntoView = vi.fn();
    await userEvent.click(first);
    expect(section.scrollIntoView).toHaveBeenCalled();
    expect(section).toHaveTextContent('désigne la personne qui crée un compte');
    expect(await within(screen.getByTestId('operator-details')).findByText('Tipcard SIA')).toBeInTheDocument();
  });

  it('show the privacy policy, one section per heading', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<PrivacyPage />, '/privacy');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    const contents = screen.getByRole('navigation', { name: 'On this page' });
    expect(within(contents).getAllByRole('link')).toHaveLength(9);
    expect(document.title).toContain('Privacy policy');
  });

  it('name every cookie by its real name on the cookie policy, and open the cookie settings', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<CookiePolicyPage />, '/cookies', 'lv');
    const table = await screen.findByRole('region', { name: /Sīkdatnes un krātuves ieraksti/ });
    expect(within(table).getByRole('rowheader', { name: ACCESS_TOKEN_COOKIE })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'GDPR:accepted' })).toBeInTheDocument();
    expect(within(table).getByRole('rowheader', { name: 'consent_chosen' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(8);
    await userEvent.click(screen.getByRole('button', { name: 'Sīkdatņu iestatījumi' }));
    expect(uiStore.get().modals.cookie).toBe(true);
  });
});
