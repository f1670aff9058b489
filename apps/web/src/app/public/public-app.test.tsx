import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { fakeApi, pending } from '../../test/fake-api.ts';
import { renderGuestPage } from '../../test/render-guest-page.tsx';
import { PublicApp } from './public-app.tsx';

const ID = '7c3d5e6f-8a9b-4c0d-9e1f-2a3b4c5d6e7f';

describe('the public entry', () => {
  it('opens the tip page for a payment link', async () => {
    fakeApi({ [`GET /public/cards/${ID}`]: pending, 'GET /site': { turnstile_site_key: null } });
    renderGuestPage(<PublicApp />, { path: `/payment/${ID}` });
    expect(await screen.findByRole('status')).toHaveTextContent('Confirming your payment…');
  });

  it('opens the invoice payer page for an invoice link', async () => {
    fakeApi({ [`GET /public/invoices/${ID}`]: pending });
    renderGuestPage(<PublicApp />, { path: `/invoice/${ID}` });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the invoice…');
  });

  it('opens the donor action page for a signed link', async () => {
    fakeApi({ [`GET /public/actions/${ID}`]: pending });
    renderGuestPage(<PublicApp />, { path: `/actions/${ID}` });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
  });

  it('opens the venue page from the data the server inlined', () => {
    fakeApi({});
    renderGuestPage(<PublicApp />, {
      path: `/venue/${ID}`,
      shell: { locale: 'en', venue: { id: ID, name: 'Café Rīga', people: [], teams: [] } },
    });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Café Rīga');
  });

  it('sends a team invite to the app, where sign-up and the session are', async () => {
    fakeApi({});
    const { left } = renderGuestPage(<PublicApp />, { path: `/teams/${ID}/join` });
    await waitFor(() => expect(left).toEqual([`/#/teams/${ID}/join`]));
  });
});
