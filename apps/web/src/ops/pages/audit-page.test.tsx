import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { Answer, apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { auditRecord, PAYMENT_ID } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const AUDIT = 'GET /ops/audit';
const EXPORT = 'GET /ops/audit/export';
const CAPTION = 'Audit records, newest first (200 at most: narrow the filter, or export)';

describe('the audit log page', () => {
  it('says it is loading the records', async () => {
    fakeApi({ [AUDIT]: pending });
    renderOps('/audit');
    expect(await screen.findByRole('status', { name: 'Loading audit records…' })).toBeInTheDocument();
  });

  it('shows what changed field by field, and the object as a link to its screen', async () => {
    fakeApi({
      [AUDIT]: [
        auditRecord({
          action: 'refund.approve',
          subject_type: 'payment',
          subject_id: PAYMENT_ID,
          before: { status: 'pending' },
          after: { status: 'refunding', amount_cents: 500 },
        }),
      ],
      [`GET /ops/payments/${PAYMENT_ID}`]: pending,
    });
    const { router } = renderOps('/audit');
    const table = await screen.findByRole('table', { name: CAPTION });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('status:pending → refunding');
    expect(row).toHaveTextContent('amount_cents:500');
    expect(row).not.toHaveTextContent('{');
    await userEvent.click(within(row).getByRole('link', { name: PAYMENT_ID }));
    expect(currentPath(router)).toBe(`/payments/${PAYMENT_ID}`);
  });

  it('filters by who, the action family, the object, its id’s start and the days, and says when nothing matches', async () => {
    const api = fakeApi({ [AUDIT]: (request: SentRequest) => (request.query.size === 0 ? [auditRecord()] : []) });
    renderOps('/audit');
    await findHeading('Audit log');
    await userEvent.type(screen.getByLabelText('Operator'), ' finance ');
    await userEvent.type(screen.getByLabelText('Action'), 'refund');
    await userEvent.selectOptions(screen.getByLabelText('Object'), 'payment');
    await userEvent.type(screen.getByLabelText('Object id'), 'A42C5FAB');
    await userEvent.type(screen.getByLabelText('From'), '2026-03-01');
    await userEvent.type(screen.getByLabelText('To'), '2026-03-02');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('heading', { name: 'No record matches.' })).toBeInTheDocument();
    const query = Object.fromEntries(api.sent(AUDIT).at(-1)!.query);
    expect(query).toMatchObject({ actor: 'finance', action: 'refund', subject_type: 'payment', subject_id: 'A42C5FAB' });
    // The whole of both days, in the operator's time zone.
    expect(new Date(query.from!).getTime()).toBe(new Date('2026-03-01T00:00:00').getTime());
    expect(new Date(query.to!).getTime()).toBe(new Date('2026-03-02T23:59:59.999').getTime());
  });

  it('refuses a period that ends before it starts, without asking the API', async () => {
    const api = fakeApi({ [AUDIT]: [] });
    renderOps('/audit');
    await findHeading('Audit log');
    await userEvent.type(screen.getByLabelText('From'), '2026-03-02');
    await userEvent.type(screen.getByLabelText('To'), '2026-03-01');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('The last day comes after the first')).toBeInTheDocument();
    expect(api.sent(AUDIT)).toHaveLength(1);
  });

  it('exports what the filter shows as a CSV file', async () => {
    // jsdom has no object URLs: the page's download gets stand-ins, put back when the test ends.
    const createObjectURL = vi.fn(() => 'blob:audit');
    const { createObjectURL: realCreate, revokeObjectURL: realRevoke } = URL;
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    onTestFinished(() => {
      Object.assign(URL, { createObjectURL: realCreate, revokeObjectURL: realRevoke });
    });
    const api = fakeApi({
      [AUDIT]: [],
      [EXPORT]: new Answer(200, new Blob(['when,actor\r\n'], { type: 'text/csv' }), { 'content-type': 'text/csv' }),
    });
    renderOps('/audit');
    await findHeading('Audit log');
    await userEvent.type(screen.getByLabelText('Action'), 'refund');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(Object.fromEntries(api.sent(EXPORT)[0]!.query)).toEqual({ action: 'refund' });
  });

  it('offers to try again when the log does not load', async () => {
    fakeApi({ [AUDIT]: apiError(500, 'internal', 'Internal error') });
    renderOps('/audit');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
