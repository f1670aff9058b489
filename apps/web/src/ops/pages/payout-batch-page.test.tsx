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

  describe("importing the bank's status report", () => {
    const PREVIEW = `POST /ops/payout-batches/${sentFile.id}/bank-report/preview`;
    const IMPORT = `POST /ops/payout-batches/${sentFile.id}/bank-report`;
    const second = payout({ id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b', holder: 'Jānis Bērziņš', amount_cents: 1_500 });
    const report = (change: boolean) => ({
      format: 'pain.002.001.10',
      message_id: 'BANK-PSR-0001',
      lines: [
        {
          payout_id: payout().id,
          user_id: payout().user_id,
          holder: 'Anna Ozola',
          amount_cents: 2_000,
          status: 'in_flight',
          reported: 'paid',
          reason_code: null,
          change: change ? 'paid' : null,
        },
        {
          payout_id: second.id,
          user_id: second.user_id,
          holder: 'Jānis Bērziņš',
          amount_cents: 1_500,
          status: 'in_flight',
          reported: 'returned',
          reason_code: 'AC04',
          change: change ? 'returned' : null,
        },
      ],
      paid: change ? 1 : 0,
      returned: change ? 1 : 0,
      unchanged: change ? 0 : 2,
    });
    const XML = '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"/>';
    const chooseFile = async () =>
      userEvent.upload(
        await screen.findByLabelText('Bank’s status report'),
        new File([XML], 'status.xml', { type: 'application/xml' }),
      );

    it('previews what each payout becomes, then imports the same file on confirmation', async () => {
      const api = fakeApi({ [DETAIL]: fileWith(payout(), second), [PREVIEW]: report(true), [IMPORT]: report(true) });
      renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
      await chooseFile();
      const table = await screen.findByRole('table', { name: 'What the bank’s report does to each payout' });
      const returnedRow = within(table).getByRole('row', { name: /Jānis Bērziņš/ });
      expect(returnedRow).toHaveTextContent('15.00 EUR');
      expect(returnedRow).toHaveTextContent('AC04 Closed account number');
      expect(returnedRow).toHaveTextContent('Sent to the bank → Returned');
      expect(within(table).getByRole('row', { name: /Anna Ozola/ })).toHaveTextContent('Sent to the bank → Paid');
      expect(api.sent(IMPORT)).toHaveLength(0);
      await userEvent.click(screen.getByRole('button', { name: 'Confirm: mark 1 paid, 1 returned' }));
      expect(
        await screen.findByText(/Imported BANK-PSR-0001: 1 marked paid, 1 marked returned, 0 unchanged/),
      ).toBeInTheDocument();
      expect(api.sent(PREVIEW)[0]!.body).toEqual({ file: XML });
      expect(api.sent(IMPORT)[0]!.body).toEqual({ file: XML });
      expect(screen.queryByRole('table', { name: 'What the bank’s report does to each payout' })).not.toBeInTheDocument();
    });

    it('cancels without importing, and offers nothing to confirm when the report changes nothing', async () => {
      const api = fakeApi({ [DETAIL]: fileWith(payout(), second), [PREVIEW]: report(false) });
      renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
      await chooseFile();
      expect(await screen.findByRole('button', { name: 'Nothing to change' })).toBeDisabled();
      await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('table', { name: 'What the bank’s report does to each payout' })).not.toBeInTheDocument();
      expect(api.sent(IMPORT)).toHaveLength(0);
    });

    it('says why a file is refused, with the schema’s first error', async () => {
      fakeApi({
        [DETAIL]: fileWith(payout()),
        [PREVIEW]: apiError(422, 'bank_report_invalid', 'This file does not follow its ISO 20022 schema', {
          file: ["pain.002.001.10: report.xml:3: Element 'TxSts': too long"],
        }),
      });
      renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
      await chooseFile();
      expect(await screen.findByRole('alert')).toHaveTextContent(
        "This file does not follow its ISO 20022 schema. First error: pain.002.001.10: report.xml:3: Element 'TxSts': too long",
      );
    });

    it('is offered only for a SEPA file sent to the bank', async () => {
      fakeApi({ [DETAIL]: { ...fileWith(payout()), status: 'created', sent_at: null } });
      renderOps(`/payouts/batches/${sentFile.id}`, { role: 'finance' });
      await findHeading(`Bank file ${sentFile.file_name}`);
      expect(screen.queryByLabelText('Bank’s status report')).not.toBeInTheDocument();
    });
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
