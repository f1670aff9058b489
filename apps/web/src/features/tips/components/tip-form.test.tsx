import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { GuestFormStart } from '@tipcard/shared/payments/guest-form';
import { publicCard } from '../../../components/guest/test-data.ts';
import { setGuestLocale } from '../../../lib/guest-i18n.ts';
import { keepTypedText } from '../typed-before-hydration.ts';
import { TipForm } from './tip-form.tsx';

const card = publicCard();

const noop = () => undefined;

describe('TipForm', () => {
  it("opens with 5 EUR chosen, as a plain form that posts to the card's page with its key", () => {
    const { container } = render(<TipForm card={card} siteKey={null} onCardGone={noop} formKey="key-12345678" />);
    expect(screen.getByRole('radio', { name: '€5' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Pay €5.00' })).toBeInTheDocument();
    const form = container.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(`/payment/${card.id}`);
    expect(container.querySelector<HTMLInputElement>('input[name="idempotency_key"]')!.value).toBe('key-12345678');
    expect(screen.getByRole('button', { name: 'Pay with Google Pay' })).toHaveAttribute('name', 'wallet');
  });

  it("reads the card's own amount range to the guest in the money format of the guest's language", () => {
    const ranged = publicCard({ min_amount_cents: 200, max_amount_cents: 10_000 });
    const { unmount } = render(<TipForm card={ranged} siteKey={null} onCardGone={noop} />);
    expect(screen.getByRole('textbox', { name: 'Other amount' })).toHaveAccessibleDescription('From €2.00 to €100.00');
    unmount();
    setGuestLocale('fr', false);
    try {
      render(<TipForm card={ranged} siteKey={null} onCardGone={noop} />);
      expect(screen.getByRole('textbox', { name: 'Autre montant' })).toHaveAccessibleDescription(
        // The typography filter keeps each amount with its currency (no-break space).
        'De 2,00\u00A0€ à 100,00\u00A0€',
      );
    } finally {
      setGuestLocale('en', false);
    }
  });

  it('offers Apple Pay only where the browser has it, Google Pay everywhere, on tips and donations alike', () => {
    const { unmount } = render(<TipForm card={card} siteKey={null} onCardGone={noop} />);
    expect(screen.queryByRole('button', { name: 'Pay with Apple Pay' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay with Google Pay' })).toBeInTheDocument();
    unmount();
    Object.assign(window, { ApplePaySession: class {} });
    try {
      render(<TipForm card={publicCard({ activity_type: 'DONATION' })} siteKey={null} onCardGone={noop} />);
      expect(screen.getByRole('button', { name: 'Pay with Apple Pay' })).toBeInTheDocument();
      // A donation's fee is taken from the donation, not from a "tip".
      expect(screen.getByTestId('fee-summary')).toHaveTextContent('deducted from the donation');
      expect(screen.getByRole('button', { name: 'Pay with Google Pay' })).toBeInTheDocument();
    } finally {
      delete (window as { ApplePaySession?: unknown }).ApplePaySession;
    }
  });

  it("starts from what the guest entered in a declined payment, with the spec's message", () => {
    const start: GuestFormStart = {
      preset_cents: null,
      custom: '12.34',
      cover_fee: true,
      rating: 4,
      message: 'Lovely service',
      terms: true,
      notice: 'failed',
      payment_id: 'p1',
      donor: null,
      errors: {},
    };
    render(<TipForm card={card} siteKey={null} onCardGone={noop} start={start} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Oops... Something went wrong');
    expect(screen.getByRole('textbox', { name: 'Other amount' })).toHaveValue('12.34');
    expect(screen.getByRole('switch', { name: 'Cover the transaction cost' })).toBeChecked();
    expect(screen.getByRole('radio', { name: '4 out of 5' })).toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Lovely service');
    expect(screen.getByRole('checkbox', { name: /I accept the terms of use/ })).toBeChecked();
    // 12.34 EUR and the fee covered: 12.34 + 0.62.
    expect(screen.getByRole('button', { name: 'Pay €12.96' })).toBeInTheDocument();
  });

  it('after a payment not confirmed in time, offers to check it first and to pay again only as a deliberate step', async () => {
    const start: GuestFormStart = {
      preset_cents: 500,
      custom: '',
      cover_fee: false,
      rating: null,
      message: '',
      terms: true,
      notice: 'timeout',
      payment_id: 'p-unconfirmed',
      donor: null,
      errors: {},
    };
    render(<TipForm card={card} siteKey={null} onCardGone={noop} start={start} />);
    expect(screen.getByRole('link', { name: 'Check again' })).toHaveAttribute(
      'href',
      '/en/payment/walletto-result?payment=p-unconfirmed',
    );
    const pay = screen.getByRole('button', { name: 'Pay €5.00', hidden: true });
    expect(pay).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Pay with Google Pay', hidden: true })).not.toBeVisible();
    await userEvent.click(screen.getByText('Pay again anyway'));
    expect(pay).toBeVisible();
    expect(screen.getByText(/paying again would charge you twice/)).toBeVisible();
  });

  it('brings a declined monthly donation back with the donor, the e-mail, the code and monthly still chosen', () => {
    const charity = publicCard({ activity_type: 'DONATION', public_name: 'Ķepu draugi' });
    const start: GuestFormStart = {
      preset_cents: 1000,
      custom: '',
      cover_fee: false,
      rating: null,
      message: '',
      terms: true,
      notice: 'failed',
      payment_id: 'p1',
      donor: { name: 'SIA Labie Darbi', email: 'gramatvediba@labie.lv', code: '40003123456', monthly: true },
      errors: {},
    };
    render(<TipForm card={charity} siteKey={null} onCardGone={noop} start={start} />);
    expect(screen.getByRole('textbox', { name: 'Name or company' })).toHaveValue('SIA Labie Darbi');
    expect(screen.getByRole('textbox', { name: /^E-mail/ })).toHaveValue('gramatvediba@labie.lv');
    expect(screen.getByRole('textbox', { name: /^Personal code or company number/ })).toHaveValue('40003123456');
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
  });

  it("marks the donor's fields the server refused, with what is wrong", () => {
    const charity = publicCard({ activity_type: 'DONATION' });
    const start: GuestFormStart = {
      preset_cents: 1000,
      custom: '',
      cover_fee: false,
      rating: null,
      message: '',
      terms: true,
      notice: null,
      payment_id: null,
      donor: { name: '', email: 'ana@', code: 'X1234567L?', monthly: false },
      errors: { donor_name: true, email: true, donor_code: true },
    };
    render(<TipForm card={charity} siteKey={null} onCardGone={noop} start={start} />);
    expect(screen.getByRole('textbox', { name: 'Name or company' })).toHaveAccessibleDescription('This field is required');
    expect(screen.getByRole('textbox', { name: /^E-mail/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: /^Personal code or company number/ })).toHaveAccessibleDescription(
      /Enter valid data/,
    );
  });

  it("keeps what the guest chose on the server's markup before the script hydrated it", async () => {
    const form = <TipForm card={card} siteKey={null} onCardGone={noop} formKey="key-12345678" />;
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(form);
    // Taps on the plain form while the script is still on its way.
    container.querySelector<HTMLInputElement>('input[name="amount"][value="1000"]')!.click();
    container.querySelector<HTMLInputElement>('input[name="terms"]')!.click();
    container.querySelector<HTMLInputElement>('input[name="rating"][value="4"]')!.click();
    container.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!.value = 'Lovely service';

    const root = await act(() => hydrateRoot(container, form));
    expect(screen.getByRole('button', { name: 'Pay €10.00' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '€10' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /I accept the terms of use/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: '4 out of 5' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Clear rating' })).toBeInTheDocument();
    expect(screen.getByText('14/255')).toBeInTheDocument();
    act(() => root.unmount());
    container.remove();
  });

  it('keeps an edit of the pre-filled message made before the script hydrated the form', async () => {
    const start: GuestFormStart = {
      preset_cents: 500,
      custom: '',
      cover_fee: false,
      rating: null,
      message: 'Lovely service',
      terms: true,
      notice: 'failed',
      payment_id: 'p1',
      donor: null,
      errors: {},
    };
    const form = <TipForm card={card} siteKey={null} onCardGone={noop} start={start} formKey="key-12345678" />;
    const container = document.body.appendChild(document.createElement('div'));
    container.innerHTML = renderToString(form);
    keepTypedText(container);
    const message = container.querySelector<HTMLTextAreaElement>('textarea[name="message"]')!;
    message.value = 'Lovely service, thank you';
    message.dispatchEvent(new Event('input', { bubbles: true }));

    const root = await act(() => hydrateRoot(container, form));
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Lovely service, thank you');
    expect(screen.getByText('25/255')).toBeInTheDocument();
    act(() => root.unmount());
    container.remove();
  });

  it('shows what the server refused in the plain form in its markup, and drops each error once answered', async () => {
    const start: GuestFormStart = {
      preset_cents: null,
      custom: '900',
      cover_fee: false,
      rating: null,
      message: '',
      terms: false,
      notice: null,
      payment_id: null,
      donor: null,
      errors: { amount: true, terms: true },
    };
    const markup = renderToString(<TipForm card={card} siteKey={null} onCardGone={noop} start={start} />);
    expect(markup).toContain('Enter an amount from €1.00 to €500.00');
    expect(markup).toContain('Please accept the terms of use to continue.');

    render(<TipForm card={card} siteKey={null} onCardGone={noop} start={start} />);
    await userEvent.click(screen.getByRole('checkbox', { name: /I accept the terms of use/ }));
    expect(screen.queryByText('Please accept the terms of use to continue.')).not.toBeInTheDocument();
    expect(screen.getByText('Enter an amount from €1.00 to €500.00')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: '€10' }));
    expect(screen.queryByText('Enter an amount from €1.00 to €500.00')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pay €10.00' })).toBeInTheDocument();
  });
});
