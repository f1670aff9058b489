import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { PublicPayment } from '@tipcard/shared/payments/schemas';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { CARD_ID } from '../../test/fixtures.ts';
import { renderPage } from '../../test/render-page.tsx';
import CardOrderPaymentPage from './card-order-payment-page.tsx';

const PAYMENT_ID = '5c4a0f41-7e0d-4f88-8d41-3f6c0a5e2d43';
const PAYMENT = `GET /public/payments/${PAYMENT_ID}`;

function payment(status: PublicPayment['status']): PublicPayment {
  return {
    id: PAYMENT_ID,
    card_id: CARD_ID,
    status,
    amount_cents: 2_400,
    fee_cents: 0,
    total_cents: 2_400,
    cover_fee: false,
    currency: 'EUR',
    checkout_url: 'https://checkout.test/pay/1',
    created_at: '2026-03-02T09:30:00Z',
    receipt_url: null,
  };
}

const back = (outcome: 'success' | 'canceled', search = `?payment=${PAYMENT_ID}`) => ({
  path: `/card-orders/payment/${outcome}${search}`,
});

describe('the card order payment return page', () => {
  it('thanks the user once the payment went through', async () => {
    fakeApi({ [PAYMENT]: payment('succeeded') });
    await renderPage(<CardOrderPaymentPage outcome="success" />, back('success'));
    expect(await screen.findByRole('heading', { name: 'Payment received' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the card shop' })).toHaveAttribute('href', '/card-orders');
  });

  it('waits for the provider while the payment is still open', async () => {
    fakeApi({ [PAYMENT]: payment('pending') });
    await renderPage(<CardOrderPaymentPage outcome="success" />, back('success'));
    expect(await screen.findByRole('heading', { name: 'Confirming your payment…' })).toBeInTheDocument();
    expect(screen.getByText('This usually takes a few seconds.')).toBeInTheDocument();
  });

  it('waits for the answer before saying anything else', async () => {
    fakeApi({ [PAYMENT]: pending });
    await renderPage(<CardOrderPaymentPage outcome="success" />, back('success'));
    expect(await screen.findByRole('heading', { name: 'Confirming your payment…' })).toBeInTheDocument();
  });

  it('says the payment was not completed when the card was declined, even on the success return', async () => {
    fakeApi({ [PAYMENT]: payment('failed') });
    await renderPage(<CardOrderPaymentPage outcome="success" />, back('success'));
    expect(await screen.findByRole('heading', { name: 'The payment was not completed' })).toBeInTheDocument();
  });

  it('says the payment was not completed when the user came back from canceling', async () => {
    fakeApi({ [PAYMENT]: payment('pending') });
    await renderPage(<CardOrderPaymentPage outcome="canceled" />, back('canceled'));
    expect(await screen.findByRole('heading', { name: 'The payment was not completed' })).toBeInTheDocument();
  });

  it('treats an unreadable answer as not completed', async () => {
    fakeApi({ [PAYMENT]: apiError(404, 'not_found') });
    await renderPage(<CardOrderPaymentPage outcome="success" />, back('success'));
    expect(await screen.findByRole('heading', { name: 'The payment was not completed' })).toBeInTheDocument();
  });

  it('asks nothing for a link without a valid payment id', async () => {
    const api = fakeApi({});
    await renderPage(<CardOrderPaymentPage outcome="success" />, back('success', '?payment=not-an-id'));
    expect(await screen.findByRole('heading', { name: 'The payment was not completed' })).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('asks a signed-out user to log in to see the order', async () => {
    fakeApi({ [PAYMENT]: payment('succeeded') });
    await renderPage(<CardOrderPaymentPage outcome="success" />, { ...back('success'), signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Payment received' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('speaks the reader’s language', async () => {
    fakeApi({ [PAYMENT]: payment('succeeded') });
    await renderPage(<CardOrderPaymentPage outcome="success" />, { ...back('success'), locale: 'es' });
    expect(await screen.findByRole('heading', { name: 'Pago recibido' })).toBeInTheDocument();
  });
});
