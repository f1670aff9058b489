import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { batch, payout } from '../test-data.ts';
import { currentPath, findHeading, renderOps } from '../test-render.tsx';

const sentFile = batch({ status: 'sent', sent_at: '2026-03-02T15:00:00.000Z', payout_count: 2, total_cents: 3_500 });
const DETAIL = `GET /ops/payout-batches/${sentFile.id}`;
const returned = payout({
  id: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
  holder: 'Jānis Bērziņš',
  amount_cents: 1_500,
  status: 'returned',
  return_reason: 'AC04',
});
const fileWith = (...payouts: ReturnType<typeof payout>[]) => ({ ...sentFile, payouts });

describe("a bank file's page", () => {
  it('says it is loading, then what the file holds and where its payouts stand', async () => {
    fakeApi({ [DETAIL]: pending });
    renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
    expect(await screen.findByRole('status', { name: 'Loading the bank file…' })).toBeInTheDocument();
  });

  it('lists its payouts with their states, and the bank answer on a row still sent', async () => {
    fakeApi({ [DETAIL]: fileWith(payout(), returned) });
    renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
    await findHeading(`Bank file ${sentFile.file_name}`);
    expect(screen.getByText('Sent to the bank: 1 · Returned: 1')).toBeInTheDocument();
    expect(screen.getByText('35.00 EUR')).toBeInTheDocument();
    const sentRow = screen.getByRole('row', { name: /Anna Ozola/ });
    expect(within(sentRow).getByRole('button', { name: 'Mark paid…' })).toBeInTheDocument();
    const returnedRow = screen.getByRole('row', { name: /Jānis Bērziņš/ });
    expect(within(returnedRow).getByRole('cell', { name: 'Returned: AC04' })).toBeInTheDocument();
    expect(within(returnedRow).queryByRole('button')).not.toBeInTheDocument();
  });

  it('marks one payout of the file paid after its confirmation', async () => {
    const OUTCOME = `POST /ops/payouts/${payout().id}/outcome`;
    const api = fakeApi({ [DETAIL]: fileWith(payout(), returned), [OUTCOME]: { status: 'paid' } });
    renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark paid…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the payout paid' });
    expect(dialog).toHaveTextContent('Anna Ozola');
    await userEvent.click(within(dialog).getByRole('button', { name: /^Mark .* paid$/ }));
    await waitFor(() => expect(api.sent(OUTCOME)).toHaveLength(1));
    expect(api.sent(OUTCOME)[0]!.body).toEqual({ outcome: 'paid' });
  });

  it('marks the rest of the file paid from its page', async () => {
    const PAID = `POST /ops/payout-batches/${sentFile.id}/paid`;
    const api = fakeApi({ [DETAIL]: fileWith(payout()), [PAID]: { marked: 1 } });
    renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
    await userEvent.click(await screen.findByRole('button', { name: 'Mark the rest paid…' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Mark the file paid' })).getByRole('button', { name: 'Mark paid' }),
    );
    expect(await screen.findByText('1 payout marked paid.')).toBeInTheDocument();
    expect(api.sent(PAID)).toHaveLength(1);
  });

  it('says when the file does not exist', async () => {
    fakeApi({ [DETAIL]: apiError(404, 'not_found', 'Not found') });
    renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
  });

  it('is opened from the payouts page, by the file name and by a payout’s row', async () => {
    fakeApi({ 'GET /ops/payouts': [payout()], 'GET /ops/payout-batches': [sentFile], [DETAIL]: fileWith(payout()) });
    const { router } = renderOps('/payouts', { role: 'finance' });
    const payoutRow = await screen.findByRole('row', { name: /Anna Ozola/ });
    expect(within(payoutRow).getByRole('link', { name: 'Open file' })).toHaveAttribute('href', `/payouts/batches/${sentFile.id}`);
    await userEvent.click(screen.getByRole('link', { name: sentFile.file_name }));
    await findHeading(`Bank file ${sentFile.file_name}`);
    expect(currentPath(router)).toBe(`/payouts/batches/${sentFile.id}`);
  });
});
