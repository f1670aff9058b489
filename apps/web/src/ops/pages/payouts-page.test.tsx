import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending, type SentRequest } from '../../test/fake-api.ts';
import { batch, payout } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const PAYOUTS = 'GET /ops/payouts';
const BATCHES = 'GET /ops/payout-batches';
const CREATE = 'POST /ops/payout-batches';
const OUTCOME = `POST /ops/payouts/${payout().id}/outcome`;

describe('the payouts page', () => {
  it('says it is loading the bank files and the payouts', async () => {
    fakeApi({ [PAYOUTS]: pending, [BATCHES]: pending });
    renderOps('/payouts', { role: 'finance' });
    expect(await screen.findByRole('status', { name: 'Loading bank files…' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading payouts…' })).toBeInTheDocument();
  });

  it('says when there is no bank file and no payout in the status', async () => {
    fakeApi({ [PAYOUTS]: [], [BATCHES]: [] });
    renderOps('/payouts', { role: 'finance' });
    expect(await screen.findByRole('heading', { name: 'No bank file yet.' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No payout in this status.' })).toBeInTheDocument();
  });

  it('offers to try again when the payouts do not load', async () => {
    fakeApi({ [PAYOUTS]: apiError(503, 'unavailable', 'The service is busy.'), [BATCHES]: [] });
    renderOps('/payouts', { role: 'finance' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The service is busy.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('creates a SEPA batch after the invariant check and lists it', async () => {
    let created = false;
    const api = fakeApi({
      [PAYOUTS]: [],
      [BATCHES]: () => (created ? [batch()] : []),
      [CREATE]: () => {
        created = true;
        return { invariant_problems: [], batch: batch() };
      },
    });
    renderOps('/payouts', { role: 'finance' });
    await findHeading('Payouts');
    await userEvent.click(screen.getByRole('button', { name: 'Create SEPA batch' }));
    expect(await screen.findByText(/The books balance\./)).toHaveTextContent(
      'Batch tipcard-sepa-20260302.xml created with 1 payouts (20.00 EUR).',
    );
    expect(api.sent(CREATE)[0]!.body).toEqual({ kind: 'sepa' });
    expect(await screen.findByRole('cell', { name: 'tipcard-sepa-20260302.xml' })).toBeInTheDocument();
  });

  it('makes no batch when the books do not balance, and says why', async () => {
    fakeApi({
      [PAYOUTS]: [],
      [BATCHES]: [],
      [CREATE]: { invariant_problems: ['Entry 42 does not balance'], batch: null },
    });
    renderOps('/payouts', { role: 'finance' });
    await findHeading('Payouts');
    await userEvent.click(screen.getByRole('button', { name: 'Create UK batch' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The invariant check failed: no batch was made.');
    expect(alert).toHaveTextContent('Entry 42 does not balance');
  });

  it('marks a bank file sent', async () => {
    const sent = `POST /ops/payout-batches/${batch().id}/sent`;
    const api = fakeApi({ [PAYOUTS]: [], [BATCHES]: [batch()], [sent]: batch({ status: 'sent' }) });
    renderOps('/payouts', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark sent' }));
    await waitFor(() => expect(api.sent(sent)).toHaveLength(1));
  });

  it('records a payout the bank returned, with the reason picked', async () => {
    const api = fakeApi({ [PAYOUTS]: [payout()], [BATCHES]: [], [OUTCOME]: { status: 'returned' } });
    renderOps('/payouts', { role: 'finance' });
    const row = await screen.findByRole('row', { name: /Anna Ozola/ });
    await userEvent.selectOptions(within(row).getByLabelText('Return reason'), 'AC01 Incorrect account number');
    await userEvent.click(within(row).getByRole('button', { name: 'Mark returned…' }));
    // Nothing is sent before the confirmation, which names the amount, the account and the reason.
    const dialog = await screen.findByRole('dialog', { name: 'Mark the payout returned' });
    expect(dialog).toHaveTextContent('AC01 Incorrect account number');
    expect(dialog).toHaveTextContent('Anna Ozola');
    expect(api.sent(OUTCOME)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: /^Mark .* returned$/ }));
    await waitFor(() => expect(api.sent(OUTCOME)).toHaveLength(1));
    expect(api.sent(OUTCOME)[0]!.body).toEqual({ outcome: 'returned', reason_code: 'AC01' });
  });

  it('records a paid payout, and shows a refused outcome', async () => {
    const api = fakeApi({
      [PAYOUTS]: [payout()],
      [BATCHES]: [],
      [OUTCOME]: apiError(409, 'payout_settled', 'This payout is settled already.'),
    });
    renderOps('/payouts', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark paid…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the payout paid' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent(OUTCOME)).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Mark paid…' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Mark the payout paid' })).getByRole('button', { name: /^Mark .* paid$/ }),
    );
    expect(await screen.findByText('This payout is settled already.')).toBeInTheDocument();
    expect(api.sent(OUTCOME)).toHaveLength(1);
    expect(api.sent(OUTCOME)[0]!.body).toEqual({ outcome: 'paid' });
  });

  it('filters payouts by status through the address', async () => {
    const api = fakeApi({
      [PAYOUTS]: (request: SentRequest) =>
        request.query.get('status') === 'returned' ? [payout({ status: 'returned', return_reason: 'AC04' })] : [],
      [BATCHES]: [],
    });
    const { router } = renderOps('/payouts', { role: 'finance' });
    await userEvent.selectOptions(await screen.findByLabelText('Status'), 'returned');
    expect(await screen.findByRole('cell', { name: 'Returned: AC04' })).toBeInTheDocument();
    expect(currentPath(router)).toBe('/payouts?status=returned');
    expect(api.sent(PAYOUTS)[0]!.query.get('status')).toBe('in_flight');
  });

  it('marks the rest of a sent file paid as a whole, after a confirmation naming the file, and says how many', async () => {
    const sent = batch({ status: 'sent' });
    const PAID = `POST /ops/payout-batches/${sent.id}/paid`;
    const api = fakeApi({ [PAYOUTS]: [], [BATCHES]: [sent], [PAID]: { marked: 2 } });
    renderOps('/payouts', { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark the rest paid…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the file paid' });
    expect(dialog).toHaveTextContent(`The bank paid ${sent.file_name}`);
    expect(api.sent(PAID)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await screen.findByText('2 payouts marked paid.')).toBeInTheDocument();
    expect(api.sent(PAID)).toHaveLength(1);
  });
});
