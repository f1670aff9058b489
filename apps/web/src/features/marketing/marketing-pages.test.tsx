import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Locale } from '@tipcard/shared/constants';
import type { ReactNode } from 'react';
import { loadNamespace } from '../../lib/i18n.ts';
import { fakeApi, pending } from '../../test/fake-api.ts';
import { navigatedTo, renderPage } from '../../test/render-page.tsx';
import AboutPage from './about-page.tsx';
import AffiliatePage from './affiliate-page.tsx';
import FaqPage from './faq-page.tsx';
import HowItWorksPage from './how-it-works-page.tsx';
import { siteInfo } from './test-data.ts';

async function open(page: ReactNode, path: string, locale: Locale = 'en') {
  // The pages' catalog comes by a lazy import: loaded first, so the first test does not wait on the bundler.
  await loadNamespace('marketing', locale);
  return renderPage(page, { path: locale === 'en' ? path : `/${locale}${path}`, locale, signedIn: false });
}

describe('the FAQ page', () => {
  it('answers in the reader’s language with the configured hold period, one question at a time', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<FaqPage />, '/faq', 'lv');
    expect(await screen.findByRole('heading', { level: 1, name: 'Biežāk uzdotie jautājumi' })).toBeInTheDocument();
    const question = screen.getByRole('button', { name: 'Kad varu izmaksāt dzeramnaudu?' });
    expect(question).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByText(/rezervēta 72 stundas pēc maksājuma/)).toBeVisible();
  });

  it('quotes an ellipsis until the figures have arrived, and leads to the contacts', async () => {
    fakeApi({ 'GET /site': pending });
    await open(<FaqPage />, '/faq');
    await userEvent.click(await screen.findByRole('button', { name: 'When can I withdraw a tip?' }));
    expect(screen.getByText(/on hold for … after/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Read the FAQ' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: /Contact us/ }));
    expect(await navigatedTo()).toBe('/contacts');
  });
});

describe('the about page', () => {
  it('names the operator as configured, in the reader’s language', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<AboutPage />, '/about', 'es');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Las propinas son de quienes se las ganan');
    const operator = await screen.findByTestId('operator-details');
    expect(await within(operator).findByText('Tipcard SIA')).toBeInTheDocument();
    expect(operator).toHaveTextContent('Número de registro: 40203000000');
    expect(screen.getByRole('link', { name: 'Ver preguntas frecuentes' })).toHaveAttribute('href', '/es/faq');
  });

  it('says plainly that a test installation has no operator set up when none is configured', async () => {
    fakeApi({
      'GET /site': siteInfo({ company: { name: null, registration_number: null, licence: null, address: null } }),
    });
    await open(<AboutPage />, '/about');
    expect(await screen.findByTestId('operator-details')).toHaveTextContent(/has no operator set up yet/);
  });
});

describe('the how it works page', () => {
  it('explains the steps in the reader’s language and links to sign-up and the tariff sheet', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<HowItWorksPage />, '/how-it-works', 'lv');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('No skenēšanas līdz jūsu bankas kontam');
    expect(screen.getByText('Reģistrējieties ar tālruni')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /Reģistrēties bez maksas/ })[0]).toHaveAttribute('href', '/lv/registration');
    expect(screen.getByRole('link', { name: /PDF/ })).toHaveAttribute('href', '/docs/tariff-lv.pdf');
  });
});

describe('the affiliate page', () => {
  it('offers the agents’ sheets in their languages and the way to sign up', async () => {
    fakeApi({ 'GET /site': siteInfo() });
    await open(<AffiliatePage />, '/affiliate', 'fr');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(/Invitez/);
    for (const sheet of screen.getAllByTestId(/^agents-pdf-/)) {
      const locale = sheet.getAttribute('hreflang');
      expect(sheet).toHaveAttribute('href', `/docs/agents-${locale}.pdf`);
    }
    await userEvent.click(screen.getAllByRole('link', { name: /S’inscrire/ })[0]!);
    expect(await navigatedTo()).toBe('/fr/registration');
  });
});
