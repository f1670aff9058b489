import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, fakeApi, pending } from '../../test/fake-api.ts';
import { renderGuestPage } from '../../test/render-guest-page.tsx';
import { TipApp, type TipShellData } from './tip-app.tsx';
import { CHECKOUT_URL, GUEST_CARD_ID, GUEST_PAYMENT_ID, publicCard, publicPayment } from '../../components/guest/test-data.ts';

const CARD = `GET /public/cards/${GUEST_CARD_ID}`;
const PAY = `POST /public/cards/${GUEST_CARD_ID}/payments`;
const DONATE = `POST /public/cards/${GUEST_CARD_ID}/donations`;
const PAYMENT = `GET /public/payments/${GUEST_PAYMENT_ID}`;
const NO_HUMAN_CHECK = { 'GET /site': { turnstile_site_key: null } };
const FORM_PATH = `/payment/${GUEST_CARD_ID}`;

/** The tip form of Anna's card, fetched as under `vite dev` (the server inlines nothing). */
async function openForm(routes: Record<string, unknown> = {}, locale: 'en' | 'lv' = 'en') {
  const api = fakeApi({ ...NO_HUMAN_CHECK, [CARD]: publicCard(), ...routes });
  const page = renderGuestPage(<TipApp />, { path: FORM_PATH, locale });
  await screen.findByRole('heading', { name: 'Anna' });
  return { api, ...page };
}

const acceptTerms = () => userEvent.click(screen.getByRole('checkbox', { name: /I accept the terms of use/ }));

describe('the tip page', () => {
  it('shows a spinner while the card is on its way', async () => {
    fakeApi({ ...NO_HUMAN_CHECK, [CARD]: pending });
    renderGuestPage(<TipApp />, { path: FORM_PATH });
    expect(await screen.findByRole('status')).toHaveTextContent('Confirming your payment…');
    expect(screen.queryByRole('button', { name: /Pay/ })).not.toBeInTheDocument();
  });

  it('says the link is no longer active for a card that does not exist', async () => {
    fakeApi({ ...NO_HUMAN_CHECK, [CARD]: apiError(404, 'not_found') });
    renderGuestPage(<TipApp />, { path: FORM_PATH });
    const unknown = await screen.findByTestId('payment-unknown');
    expect(within(unknown).getByRole('heading')).toHaveTextContent('This link is no longer active or has been deleted...');
    expect(within(unknown).getByRole('link', { name: 'Go to Tipcard' })).toHaveAttribute('href', '/');
  });

  it('says so for a path that names no card, without asking for one', async () => {
    fakeApi({});
    renderGuestPage(<TipApp />, { path: `/payment/${GUEST_CARD_ID}/elsewhere` });
    expect(await screen.findByTestId('payment-unknown')).toBeInTheDocument();
  });

  it('offers to try again when the card could not be loaded, and shows the form once it comes', async () => {
    let failures = 1;
    const api = fakeApi({
      ...NO_HUMAN_CHECK,
      [CARD]: () => (failures-- > 0 ? apiError(503, 'unavailable') : publicCard()),
    });
    renderGuestPage(<TipApp />, { path: FORM_PATH });
    expect(await screen.findByRole('heading', { name: 'Oops... Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText('No connection. Check your internet and try again.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Pay €5.00' })).toBeInTheDocument();
    expect(api.sent(CARD)).toHaveLength(2);
  });

  it('treats an answer without the fields the page shows as a failed load, not a crash', async () => {
    const { preset_amounts_cents: _presets, ...withoutPresets } = publicCard();
    fakeApi({ ...NO_HUMAN_CHECK, [CARD]: withoutPresets });
    renderGuestPage(<TipApp />, { path: FORM_PATH });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it("names a venue card's venue and says the tip is divided between its teams", async () => {
    const venue = { id: GUEST_CARD_ID, title: 'Café Rīga', workplace_name: 'Café Rīga', member_count: 5, members: [] };
    fakeApi({ ...NO_HUMAN_CHECK, [CARD]: { ...publicCard(), venue } });
    renderGuestPage(<TipApp />, { path: FORM_PATH });
    expect(await screen.findByRole('heading', { name: 'Café Rīga' })).toBeInTheDocument();
    expect(screen.getByText('Leave a tip for everyone who works here')).toBeInTheDocument();
    expect(screen.getByText(/divided between the venue’s teams by their set percentages/)).toBeInTheDocument();
  });

  it('sends the tip with an idempotency key and leaves for the checkout', async () => {
    const { api, left } = await openForm({ [PAY]: publicPayment() });
    await userEvent.click(screen.getByRole('radio', { name: '€10' }));
    await userEvent.click(screen.getByRole('radio', { name: '4 out of 5' }));
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €10.00' }));

    await waitFor(() => expect(left).toEqual([CHECKOUT_URL]));
    const [sent] = api.sent(PAY);
    expect(sent!.body).toEqual({ amount_cents: 1000, cover_fee: false, rating: 4, terms_accepted: true });
    expect(sent!.headers.get('Idempotency-Key')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Opening the secure checkout…' })).toBeInTheDocument();
  });

  it('asks for the terms before sending anything', async () => {
    const { api } = await openForm();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    expect(await screen.findByText('Please accept the terms of use to continue.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /I accept the terms of use/ })).toHaveFocus();
    expect(api.sent(PAY)).toHaveLength(0);
  });

  it('refuses an amount out of range before sending it', async () => {
    const { api } = await openForm();
    await userEvent.type(screen.getByRole('textbox', { name: 'Other amount' }), '0.5');
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: /^(Pay €|Choose an amount)/ }));
    expect(await screen.findByRole('textbox', { name: 'Other amount' })).toHaveAccessibleDescription(
      'Enter an amount from €1.00 to €500.00',
    );
    expect(api.sent(PAY)).toHaveLength(0);
  });

  it.each([
    ['no answer', () => Promise.reject(new TypeError('Failed to fetch')), 'No connection. Check your internet and try again.'],
    ['too many requests', apiError(429, 'too_many_requests'), 'Too many attempts. Please wait a moment and try again.'],
    ['any other 429', apiError(429, 'too_many_attempts'), 'Too many attempts. Please wait a moment and try again.'],
    ['a failed anti-bot check', apiError(403, 'bot_check_failed'), 'Please confirm that you are not a robot and try again'],
    [
      'a key reused with other details',
      apiError(422, 'idempotency_key_reused'),
      'This payment was already started with other details. Please try again.',
    ],
    ['an unexpected refusal', apiError(500, 'internal'), 'Oops... Something went wrong'],
  ])('says what went wrong after %s, and lets the guest pay again', async (_case, answer, text) => {
    const { api, left } = await openForm({ [PAY]: answer });
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    expect(await screen.findByTestId('form-notice')).toHaveTextContent(text);
    expect(left).toEqual([]);
    expect(screen.getByRole('button', { name: 'Pay €5.00' })).toBeEnabled();
    expect(api.sent(PAY)).toHaveLength(1);
  });

  it('asks for a fresh key after the server refused a reused one', async () => {
    let answers = [apiError(422, 'idempotency_key_reused'), publicPayment()];
    const { api, left } = await openForm({ [PAY]: () => answers.shift() });
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    await screen.findByTestId('form-notice');
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    await waitFor(() => expect(left).toEqual([CHECKOUT_URL]));
    const [first, second] = api.sent(PAY).map((request) => request.headers.get('Idempotency-Key'));
    expect(second).not.toBe(first);
    answers = [];
  });

  it('shows the no-longer-active page when the card disappeared before the payment', async () => {
    await openForm({ [PAY]: apiError(404, 'not_found') });
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    expect(await screen.findByTestId('payment-unknown')).toBeInTheDocument();
  });

  it('switches the language in place, keeping the amount chosen', async () => {
    await openForm();
    await userEvent.click(screen.getByRole('radio', { name: '€20' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'lv');
    expect(await screen.findByRole('button', { name: 'Maksāt 20,00 €' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('lv');
  });

  it('renders from the data the server inlined, asking for nothing', async () => {
    const shell: TipShellData = { card: publicCard({ public_name: 'Kārlis' }), turnstile_site_key: null, locale: 'en' };
    const api = fakeApi({});
    renderGuestPage(<TipApp />, { path: FORM_PATH, shell });
    expect(await screen.findByRole('heading', { name: 'Kārlis' })).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('shows the anti-bot check when the operator configured one, and asks for it before paying', async () => {
    const { api } = await openForm({ 'GET /site': { turnstile_site_key: 'site-key' } });
    expect(await screen.findByRole('group', { name: /robot|check/i })).toBeInTheDocument();
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    expect(await screen.findByTestId('form-notice')).toHaveTextContent('Please confirm that you are not a robot');
    expect(api.sent(PAY)).toHaveLength(0);
  });
});

describe('the donation form', () => {
  const donationCard = publicCard({ activity_type: 'DONATION', public_name: 'Dzīvnieku draugs' });

  it('asks for the donor’s details, then sends the donation in the page’s language', async () => {
    const api = fakeApi({ ...NO_HUMAN_CHECK, [CARD]: donationCard, [DONATE]: publicPayment() });
    const { left } = renderGuestPage(<TipApp />, { path: FORM_PATH });
    await screen.findByRole('heading', { name: 'Dzīvnieku draugs' });
    await acceptTerms();
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));
    expect(await screen.findByRole('textbox', { name: 'Name or company' })).toHaveFocus();
    expect(api.sent(DONATE)).toHaveLength(0);

    await userEvent.type(screen.getByRole('textbox', { name: 'Name or company' }), 'Jānis Bērziņš');
    await userEvent.type(screen.getByRole('textbox', { name: 'E-mail' }), 'janis@example.lv');
    await userEvent.type(screen.getByRole('textbox', { name: 'Personal code or company number' }), '010190-12345');
    await userEvent.click(screen.getByRole('radio', { name: 'Monthly' }));
    await userEvent.click(screen.getByRole('button', { name: 'Pay €5.00' }));

    await waitFor(() => expect(left).toEqual([CHECKOUT_URL]));
    expect(api.sent(DONATE)[0]!.body).toEqual({
      donor_name: 'Jānis Bērziņš',
      email: 'janis@example.lv',
      donor_code: '010190-12345',
      monthly: true,
      amount_cents: 500,
      cover_fee: false,
      locale: 'en',
      terms_accepted: true,
    });
  });
});

describe('the success page', () => {
  const successPath = `/payment/${GUEST_CARD_ID}/success?payment=${GUEST_PAYMENT_ID}`;

  it('thanks the guest for a paid tip with its amount and reference', async () => {
    fakeApi({ [CARD]: publicCard(), [PAYMENT]: publicPayment({ status: 'succeeded', amount_cents: 1500 }) });
    renderGuestPage(<TipApp />, { path: successPath });
    const success = await screen.findByTestId('payment-success');
    expect(within(success).getByRole('heading')).toHaveTextContent('Thank you!');
    expect(screen.getByTestId('success-amount')).toHaveTextContent('Your tip of €15.00 to Anna has been paid.');
    expect(screen.getByTestId('payment-reference')).toHaveTextContent('Reference 5A1C2E3F');
    expect(screen.getByRole('textbox', { name: 'E-mail me a receipt' })).toBeInTheDocument();
  });

  it('says what was charged when the guest covered the fee, beside what the staff member receives', async () => {
    const success = { id: GUEST_PAYMENT_ID, reference: '5A1C2E3F', amount_cents: 1000, total_cents: 1050, next_charge_at: null };
    fakeApi({});
    renderGuestPage(<TipApp />, { path: successPath, shell: { card: publicCard(), success, receipt: null } });
    expect(await screen.findByTestId('success-amount')).toHaveTextContent('Your tip of €10.00 to Anna has been paid.');
    expect(screen.getByTestId('success-paid')).toHaveTextContent('You paid €10.50, the service fee included.');
  });

  it('tells a monthly donor that the gift has started, when the next one is charged, and how to manage it', async () => {
    const charity = publicCard({ activity_type: 'DONATION', public_name: 'Ķepu draugi' });
    const success = {
      id: GUEST_PAYMENT_ID,
      reference: '5A1C2E3F',
      amount_cents: 1000,
      total_cents: 1000,
      next_charge_at: '2026-12-26T10:00:00.000Z',
    };
    fakeApi({});
    renderGuestPage(<TipApp />, { path: successPath, shell: { card: charity, success, receipt: null } });
    expect(await screen.findByTestId('success-amount')).toHaveTextContent(
      'Your monthly donation of €10.00 to Ķepu draugi has started.',
    );
    expect(screen.getByTestId('success-next-charge')).toHaveTextContent(
      /The next one is charged on December 26, 2026\. .*pause, change or cancel/,
    );
    expect(screen.queryByTestId('success-paid')).toBeNull();
  });

  it('says nothing was found for a payment that is not this card’s paid one', async () => {
    fakeApi({ [CARD]: publicCard(), [PAYMENT]: publicPayment({ status: 'succeeded', card_id: 'another-card' }) });
    renderGuestPage(<TipApp />, { path: successPath });
    expect(await screen.findByTestId('payment-not-found')).toHaveTextContent('We could not find this payment');
  });

  it('leads back to a fresh form for another tip', async () => {
    fakeApi({ ...NO_HUMAN_CHECK, [CARD]: publicCard(), [PAYMENT]: publicPayment({ status: 'succeeded' }) });
    renderGuestPage(<TipApp />, { path: successPath });
    await userEvent.click(await screen.findByRole('button', { name: 'Leave another tip' }));
    expect(await screen.findByRole('button', { name: 'Pay €5.00' })).toBeInTheDocument();
    expect(window.location.pathname).toBe(FORM_PATH);
  });

  it('says the receipt went out, or why not, as the server answered the plain form', async () => {
    const success = { id: GUEST_PAYMENT_ID, reference: '5A1C2E3F', amount_cents: 500, total_cents: 500, next_charge_at: null };
    fakeApi({});
    renderGuestPage(<TipApp />, { path: successPath, shell: { card: publicCard(), success, receipt: 'rate_limited' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a moment and try again.');
  });
});

describe('the return page', () => {
  it('forwards a paid payment to its success page', async () => {
    fakeApi({ [PAYMENT]: publicPayment({ status: 'succeeded' }) });
    const { left } = renderGuestPage(<TipApp />, { path: `/payment/walletto-result?payment=${GUEST_PAYMENT_ID}` });
    expect(screen.getByTestId('payment-checking')).toHaveTextContent('Confirming your payment…');
    await waitFor(() => expect(left).toEqual([`/payment/${GUEST_CARD_ID}/success?payment=${GUEST_PAYMENT_ID}`]));
  });

  it('sends a declined payment back to the form', async () => {
    fakeApi({ [PAYMENT]: publicPayment({ status: 'failed' }) });
    const { left } = renderGuestPage(<TipApp />, { path: `/payment/walletto-result?payment=${GUEST_PAYMENT_ID}` });
    await waitFor(() => expect(left).toEqual([`/payment/${GUEST_CARD_ID}/failed?payment=${GUEST_PAYMENT_ID}`]));
  });

  it('claims nothing about money when the link names no payment', async () => {
    fakeApi({});
    renderGuestPage(<TipApp />, { path: '/payment/walletto-result' });
    expect(await screen.findByTestId('payment-not-found')).toHaveTextContent('We could not find this payment');
    expect(screen.queryByText(/no money was taken/)).toBeNull();
  });
});
