import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { ticketRow } from '../test-data.ts';
import { currentPath, renderOps } from '../test-render.tsx';
import { formatAge } from './ticket-status.tsx';

const TICKETS = 'GET /ops/tickets';

describe('the support inbox', () => {
  it('says it is loading the tickets', async () => {
    fakeApi({ [TICKETS]: pending });
    renderOps('/tickets', { role: 'support' });
    expect(await screen.findByRole('status', { name: 'Loading tickets…' })).toBeInTheDocument();
  });

  it('opens on the open tickets, and switches status through the address', async () => {
    const api = fakeApi({
      [TICKETS]: (request: SentRequest) =>
        request.query.get('status') === 'open' ? [ticketRow()] : [ticketRow({ status: 'closed', title: 'Card arrived' })],
    });
    const { router } = renderOps('/tickets', { role: 'support' });
    const table = await screen.findByRole('table', { name: 'Tickets, the longest without activity first' });
    expect(within(table).getByRole('link', { name: 'Where is my payout?' })).toBeInTheDocument();
    expect(within(table).getByText('open', { exact: true })).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'All');
    expect(await screen.findByRole('link', { name: 'Card arrived' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/tickets?status=all');
    expect(api.sent(TICKETS).at(-1)!.query.has('status')).toBe(false);
  });

  it('says when no ticket has the status', async () => {
    fakeApi({ [TICKETS]: [] });
    renderOps('/tickets?status=closed', { role: 'support' });
    expect(await screen.findByRole('heading', { name: 'No tickets with this status.' })).toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveValue('closed');
  });

  it('offers to try again when the inbox does not load', async () => {
    fakeApi({ [TICKETS]: apiError(503, 'unavailable', 'The service is busy.') });
    renderOps('/tickets', { role: 'support' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service is busy.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('opens a ticket from its title', async () => {
    fakeApi({ [TICKETS]: [ticketRow()], [`GET /ops/tickets/${ticketRow().id}`]: pending });
    const { router } = renderOps('/tickets', { role: 'support' });
    await userEvent.click(await screen.findByRole('link', { name: 'Where is my payout?' }));
    expect(currentPath(router)).toBe(`/tickets/${ticketRow().id}`);
  });
});

describe('a ticket’s idle time', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it.each([
    ['2026-03-10T11:55:00Z', '5 min'],
    ['2026-03-10T09:00:00Z', '3 h'],
    ['2026-03-08T11:00:00Z', '2 d'],
    ['2026-03-10T12:05:00Z', '0 min'],
  ])('%s is %s', (iso, expected) => {
    expect(formatAge(iso, now)).toBe(expected);
  });
});
