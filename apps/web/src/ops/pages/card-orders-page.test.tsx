import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { cardOrderRow, ORDER_ID } from '../test-data.ts';
import { currentPath, renderOps } from '../test-render.tsx';

const ORDERS = 'GET /ops/card-orders';
const MOVE = `POST /ops/card-orders/${ORDER_ID}/status`;
const CANCEL = `POST /ops/card-orders/${ORDER_ID}/cancel`;
const SHORT = ORDER_ID.slice(0, 8);

const orderRow = () => screen.findByRole('row', { name: new RegExp(SHORT) });

describe('the card orders page', () => {
  it('says it is loading the orders', async () => {
    fakeApi({ [ORDERS]: pending });
    renderOps('/card-orders', { role: 'support' });
    expect(await screen.findByRole('status', { name: 'Loading card orders…' })).toBeInTheDocument();
  });

  it('opens on the placed orders with where they go', async () => {
    const api = fakeApi({ [ORDERS]: [cardOrderRow()] });
    renderOps('/card-orders', { role: 'support' });
    const row = await orderRow();
    expect(row).toHaveTextContent('2 × card');
    expect(row).toHaveTextContent('15.00 EUR');
    expect(row).toHaveTextContent('Brīvības iela 1');
    expect(row).toHaveTextContent('LV-1010 Rīga, LV');
    expect(within(row).getByText('placed')).toBeInTheDocument();
    expect(api.sent(ORDERS)[0]!.query.get('status')).toBe('placed');
  });

  it('says when no order has the status, and offers to try again after a failure', async () => {
    let failures = 1;
    fakeApi({ [ORDERS]: () => (failures-- > 0 ? apiError(503, 'unavailable', 'The service is busy.') : []) });
    renderOps('/card-orders?status=delivered', { role: 'support' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service is busy.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'No orders with this status.' })).toBeInTheDocument();
  });

  it('starts production of a placed order', async () => {
    const api = fakeApi({ [ORDERS]: [cardOrderRow()], [MOVE]: cardOrderRow({ status: 'in_production' }) });
    renderOps('/card-orders', { role: 'support' });
    await userEvent.click(within(await orderRow()).getByRole('button', { name: 'Start production' }));
    await waitFor(() => expect(api.sent(MOVE)).toHaveLength(1));
    expect(api.sent(MOVE)[0]!.body).toEqual({ status: 'in_production' });
    await waitFor(() => expect(api.sent(ORDERS)).toHaveLength(2));
  });

  it('ships an order in production with its tracking reference, which it asks for first', async () => {
    const api = fakeApi({
      [ORDERS]: [cardOrderRow({ status: 'in_production' })],
      [MOVE]: cardOrderRow({ status: 'shipped', tracking_reference: 'RR123456789LV' }),
    });
    const { router } = renderOps('/card-orders?status=in_production', { role: 'support' });
    const row = await orderRow();
    await userEvent.click(within(row).getByRole('button', { name: 'Mark shipped' }));
    await waitFor(() =>
      expect(within(row).getByLabelText(`Tracking reference for ${SHORT}`)).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(api.sent(MOVE)).toHaveLength(0);
    await userEvent.type(within(row).getByLabelText(`Tracking reference for ${SHORT}`), 'RR123456789LV');
    await userEvent.click(within(row).getByRole('button', { name: 'Mark shipped' }));
    await waitFor(() => expect(api.sent(MOVE)).toHaveLength(1));
    expect(api.sent(MOVE)[0]!.body).toEqual({ status: 'shipped', tracking_reference: 'RR123456789LV' });
    expect(currentPath(router)).toBe('/card-orders?status=in_production');
  });

  it('shows a tracking reference the API refused on its field', async () => {
    fakeApi({
      [ORDERS]: [cardOrderRow({ status: 'in_production' })],
      [MOVE]: apiError(422, 'validation_failed', 'Invalid data', { tracking_reference: ['Not a tracking reference.'] }),
    });
    renderOps('/card-orders?status=in_production', { role: 'support' });
    const row = await orderRow();
    await userEvent.type(within(row).getByLabelText(`Tracking reference for ${SHORT}`), '???');
    await userEvent.click(within(row).getByRole('button', { name: 'Mark shipped' }));
    expect(await within(row).findByText('Not a tracking reference.')).toBeInTheDocument();
  });

  it('cancels a paid order only once the operator confirms the refund', async () => {
    const api = fakeApi({ [ORDERS]: [cardOrderRow()], [CANCEL]: cardOrderRow({ status: 'canceled' }) });
    renderOps('/card-orders', { role: 'support' });
    await userEvent.click(within(await orderRow()).getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: `Cancel order ${SHORT}?` });
    expect(dialog).toHaveTextContent('15.00 EUR goes back to the user');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the order' }));
    expect(api.sent(CANCEL)).toHaveLength(0);
    await userEvent.click(within(await orderRow()).getByRole('button', { name: 'Cancel' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel the order' }));
    await waitFor(() => expect(api.sent(CANCEL)).toHaveLength(1));
  });

  it('says a free order is not refunded, and shows a refused move', async () => {
    fakeApi({
      [ORDERS]: (request: SentRequest) => [cardOrderRow({ free: true, status: request.query.get('status') as 'placed' })],
      [MOVE]: apiError(409, 'invalid_transition', 'This order has moved on meanwhile.'),
    });
    renderOps('/card-orders', { role: 'support' });
    await userEvent.click(within(await orderRow()).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('nothing was paid, so nothing is refunded');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Keep the order' }));
    await userEvent.click(within(await orderRow()).getByRole('button', { name: 'Start production' }));
    expect(await screen.findByText('This order has moved on meanwhile.')).toBeInTheDocument();
  });
});
