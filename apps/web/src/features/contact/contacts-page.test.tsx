import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SiteInfo } from '@tipcard/shared/site/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { loadNamespace } from '../../lib/i18n.ts';
import { renderPage } from '../../test/render-page.tsx';
import ContactsPage from './contacts-page.tsx';

const site = (overrides: Partial<SiteInfo> = {}): SiteInfo => ({
  company: { name: 'Tipcard SIA', registration_number: '40203000000', licence: null, address: 'Brīvības iela 1, Rīga' },
  support: { email: 'help@tipcard.test', phone: '+371 2000 0000' },
  social: { instagram: null, facebook: null, tiktok: null },
  turnstile_site_key: null,
  contact_form: true,
  figures: { hold_hours: 72, verification_limit_cents: 100_000 },
  ...overrides,
});

async function open(locale: 'en' | 'lv' = 'en') {
  // The page's catalog comes by a lazy import: loaded first, so the first test does not wait on the bundler.
  await loadNamespace('marketing', locale);
  return renderPage(<ContactsPage />, { path: '/contacts', locale, signedIn: false });
}
const field = (name: string) => screen.getByRole('textbox', { name });

async function write(name = 'Anna', email = 'anna@example.lv', message = 'Can I order two cards?') {
  await userEvent.type(await screen.findByRole('textbox', { name: 'Your name' }), name);
  await userEvent.type(field('Your e-mail'), email);
  await userEvent.type(field('Message'), message);
  await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
}

describe('the contacts page', () => {
  it('shows the configured contact details and the operator, in the reader’s language', async () => {
    fakeApi({ 'GET /site': site() });
    await open('lv');
    const details = await screen.findByRole('region', { name: 'Kontaktinformācija' });
    expect(within(details).getByRole('link', { name: 'help@tipcard.test' })).toHaveAttribute('href', 'mailto:help@tipcard.test');
    expect(within(details).getByRole('link', { name: '+371 2000 0000' })).toHaveAttribute('href', 'tel:+37120000000');
    expect(screen.getByTestId('operator-details')).toHaveTextContent('Tipcard SIA');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Esam šeit, lai palīdzētu');
  });

  it('leaves the details box out when nothing is configured', async () => {
    fakeApi({
      'GET /site': site({
        support: { email: null, phone: null },
        company: { name: null, registration_number: null, licence: null, address: null },
      }),
    });
    await open();
    expect(await screen.findByRole('textbox', { name: 'Your name' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Contact details' })).not.toBeInTheDocument());
  });

  it('checks the fields before sending', async () => {
    const api = fakeApi({ 'GET /site': pending });
    await open();
    await write('Anna', 'not-an-address', ' ');
    expect(await screen.findByText('Invalid email address.')).toBeInTheDocument();
    expect(field('Message')).toHaveAccessibleDescription('This field is required');
    expect(api.sent('POST /contact')).toHaveLength(0);
  });

  it('sends the message, thanks the visitor and offers to write another', async () => {
    const api = fakeApi({ 'GET /site': site(), 'POST /contact': null });
    await open();
    await write();
    expect(await screen.findByRole('heading', { name: 'Thank you, your message has been sent' })).toBeInTheDocument();
    expect(api.sent('POST /contact')[0]!.body).toEqual({
      name: 'Anna',
      email: 'anna@example.lv',
      message: 'Can I order two cards?',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Send another message' }));
    expect(field('Your name')).toHaveValue('');
  });

  it('puts the server’s refusal under its field', async () => {
    fakeApi({
      'GET /site': site(),
      'POST /contact': apiError(422, 'validation_failed', 'Invalid email address.', { email: ['Invalid email address.'] }),
    });
    await open();
    await write();
    await waitFor(() => expect(field('Your e-mail')).toHaveAccessibleDescription('Invalid email address.'));
    expect(field('Your e-mail')).toHaveFocus();
  });

  it('says when the form cannot deliver', async () => {
    fakeApi({ 'GET /site': site({ contact_form: false }) });
    await open();
    expect(
      await screen.findByText('The contact form is not available right now. Please use the contact details on this page.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send message' })).not.toBeInTheDocument();
  });
});
