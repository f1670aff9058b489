import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invoice } from '@tipcard/shared/invoices/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CLIENT_ID, signedInRoutes } from '../../test/fixtures.ts';
import { renderPage } from '../../test/render-page.tsx';
import InvoicesPage from './invoices-page.tsx';

const INVOICE_ID = 'f41f2a3b-4c5d-4e6f-9a7b-8c9d0e1f2ad0';
const LIST = `GET /clients/${CLIENT_ID}/invoices`;
const CREATE = `POST /clients/${CLIENT_ID}/invoices`;
const CANCEL = `POST /clients/${CLIENT_ID}/invoices/${INVOICE_ID}/cancel`;
const QR = `GET /clients/${CLIENT_ID}/invoices/${INVOICE_ID}/qr_code`;

const open: Invoice = {
  id: INVOICE_ID,
  description: 'Wedding photos, 12 June',
  amount_cents: 25_000,
  currency: 'EUR',
  status: 'open',
  url: `https://tipcard.test/invoice/${INVOICE_ID}`,
  created_at: '2026-03-02T09:30:00Z',
  paid_at: null,
  canceled_at: null,
};
const paid: Invoice = {
  ...open,
  id: '052a3b4c-5d6e-4f7a-8b9c-0d1e2f3a4be0',
  description: 'Portrait session',
  amount_cents: 8_000,
  status: 'paid',
  paid_at: '2026-03-04T12:00:00Z',
};

beforeAll(() => {
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: () => 'blob:invoice-qr' });
});

const page = { path: '/invoices' };

describe('the invoices page', () => {
  it('holds places for the invoices while they load', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: pending });
    await renderPage(<InvoicesPage />, page);
    expect(await screen.findByRole('status', { name: 'Loading invoices…' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'New invoice' })).toBeInTheDocument();
  });

  it('asks for a card first, since the payer sees its name and photo', async () => {
    fakeApi({ ...signedInRoutes(), [`GET /clients/${CLIENT_ID}/cards`]: [], [LIST]: [] });
    await renderPage(<InvoicesPage />, page);
    expect(
      await screen.findByText("Invoices show your card's public name and photo to the payer. Create your card first."),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create my card' })).toHaveAttribute('href', '/account/create');
    expect(screen.queryByRole('button', { name: 'Create invoice' })).not.toBeInTheDocument();
  });

  it('explains an empty list', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: [] });
    await renderPage(<InvoicesPage />, page);
    const empty = await screen.findByTestId('invoices-empty');
    expect(within(empty).getByRole('heading')).toHaveTextContent('No invoices yet');
  });

  it('lists the invoices: an open one with its link and actions, a paid one with its date', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: [open, paid] });
    await renderPage(<InvoicesPage />, { ...page, locale: 'fr' });
    const list = await screen.findByRole('list', { name: 'Vos factures' });
    const [first, second] = within(list).getAllByTestId('invoice-row');
    expect(first).toHaveTextContent('Wedding photos, 12 June');
    expect(first).toHaveTextContent('250,00 €');
    expect(within(first!).getByTestId('invoice-link')).toHaveTextContent(open.url);
    expect(within(first!).getByRole('button', { name: 'Annuler la facture' })).toBeInTheDocument();
    expect(second).toHaveTextContent('80,00 €');
    expect(second).toHaveTextContent('Payée le');
    expect(within(second!).queryByTestId('invoice-link')).not.toBeInTheDocument();
    expect(within(second!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('creates an invoice from a typed amount and empties the form', async () => {
    let invoices: Invoice[] = [];
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: () => invoices,
      [CREATE]: () => {
        invoices = [open];
        return open;
      },
    });
    await renderPage(<InvoicesPage />, page);
    await screen.findByTestId('invoices-empty');
    await userEvent.type(screen.getByRole('textbox', { name: 'What is it for?' }), '  Wedding photos, 12 June ');
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), '250,00');
    await userEvent.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByTestId('invoice-row')).toHaveTextContent('Wedding photos, 12 June');
    expect(api.sent(CREATE)[0]!.body).toEqual({ description: 'Wedding photos, 12 June', amount_cents: 25_000 });
    expect(screen.getByRole('textbox', { name: 'What is it for?' })).toHaveValue('');
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveValue('');
  });

  it('names what is missing or out of range, and sends nothing', async () => {
    const api = fakeApi({ ...signedInRoutes(), [LIST]: [] });
    await renderPage(<InvoicesPage />, page);
    await screen.findByTestId('invoices-empty');
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), '0,50');
    await userEvent.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByText('Enter an amount from €1.00 to €5 000.00')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Amount' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), 'ten');
    await userEvent.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByText('Enter an amount from €1.00 to €5 000.00')).toBeInTheDocument();
    expect(api.sent(CREATE)).toEqual([]);
  });

  it('shows the server’s refusal on the field it names, and keeps what was typed', async () => {
    fakeApi({
      ...signedInRoutes(),
      [LIST]: [],
      [CREATE]: apiError(422, 'validation_failed', 'Validation failed', {
        amount_cents: ['This amount is above your invoice limit.'],
      }),
    });
    await renderPage(<InvoicesPage />, page);
    await screen.findByTestId('invoices-empty');
    await userEvent.type(screen.getByRole('textbox', { name: 'What is it for?' }), 'Catering');
    await userEvent.type(screen.getByRole('textbox', { name: 'Amount' }), '4999');
    await userEvent.click(screen.getByRole('button', { name: 'Create invoice' }));
    expect(await screen.findByText('This amount is above your invoice limit.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Amount' })).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'What is it for?' })).toHaveValue('Catering');
  });

  it('cancels an open invoice once the user confirms', async () => {
    let invoices: Invoice[] = [open];
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: () => invoices,
      [CANCEL]: () => {
        invoices = [{ ...open, status: 'canceled', canceled_at: '2026-03-05T08:00:00Z' }];
        return invoices[0];
      },
    });
    await renderPage(<InvoicesPage />, page);
    const row = await screen.findByTestId('invoice-row');
    await userEvent.click(within(row).getByRole('button', { name: 'Cancel invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this invoice?' });
    expect(dialog).toHaveTextContent('“Wedding photos, 12 June” can no longer be paid once canceled.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel invoice' }));
    await vi.waitFor(() => expect(screen.getByTestId('invoice-row')).toHaveAttribute('data-status', 'canceled'));
    expect(screen.getByTestId('invoice-row')).toHaveTextContent('Canceled');
    expect(api.sent(CANCEL)).toHaveLength(1);
  });

  it('keeps the invoice when the user changes their mind', async () => {
    const api = fakeApi({ ...signedInRoutes(), [LIST]: [open] });
    await renderPage(<InvoicesPage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel invoice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this invoice?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent(CANCEL)).toEqual([]);
  });

  it('shows an invoice’s QR code to download', async () => {
    const api = fakeApi({ ...signedInRoutes(), [LIST]: [open], [QR]: 'png' });
    await renderPage(<InvoicesPage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'QR code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice QR code' });
    expect(await within(dialog).findByRole('img', { name: 'QR code of the invoice “Wedding photos, 12 June”' })).toHaveAttribute(
      'src',
      'blob:invoice-qr',
    );
    expect(within(dialog).getByRole('link', { name: 'Download PNG' })).toHaveAttribute('download', `invoice-${INVOICE_ID}.png`);
    expect(api.sent(QR)[0]!.query.get('hexColor')).toBe('#132552');
  });

  it('says when the QR code could not be loaded', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: [open], [QR]: apiError(403, 'forbidden') });
    await renderPage(<InvoicesPage />, page);
    await userEvent.click(await screen.findByRole('button', { name: 'QR code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice QR code' });
    expect(await within(dialog).findByText('The QR code could not be loaded.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('link', { name: 'Download PNG' })).not.toBeInTheDocument();
  });

  it('copies an invoice’s link and says so', async () => {
    fakeApi({ ...signedInRoutes(), [LIST]: [open] });
    const user = userEvent.setup();
    await renderPage(<InvoicesPage />, page);
    await user.click(await screen.findByRole('button', { name: 'Copy link' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(open.url);
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    const api = fakeApi({
      ...signedInRoutes(),
      [LIST]: () => (failures-- > 0 ? apiError(503, 'service_unavailable') : [open]),
    });
    await renderPage(<InvoicesPage />, page);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The invoices could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('invoice-row')).toHaveTextContent('Wedding photos, 12 June');
    expect(api.sent(LIST)).toHaveLength(2);
  });
});
