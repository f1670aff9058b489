import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardOrder } from '@tipcard/shared/card-orders/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CARD_ID, cardAnswer, CLIENT_ID, signedInRoutes } from '../../test/fixtures.ts';
import { GUEST_CARD_ID, publicCard } from '../../components/guest/test-data.ts';
import { renderPage } from '../../test/render-page.tsx';
import CardOrdersPage from './card-orders-page.tsx';

const ORDERS = `GET /clients/${CLIENT_ID}/card-orders`;
const PLACE = `POST /clients/${CLIENT_ID}/card-orders`;
// The print file is a PDF drawn by pdf.js, which jsdom cannot run: the previews stay in their loading state.
const PREVIEW = `GET /clients/${CLIENT_ID}/card-orders/preview`;

const order: CardOrder = {
  id: '2f1d7c1e-4b7a-4c55-9a1e-0c3f7d2b9a10',
  card_id: CARD_ID,
  product: 'card',
  quantity: 2,
  status: 'shipped',
  free: false,
  total_cents: 2_400,
  currency: 'EUR',
  country: 'LV',
  city: 'Rīga',
  address: 'Brīvības iela 1',
  apartment: '12',
  zip: 'LV-1010',
  first_name: 'Anna',
  last_name: 'Ozola',
  additional_info: null,
  tracking_reference: 'RR123456789LV',
  checkout_url: null,
  created_at: '2026-01-14T12:00:00Z',
  placed_at: '2026-01-14T12:00:00Z',
  shipped_at: '2026-01-16T12:00:00Z',
};

function ordersAnswer(orders: CardOrder[], overrides: Record<string, unknown> = {}) {
  return {
    orders,
    next_order_free: orders.length === 0,
    items_ordered: orders.reduce((sum, item) => sum + item.quantity, 0),
    items_left: 10 - orders.reduce((sum, item) => sum + item.quantity, 0),
    max_items_per_order: 3,
    unit_price_cents: 1_200,
    ...overrides,
  };
}

const page = { path: '/card-orders' };

describe('the card orders page', () => {
  it('holds places for the order history while it loads', async () => {
    fakeApi({ ...signedInRoutes(), [ORDERS]: pending, [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    expect(await screen.findByRole('status', { name: 'Loading orders…' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Preparing the order form…' })).toBeInTheDocument();
  });

  it('offers no more cards than are left to order, and says how many that is', async () => {
    fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([order], { items_left: 2 }), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    const quantity = await screen.findByRole('combobox', { name: 'Quantity' });
    expect(
      within(quantity)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1', '2']);
    expect(screen.getByTestId('card-order-items-left')).toHaveTextContent('You can order 2 more cards.');
  });

  it('asks for a card first, since the print carries its QR code', async () => {
    fakeApi({ ...signedInRoutes(), [`GET /clients/${CLIENT_ID}/cards`]: [], [ORDERS]: ordersAnswer([]), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    expect(await screen.findByRole('link', { name: 'Create my card' })).toHaveAttribute('href', '/account/create');
    expect(screen.queryByRole('button', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('says the first order is free and how many items are left, with an empty history', async () => {
    fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([]), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    expect(await screen.findByTestId('card-order-terms')).toHaveTextContent(
      'Your first order is free. Items you can still order: 10.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Card shop' })).toBeInTheDocument();
    const empty = await screen.findByTestId('card-orders-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No orders yet');
  });

  it('lists the orders with status, tracking and the way to pay one still awaiting payment', async () => {
    const unpaid: CardOrder = {
      ...order,
      id: '3a2e8d2f-5c8b-4d66-8b2f-1d4a8e3c0b21',
      product: 'sticker',
      quantity: 1,
      status: 'awaiting_payment',
      tracking_reference: null,
      checkout_url: 'https://checkout.test/pay/1',
    };
    fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([unpaid, order]), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    const list = await screen.findByRole('list', { name: 'Your orders' });
    const [first, second] = within(list).getAllByTestId('card-order-row');
    expect(first).toHaveTextContent('1 × QR sticker');
    expect(first).toHaveTextContent('Awaiting payment');
    expect(within(first!).getByRole('link', { name: 'Pay' })).toHaveAttribute('href', 'https://checkout.test/pay/1');
    expect(second).toHaveTextContent('2 × QR card');
    expect(second).toHaveTextContent('€24.00');
    expect(second).toHaveTextContent('Tracking: RR123456789LV');
    expect(second).toHaveTextContent('Shipped');
    expect(screen.getByRole('heading', { level: 1, name: 'My QR cards' })).toBeInTheDocument();
    expect(screen.getByTestId('card-order-terms')).toHaveTextContent('Each item costs €12.00.');
  });

  it('says when no more items may be ordered', async () => {
    fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([order], { items_left: 0 }), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    expect(await screen.findByTestId('card-order-limit')).toHaveTextContent(
      'You have already ordered too many cards. Contact support if you need more.',
    );
    expect(screen.queryByRole('button', { name: 'Preview' })).not.toBeInTheDocument();
  });

  it('offers to load the history again after it failed', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [ORDERS]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : ordersAnswer([order])),
      [PREVIEW]: pending,
    });
    await renderPage(<CardOrdersPage />, page);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The orders could not be loaded.');
    expect(screen.queryByTestId('card-orders-empty')).not.toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('card-order-row')).toHaveTextContent('2 × QR card');
    expect(api.sent(ORDERS)).toHaveLength(2);
  });

  it('names the missing address fields before the preview', async () => {
    fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([]), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    expect(await screen.findAllByText('This field is required')).toHaveLength(5);
    expect(screen.queryByRole('heading', { name: 'Check what will be printed' })).not.toBeInTheDocument();
  });

  it('offers a venue card the user may order without holding it, chosen, named as guests see it', async () => {
    const venue = {
      id: '3e8d2c1b-5a4f-4e6d-9c7b-1a2b3c4d5e6f',
      title: 'Hotel Riga',
      workplace_name: 'Hotel Riga',
      member_count: 3,
      members: [],
    };
    const api = fakeApi({
      ...signedInRoutes(),
      [ORDERS]: ordersAnswer([order]),
      [PREVIEW]: pending,
      [`GET /public/cards/${GUEST_CARD_ID}`]: publicCard({ public_name: 'Hotel Riga', venue }),
      [PLACE]: { ...order, card_id: GUEST_CARD_ID, status: 'placed' },
    });
    await renderPage(<CardOrdersPage />, { path: `/card-orders?card=${GUEST_CARD_ID}`, route: '/card-orders' });
    const choice = await screen.findByRole('radio', { name: /Hotel Riga\s*Venue card/ }, { timeout: 5_000 });
    expect(choice).toBeChecked();
    expect(screen.getByRole('radio', { name: /Anna\s*Your card/ })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText('Hotel Riga')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^Pay/ }));
    await screen.findByTestId('card-order-result');
    expect(api.sent(PLACE)[0]!.body).toMatchObject({ card_id: GUEST_CARD_ID });
  });

  it('fills the address of the last order, previews it, and places the order', async () => {
    let placed: CardOrder[] = [order];
    const api = fakeApi({
      ...signedInRoutes(),
      [ORDERS]: () => ordersAnswer(placed, { next_order_free: true }),
      [PREVIEW]: pending,
      [PLACE]: () => {
        const fresh: CardOrder = {
          ...order,
          id: '4b3f9e30-6d9c-4e77-9c30-2e5b9f4d1c32',
          quantity: 3,
          status: 'placed',
          free: true,
        };
        placed = [fresh, order];
        return fresh;
      },
    });
    await renderPage(<CardOrdersPage />, page);
    expect(await screen.findByRole('textbox', { name: 'City' })).toHaveValue('Rīga');
    expect(screen.getByRole('textbox', { name: /^Apartment number/ })).toHaveValue('12');
    await userEvent.selectOptions(screen.getByLabelText('Quantity'), '3');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));

    expect(await screen.findByRole('heading', { name: 'Check what will be printed' })).toBeInTheDocument();
    expect(screen.getByText('3 × QR card')).toBeInTheDocument();
    expect(screen.getByText('Anna Ozola')).toBeInTheDocument();
    expect(screen.getByText('Brīvības iela 1, 12, LV-1010, Rīga, Latvia')).toBeInTheDocument();
    expect(screen.getByText('Free (your first order)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Place free order' }));

    const result = await screen.findByTestId('card-order-result');
    expect(within(result).getByRole('heading')).toHaveTextContent('Your order is placed');
    expect(result).toHaveTextContent('We will print 3 × QR card and send it to you.');
    const [request] = api.sent(PLACE);
    expect(request!.body).toMatchObject({ product: 'card', quantity: 3, city: 'Rīga', apartment: '12' });
    expect(request!.headers.get('Idempotency-Key')).toBeTruthy();

    await userEvent.click(within(result).getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('button', { name: 'Preview' })).toBeInTheDocument();
    expect(screen.getByLabelText('Quantity')).toHaveValue('1');
    expect(screen.getByRole('textbox', { name: 'City' })).toHaveValue('Rīga');
  });

  it('goes back from the preview to the form with what was typed', async () => {
    const api = fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([order]), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    const city = await screen.findByRole('textbox', { name: 'City' });
    await userEvent.clear(city);
    await userEvent.type(city, 'Jūrmala');
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('button', { name: 'Pay €12.00' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(await screen.findByRole('textbox', { name: 'City' })).toHaveValue('Jūrmala');
    expect(api.sent(PLACE)).toEqual([]);
  });

  it('prints the team card its admin chose on the Workplace page: previewed, named in the summary and ordered', async () => {
    const teamCardId = '7c6b5a49-3e2d-4c1b-8a09-f8e7d6c5b4a3';
    let placed: CardOrder[] = [];
    const api = fakeApi({
      ...signedInRoutes(),
      [`GET /clients/${CLIENT_ID}/cards`]: [
        cardAnswer(),
        cardAnswer({ id: teamCardId, is_private: false, title: 'Front of house', public_name: 'Café Brīvība' }),
      ],
      [ORDERS]: () => ordersAnswer(placed),
      [PREVIEW]: pending,
      [PLACE]: () => {
        placed = [{ ...order, id: '4b3f9e30-6d9c-4e77-9c30-2e5b9f4d1c32', card_id: teamCardId, status: 'placed', free: true }];
        return placed[0];
      },
    });
    await renderPage(<CardOrdersPage />, { path: `/card-orders?card=${teamCardId}`, route: '/card-orders' });
    const choice = await screen.findByRole('group', { name: 'Which card' });
    expect(within(choice).getByRole('radio', { name: /Café Brīvība/ })).toBeChecked();
    expect(within(choice).getByRole('radio', { name: /Anna/ })).not.toBeChecked();
    expect(api.sent(PREVIEW).some((call) => call.query.get('card_id') === teamCardId)).toBe(true);

    for (const [name, value] of [
      ['First name', 'Anna'],
      ['Last name', 'Ozola'],
      ['City', 'Rīga'],
      ['Address', 'Brīvības iela 1'],
      ['ZIP code', 'LV-1010'],
    ])
      await userEvent.type(screen.getByRole('textbox', { name }), value!);
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('heading', { name: 'Check what will be printed' })).toBeInTheDocument();
    expect(screen.getByText('Card').nextElementSibling).toHaveTextContent('Café Brīvība');
    await userEvent.click(screen.getByRole('button', { name: 'Place free order' }));
    await screen.findByTestId('card-order-result');
    expect(api.sent(PLACE)[0]!.body).toMatchObject({ card_id: teamCardId, product: 'card' });
  });

  it('offers no choice of card to a user with only their own', async () => {
    fakeApi({ ...signedInRoutes(), [ORDERS]: ordersAnswer([]), [PREVIEW]: pending });
    await renderPage(<CardOrdersPage />, page);
    await screen.findByRole('button', { name: 'Preview' });
    expect(screen.queryByRole('group', { name: 'Which card' })).not.toBeInTheDocument();
  });
});
