import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PublicInvoice } from '@tipcard/shared/invoices/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { renderGuestPage } from '../../test/render-guest-page.tsx';
import { CHECKOUT_URL, GUEST_PAYMENT_ID, publicPayment } from '../../components/guest/test-data.ts';
import { InvoicePayerPage } from './invoice-payer-page.tsx';

const INVOICE_ID = '7c3d5e6f-8a9b-4c0d-9e1f-2a3b4c5d6e7f';
const INVOICE = `GET /public/invoices/${INVOICE_ID}`;
const PAY = `POST /public/invoices/${INVOICE_ID}/payments`;
const PAYMENT = `GET /public/payments/${GUEST_PAYMENT_ID}`;
const NO_HUMAN_CHECK = { 'GET /site': { turnstile_site_key: null } };

function invoice(overrides: Partial<PublicInvoice> = {}): PublicInvoice {
  return {
    id: INVOICE_ID,
    description: 'Catering for 12 guests, 14 November',
    amount_cents: 24_000,
    currency: 'EUR',
    status: 'open',
    recipient: { public_name: 'Anna', title: 'Bar Riga', image_url: null },
    ...overrides,
  };
}

const acceptTerms = () => userEvent.click(screen.getByRole('checkbox', { name: /I accept the terms of use/ }));

async function openInvoice(routes: Record<string, unknown> = {}) {
  const api = fakeApi({ ...NO_HUMAN_CHECK, [INVOICE]: invoice(), ...routes });
  const page = renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome={null} />, { path: `/invoice/${INVOICE_ID}` });
  await screen.findByRole('button', { name: 'Pay €240.00' });
  return { api, ...page };
}

describe('the invoice payer page', () => {
  it('says it is loading the invoice', async () => {
    fakeApi({ [INVOICE]: pending });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome={null} />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading the invoice…');
  });

  it('shows who asks, what for and how much', async () => {
    await openInvoice();
    expect(screen.getByRole('heading', { name: 'Anna' })).toBeInTheDocument();
    expect(screen.getByTestId('invoice-description')).toHaveTextContent('Catering for 12 guests, 14 November');
    expect(screen.getByTestId('invoice-amount')).toHaveTextContent('€240.00');
    expect(document.title).toBe('Invoice from Anna — Tipcard');
  });

  it('says the link is no longer active for an invoice that does not exist', async () => {
    fakeApi({ [INVOICE]: apiError(404, 'not_found') });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome={null} />);
    const unknown = await screen.findByTestId('invoice-unknown');
    expect(unknown).toHaveTextContent('Please ask the sender for a new link.');
  });

  it('offers to try again after a failed load', async () => {
    let failures = 1;
    fakeApi({ ...NO_HUMAN_CHECK, [INVOICE]: () => (failures-- > 0 ? apiError(503, 'unavailable') : invoice()) });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome={null} />);
    expect(await screen.findByText('No connection. Check your internet and try again.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Pay €240.00' })).toBeInTheDocument();
  });

  it.each([
    ['paid', 'invoice-paid', 'This invoice has been paid.'],
    ['canceled', 'invoice-canceled', 'This invoice was canceled and cannot be paid.'],
  ] as const)('offers no payment for a %s invoice', async (status, testId, text) => {
    fakeApi({ [INVOICE]: invoice({ status }) });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome={null} />);
    expect(await screen.findByTestId(testId)).toHaveTextContent(text);
    expect(screen.queryByRole('button', { name: /Pay/ })).not.toBeInTheDocument();
  });

  it('asks for the terms, then opens the checkout', async () => {
    const { api, left } = await openInvoice({ [PAY]: publicPayment({ amount_cents: 24_000 }) });
    await userEvent.click(screen.getByRole('button', { name: 'Pay €240.00' }));
    expect(await screen.findByText('Please accept the terms of use to continue.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /I accept the terms of use/ })).toHaveFocus();
    expect(api.sent(PAY)).toHaveLength(0);

    await acceptTerms();
    expect(screen.queryByText('Please accept the terms of use to continue.')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €240.00' }));
    await waitFor(() => expect(left).toEqual([CHECKOUT_URL]));
    expect(api.sent(PAY)[0]!.body).toEqual({ terms_accepted: true });
    expect(api.sent(PAY)[0]!.headers.get('Idempotency-Key')).toBeTruthy();
  });

  it.each([
    ['too many requests', apiError(429, 'too_many_requests'), 'Too many attempts. Please wait a moment and try again.'],
    ['a failed anti-bot check', apiError(403, 'bot_check_failed'), 'Please confirm that you are not a robot and try again'],
    ['an unexpected refusal', apiError(500, 'internal'), 'The payment could not be started. Please try again.'],
  ])('says what went wrong after %s', async (_case, answer, text) => {
    const { left } = await openInvoice({ [PAY]: answer });
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €240.00' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(left).toEqual([]);
  });

  it('shows the invoice as it is now when it was paid meanwhile', async () => {
    let answers = [invoice(), invoice({ status: 'paid' })];
    await openInvoice({ [INVOICE]: () => answers.shift(), [PAY]: apiError(409, 'invoice_not_open') });
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €240.00' }));
    expect(await screen.findByTestId('invoice-paid')).toBeInTheDocument();
    answers = [];
  });

  it('rewords the terms error when the payer switches the language', async () => {
    await openInvoice();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €240.00' }));
    await screen.findByText('Please accept the terms of use to continue.');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'fr');
    expect(await screen.findByText('Veuillez accepter les conditions d’utilisation pour continuer.')).toBeInTheDocument();
  });

  it('offers to pay again after a canceled checkout', async () => {
    fakeApi({ [INVOICE]: invoice(), ...NO_HUMAN_CHECK });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome="canceled" />);
    expect(await screen.findByTestId('invoice-payment-canceled')).toHaveTextContent('Payment canceled');
    // The invoice and its form again, one tap from another try, at the invoice's own address.
    expect(screen.getByRole('button', { name: 'Pay €240.00' })).toBeInTheDocument();
    expect(window.location.pathname).toBe(`/invoice/${INVOICE_ID}`);
  });
});

describe('the invoice return page', () => {
  const returnPath = `/invoice/${INVOICE_ID}/success?payment=${GUEST_PAYMENT_ID}`;

  it('waits for the provider, then thanks the payer and links the receipt', async () => {
    const receiptUrl = 'https://tipcard.test/receipts/0f8fad5bd9cb469fa16570867728950e0123456789abcdef0123456789abcdef';
    let answers = [publicPayment(), publicPayment({ status: 'succeeded', total_cents: 24_000, receipt_url: receiptUrl })];
    fakeApi({ [INVOICE]: invoice(), [PAYMENT]: () => answers.shift() ?? publicPayment({ status: 'succeeded' }) });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome="success" />, { path: returnPath });
    expect(await screen.findByTestId('invoice-checking')).toHaveTextContent('Confirming your payment…');
    const success = await screen.findByTestId('invoice-success', {}, { timeout: 3_000 });
    expect(success).toHaveTextContent('Your payment of €240.00 to Anna has been received.');
    expect(screen.getByRole('link', { name: 'View your receipt (PDF too)' })).toHaveAttribute('href', receiptUrl);
    answers = [];
  });

  it('says a payment that came second is being refunded', async () => {
    fakeApi({ [INVOICE]: invoice({ status: 'paid' }), [PAYMENT]: publicPayment({ status: 'refunded' }) });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome="success" />, { path: returnPath });
    expect(await screen.findByTestId('invoice-refunded')).toHaveTextContent('Your payment is being refunded in full.');
  });

  it('offers another try after a declined payment of an open invoice', async () => {
    fakeApi({ [INVOICE]: invoice(), [PAYMENT]: publicPayment({ status: 'failed' }), ...NO_HUMAN_CHECK });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome="success" />, { path: returnPath });
    expect(await screen.findByTestId('invoice-failed')).toHaveTextContent('Oops... Something went wrong');
    // Not a bare "Oops" on a success address: the invoice, its form, and the invoice's own address.
    expect(screen.getByRole('heading', { name: /Anna/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay €240.00' })).toBeInTheDocument();
    expect(window.location.pathname).toBe(`/invoice/${INVOICE_ID}`);
  });

  it('keeps the language prefix of the address after a declined payment', async () => {
    fakeApi({ [INVOICE]: invoice(), [PAYMENT]: publicPayment({ status: 'failed' }), ...NO_HUMAN_CHECK });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome="success" />, { path: `/lv${returnPath}` });
    await screen.findByTestId('invoice-failed');
    expect(window.location.pathname).toBe(`/lv/invoice/${INVOICE_ID}`);
  });

  it('says the invoice was paid meanwhile when a declined payment comes back to a closed invoice', async () => {
    fakeApi({ [INVOICE]: invoice({ status: 'paid' }), [PAYMENT]: publicPayment({ status: 'failed' }) });
    renderGuestPage(<InvoicePayerPage invoiceId={INVOICE_ID} outcome="success" />, { path: returnPath });
    expect(await screen.findByTestId('invoice-paid')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).toBeNull();
  });
});
