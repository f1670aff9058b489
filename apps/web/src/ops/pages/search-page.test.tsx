import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CARD_ID, ORDER_ID, PAYMENT_ID, USER_ID } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const SEARCH = 'GET /ops/search';
const VENUE_ID = '4f0d2e5a-7b8c-4d9e-8f1a-2b3c4d5e6f70';
const hit = (overrides: object) => ({
  title: '',
  detail: '',
  amount_cents: null,
  created_at: null,
  user_id: null,
  payment_id: null,
  ...overrides,
});

describe('the search page', () => {
  it('searches what is typed, through the address, and says it is searching', async () => {
    const api = fakeApi({ [SEARCH]: pending });
    const { router } = renderOps('/search', { role: 'support' });
    await userEvent.type(await screen.findByLabelText(/^Reference, phone, e-mail/), ' a42c5fab ');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('status', { name: 'Searching…' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/search?q=a42c5fab');
    // The status shows as soon as the query starts; its request goes out a moment later.
    await waitFor(() => expect(api.sent(SEARCH)[0]?.query.get('q')).toBe('a42c5fab'));
  });

  it('asks for two characters before searching', async () => {
    const api = fakeApi({});
    renderOps('/search', { role: 'support' });
    await userEvent.type(await screen.findByLabelText(/^Reference, phone, e-mail/), 'a');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Type at least 2 characters.')).toBeInTheDocument();
    expect(api.sent(SEARCH)).toHaveLength(0);
  });

  it('says when nothing matches, and offers to try again when the search fails', async () => {
    fakeApi({ [SEARCH]: [] });
    renderOps('/search?q=zzzz', { role: 'support' });
    expect(await screen.findByRole('heading', { name: 'Nothing matches “zzzz”.' })).toBeInTheDocument();

    fakeApi({ [SEARCH]: apiError(503, 'unavailable', 'The service is busy.') });
    renderOps('/search?q=zzzz', { role: 'support' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service is busy.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('groups what it finds by kind, each a link to its payment or its user', async () => {
    fakeApi({
      [SEARCH]: [
        hit({
          kind: 'payment',
          id: PAYMENT_ID,
          title: '7D3E4F5A',
          detail: 'tip · succeeded · Tip to Anna',
          amount_cents: 5_000,
          created_at: '2026-03-02T09:30:00Z',
          payment_id: PAYMENT_ID,
        }),
        hit({ kind: 'user', id: USER_ID, title: '+37120000000', detail: 'active', user_id: USER_ID }),
        hit({ kind: 'card', id: CARD_ID, title: 'Anna', detail: 'Bar Riga', user_id: USER_ID }),
        hit({ kind: 'venue', id: VENUE_ID, title: 'Café Rīga', detail: 'venue · LV' }),
        hit({ kind: 'card_order', id: ORDER_ID, title: '8e4f5a6b', detail: '1 × card · placed', user_id: USER_ID }),
        hit({ kind: 'payout_method', id: ORDER_ID, title: 'LV•• •••• 1234', detail: 'Anna Ozola', user_id: USER_ID }),
      ],
    });
    renderOps('/search?q=anna', { role: 'support' });
    expect(await findHeading('Search')).toBeInTheDocument();
    const payments = await screen.findByRole('table', { name: 'Payments' });
    expect(within(payments).getByRole('link', { name: '7D3E4F5A' })).toHaveAttribute('href', `/payments/${PAYMENT_ID}`);
    expect(payments).toHaveTextContent('50.00 EUR');
    expect(within(screen.getByRole('table', { name: 'Users' })).getByRole('link', { name: '+37120000000' })).toHaveAttribute(
      'href',
      `/users/${USER_ID}`,
    );
    const cards = screen.getByRole('table', { name: 'Cards' });
    expect(within(cards).getByRole('link', { name: 'Anna' })).toHaveAttribute('href', `/users/${USER_ID}`);
    expect(within(screen.getByRole('table', { name: 'Venues' })).getByRole('link', { name: 'Café Rīga' })).toHaveAttribute(
      'href',
      `/venues/${VENUE_ID}`,
    );
    // An order not paid for leads to its user; groups with no hit are not shown.
    expect(within(screen.getByRole('table', { name: 'Card orders' })).getByRole('link', { name: '8e4f5a6b' })).toHaveAttribute(
      'href',
      `/users/${USER_ID}`,
    );
    expect(screen.getByRole('table', { name: 'Payout accounts' })).toHaveTextContent('Anna Ozola');
    expect(screen.queryByRole('table', { name: 'Invoices' })).toBeNull();
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'Payments',
      'Users',
      'Cards',
      'Venues',
      'Card orders',
      'Payout accounts',
    ]);
  });
});
