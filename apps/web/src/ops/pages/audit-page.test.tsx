import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { auditRecord } from '../test-data.ts';
import { findHeading, OPERATOR_ID, renderOps } from '../test-render.tsx';

const AUDIT = 'GET /ops/audit';

describe('the audit log page', () => {
  it('says it is loading the records', async () => {
    fakeApi({ [AUDIT]: pending });
    renderOps('/audit');
    expect(await screen.findByRole('status', { name: 'Loading audit records…' })).toBeInTheDocument();
  });

  it('lists the records with what changed', async () => {
    fakeApi({ [AUDIT]: [auditRecord()] });
    renderOps('/audit');
    const table = await screen.findByRole('table', { name: 'Audit records, newest first' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByRole('cell', { name: 'operator.create' })).toBeInTheDocument();
    expect(row).toHaveTextContent('{"role":"finance"}');
    expect(row).toHaveTextContent('127.0.0.1');
  });

  it('filters by the fields filled in, trimmed, and says when nothing matches', async () => {
    const api = fakeApi({ [AUDIT]: (request: SentRequest) => (request.query.size === 0 ? [auditRecord()] : []) });
    renderOps('/audit');
    await findHeading('Audit log');
    await userEvent.type(screen.getByLabelText('Action'), ' user.block ');
    await userEvent.type(screen.getByLabelText('Operator id'), OPERATOR_ID);
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('heading', { name: 'No record matches.' })).toBeInTheDocument();
    const last = api.sent(AUDIT).at(-1)!;
    expect(Object.fromEntries(last.query)).toEqual({ action: 'user.block', operator_id: OPERATOR_ID });
  });

  it('refuses an operator id that is not one, without asking the API', async () => {
    const api = fakeApi({ [AUDIT]: [] });
    renderOps('/audit');
    await findHeading('Audit log');
    await userEvent.type(screen.getByLabelText('Operator id'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getByLabelText('Operator id')).toHaveAttribute('aria-invalid', 'true'));
    expect(api.sent(AUDIT)).toHaveLength(1);
  });

  it('offers to try again when the log does not load', async () => {
    fakeApi({ [AUDIT]: apiError(500, 'internal', 'Internal error') });
    renderOps('/audit');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
