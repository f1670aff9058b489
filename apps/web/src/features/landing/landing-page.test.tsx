import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeApi } from '../../test/fake-api.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import LandingPage from './landing-page.tsx';

const open = (locale: 'en' | 'lv' | 'fr' = 'en') =>
  renderPage(<LandingPage />, { path: locale === 'en' ? '/' : `/${locale}`, locale, signedIn: false });

describe('the landing page', () => {
  it('speaks the visitor’s language and links to sign-up and log-in in it', async () => {
    fakeApi({});
    await open('lv');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Saņemiet dzeramnaudu ar savu personīgo QR kodu');
    expect(document.title).toContain('Saņemiet dzeramnaudu');
    expect(screen.getAllByRole('link', { name: /Reģistrēties bez maksas/ })[0]).toHaveAttribute('href', '/lv/registration');
    expect(screen.getByRole('link', { name: 'Pieslēgties' })).toHaveAttribute('href', '/lv/login');
  });

  it('offers the tariff sheet in the visitor’s language', async () => {
    fakeApi({});
    await open('fr');
    expect(screen.getByRole('link', { name: /Tarifs complets \(PDF\)/ })).toHaveAttribute('href', '/docs/tariff-fr.pdf');
  });

  it('leads on to the FAQ and how it works', async () => {
    fakeApi({});
    await open();
    expect(screen.getByRole('link', { name: 'How it works in detail' })).toHaveAttribute('href', '/how-it-works');
    await userEvent.click(screen.getByRole('link', { name: 'Read the FAQ' }));
    expect(await navigatedTo()).toBe('/faq');
  });
});
