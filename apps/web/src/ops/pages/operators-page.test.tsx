import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { operatorRow } from '../test-data.ts';
import { findHeading, OPERATOR_ID, renderOps } from '../test-render.tsx';

const LIST = 'GET /ops/operators';
const CREATE = 'POST /ops/operators';
const invited = operatorRow({
  id: 'f1a2b3c4-d5e6-4f7a-8b9c-0d1e2f3a4b5c',
  email: 'finance@ops.example',
  role: 'finance',
  enrolled: false,
});

describe('the operators page', () => {
  it('says it is loading the operators', async () => {
    fakeApi({ [LIST]: pending });
    renderOps('/operators');
    expect(await screen.findByRole('status', { name: 'Loading operators…' })).toBeInTheDocument();
  });

  it('lists the operators with their state', async () => {
    fakeApi({
      [LIST]: [
        operatorRow(),
        invited,
        operatorRow({
          id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
          email: 'gone@ops.example',
          locked_until: '2999-01-01T00:00:00Z',
        }),
      ],
    });
    renderOps('/operators');
    const table = await screen.findByRole('table', { name: 'Operators' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringContaining('enrolled'),
      expect.stringContaining('invited'),
      expect.stringContaining('locked'),
    ]);
    expect(rows[1]).toHaveTextContent('finance@ops.example');
  });

  it('offers to try again when the list does not load', async () => {
    let failures = 1;
    fakeApi({ [LIST]: () => (failures-- > 0 ? apiError(503, 'unavailable', 'The service is busy.') : [operatorRow()]) });
    renderOps('/operators');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service is busy.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('cell', { name: 'admin@ops.example' })).toBeInTheDocument();
  });

  it('creates an operator and shows the one-time enrolment link', async () => {
    let created = false;
    const api = fakeApi({
      [LIST]: () => (created ? [operatorRow(), invited] : [operatorRow()]),
      [CREATE]: () => {
        created = true;
        return { operator: invited, enrolment_url: 'https://tipcard.test/ops/#/enrol/abc' };
      },
    });
    renderOps('/operators');
    await findHeading('Operators');
    await userEvent.type(screen.getByLabelText('E-mail'), 'finance@ops.example');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'finance');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('enrolment-url')).toHaveTextContent('https://tipcard.test/ops/#/enrol/abc');
    expect(api.sent(CREATE)[0]!.body).toEqual({ email: 'finance@ops.example', role: 'finance' });
    expect(await screen.findByRole('cell', { name: 'finance@ops.example' })).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('');
  });

  it('checks the e-mail before sending, and shows the API’s refusal on the field', async () => {
    const api = fakeApi({
      [LIST]: [],
      [CREATE]: apiError(422, 'validation_failed', 'Invalid data', { email: ['An operator with this e-mail exists.'] }),
    });
    renderOps('/operators');
    await findHeading('Operators');
    await userEvent.type(screen.getByLabelText('E-mail'), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true'));
    expect(api.sent(CREATE)).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('E-mail'));
    await userEvent.type(screen.getByLabelText('E-mail'), 'admin@ops.example');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('An operator with this e-mail exists.')).toBeInTheDocument();
  });

  it('shows a disabled operator as disabled, whatever else is true of them', async () => {
    fakeApi({ [LIST]: [operatorRow({ disabled: true, locked_until: '2999-01-01T00:00:00Z' })] });
    renderOps('/operators');
    const table = await screen.findByRole('table', { name: 'Operators' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('disabled');
  });

  it('changes a role only after confirming it, and says the operator is signed out', async () => {
    let role: 'finance' | 'compliance' = 'finance';
    const api = fakeApi({
      [LIST]: () => [invited, operatorRow()].map((row) => (row.id === invited.id ? { ...row, role } : row)),
      [`PATCH /ops/operators/${invited.id}`]: () => {
        role = 'compliance';
        return { ...invited, role };
      },
    });
    renderOps('/operators');
    await userEvent.selectOptions(await screen.findByLabelText('Role of finance@ops.example'), 'compliance');
    const dialog = await screen.findByRole('dialog', { name: 'Change the role' });
    expect(dialog).toHaveTextContent('finance@ops.example becomes compliance (now finance).');
    expect(dialog).toHaveTextContent('This signs finance@ops.example out of every session.');
    expect(api.sent(`PATCH /ops/operators/${invited.id}`)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent(`PATCH /ops/operators/${invited.id}`)[0]!.body).toEqual({ role: 'compliance' });
    await waitFor(() => expect(screen.getByLabelText('Role of finance@ops.example')).toHaveValue('compliance'));
  });

  it('keeps the dialog open with the API’s refusal when the last admin would go', async () => {
    const self = operatorRow({ id: OPERATOR_ID });
    fakeApi({
      [LIST]: [self],
      [`PATCH /ops/operators/${OPERATOR_ID}`]: apiError(
        409,
        'operator_last_admin',
        'The back office must keep at least one enabled admin',
      ),
    });
    renderOps('/operators');
    await userEvent.click(await screen.findByRole('button', { name: 'Disable…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable the operator' });
    expect(dialog).toHaveTextContent('This signs you out of every session.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disable' }));
    expect(await within(dialog).findByText('The back office must keep at least one enabled admin')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('resets a sign-in after confirming, and shows the new one-time link it e-mailed', async () => {
    const api = fakeApi({
      [LIST]: [invited],
      [`POST /ops/operators/${invited.id}/reset-sign-in`]: {
        operator: invited,
        enrolment_url: 'https://tipcard.test/ops/#/enrol/new-link',
      },
    });
    renderOps('/operators');
    await userEvent.click(await screen.findByRole('button', { name: 'Reset sign-in…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset password and authenticator' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByTestId('enrolment-url')).toHaveTextContent('https://tipcard.test/ops/#/enrol/new-link');
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent('A new enrolment link e-mailed to finance@ops.example');
    expect(api.sent(`POST /ops/operators/${invited.id}/reset-sign-in`)).toHaveLength(1);
  });
});
