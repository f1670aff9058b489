import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { DeletionPreview } from '@tipcard/shared/account/schemas';
import type { Payout, PayoutMethod } from '@tipcard/shared/payouts/schemas';
import { i18n, loadLocale } from '../../../lib/i18n.ts';
import { DeletionSteps, type GiftCard } from './deletion-dialog.tsx';
import { giftCardIdOf } from './gift-card-id.ts';

const method = (id: string, isDefault: boolean): PayoutMethod => ({
  id,
  kind: 'sepa',
  holder: 'Müller',
  masked_account: `DE•• •••• •••• •••• •••• ${id.slice(-2)}`,
  bic: 'COBADEFFXXX',
  instant: true,
  is_default: isDefault,
  created_at: '2026-01-01T00:00:00.000Z',
  payee_check: null,
});
const METHODS = [method('00000000-0000-4000-8000-000000000001', false), method('00000000-0000-4000-8000-000000000002', true)];
const CLOSING: DeletionPreview = {
  outcome: 'closing_payout',
  blockers: [],
  available_cents: 316,
  held_cents: 0,
  closing: { amount_cents: 300, fee_cents: 16 },
};

const CHARITY_ID = '0d9f3c1e-5b7a-4c2d-9e8f-1a2b3c4d5e6f';

function setup(props: {
  preview: DeletionPreview;
  methods?: PayoutMethod[];
  closingPayout?: Payout | null;
  giftCard?: GiftCard;
}) {
  const onDelete = vi.fn();
  const onConfirm = vi.fn();
  const onGiftCardId = vi.fn();
  const onGive = vi.fn();
  const steps = (giftCard: GiftCard) => (
    <MemoryRouter>
      <DeletionSteps
        open
        onClose={vi.fn()}
        methods={props.methods}
        closingPayout={props.closingPayout ?? null}
        busy={false}
        onDelete={onDelete}
        onConfirm={onConfirm}
        preview={props.preview}
        giftCard={giftCard}
        onGiftCardId={onGiftCardId}
        onGive={onGive}
      />
    </MemoryRouter>
  );
  const { rerender } = render(steps(props.giftCard ?? { status: 'none' }));
  return { onDelete, onConfirm, onGiftCardId, onGive, lookup: (giftCard: GiftCard) => rerender(steps(giftCard)) };
}
const yes = () => screen.queryByRole('button', { name: 'Yes, delete' });

afterEach(() => i18n.changeLanguage('en'));

const chooseGift = () => fireEvent.click(screen.getByRole('radio', { name: 'Give it to a charity card' }));
const giftField = () => screen.getByRole('textbox', { name: 'Charity card link or id' });
const found = (activity: 'DONATION' | 'WAITER'): GiftCard => ({
  status: 'found',
  card: { id: CHARITY_ID, public_name: 'Red Cross Riga', activity_type: activity },
});

describe('the deletion dialog says what will happen before "Yes, delete" (issue 24)', () => {
  it('a €3.16 balance: paid out whole by the closing payout, with what arrives and the fee, to the default account', () => {
    const { onDelete } = setup({ preview: CLOSING, methods: METHODS });
    expect(screen.getByTestId('deletion-closing')).toHaveTextContent(
      'Your balance of €3.16 is paid out to your bank account with the deletion. This last payout has no minimum: you receive €3.00 and the fee is €0.16.',
    );
    expect(screen.getByRole('radio', { name: /•• 02/ })).toBeChecked();
    fireEvent.click(yes()!);
    expect(onDelete).toHaveBeenCalledWith(METHODS[1]!.id);
  });

  it('with no bank account: asks for one and offers no "Yes, delete"', () => {
    setup({ preview: CLOSING, methods: [] });
    expect(screen.getByText('Add the bank account your balance is to be paid out to, then come back here.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a bank account' })).toHaveAttribute('href', '/payouts/add-method');
    expect(yes()).toBeNull();
  });

  it('money on hold: names the reason and the amount, and offers only "Close"', () => {
    setup({
      preview: { outcome: 'blocked', blockers: ['deletion_balance_on_hold'], available_cents: 0, held_cents: 316, closing: null },
    });
    expect(screen.getByTestId('deletion-blockers')).toHaveTextContent(
      'Part of your balance is still on hold: delete your account once it is available',
    );
    expect(
      screen.getByText('€3.16 is still on hold. Once it is available, it is paid out with the deletion.'),
    ).toBeInTheDocument();
    expect(yes()).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Close' }).length).toBeGreaterThan(0);
  });

  it('an empty account: deleted at once', () => {
    const { onDelete } = setup({
      preview: { outcome: 'delete', blockers: [], available_cents: 0, held_cents: 0, closing: null },
    });
    expect(screen.getByText('Nothing is left on your account, so it is deleted at once.')).toBeInTheDocument();
    fireEvent.click(yes()!);
    expect(onDelete).toHaveBeenCalledWith(undefined);
  });

  it('the code step: the texted code confirms the payout and the deletion together', () => {
    const payout = {
      id: '00000000-0000-4000-8000-0000000000aa',
      amount_cents: 300,
      method: { masked_account: 'DE•• 02' },
    } as Payout;
    const { onConfirm } = setup({ preview: CLOSING, methods: METHODS, closingPayout: payout });
    expect(screen.getByText(/Enter it to confirm the payout of €3.00 to DE•• 02 and the deletion/)).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'Code from the SMS' }), { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm and delete' }));
    expect(onConfirm).toHaveBeenCalledWith('123456');
  });

  it('a balance may go to a charity card instead: the link is read, the charity named, and "Yes, delete" gives it', () => {
    const { onGiftCardId, onGive, onDelete, lookup } = setup({ preview: CLOSING, methods: METHODS });
    expect(screen.getByRole('radio', { name: 'Pay it out to my bank account' })).toBeChecked();
    expect(screen.getByRole('group', { name: 'What happens to your balance of €3.16?' })).toBeInTheDocument();
    chooseGift();
    // Nothing named yet: no payout text and no "Yes, delete".
    expect(screen.queryByTestId('deletion-closing')).toBeNull();
    expect(yes()).toBeNull();

    fireEvent.change(giftField(), { target: { value: `https://tipcard.lv/payment/${CHARITY_ID.toUpperCase()}` } });
    expect(onGiftCardId).toHaveBeenLastCalledWith(CHARITY_ID);
    lookup({ status: 'loading' });
    expect(screen.getByRole('status')).toHaveTextContent('Looking for the card…');
    expect(yes()).toBeNull();

    lookup(found('DONATION'));
    expect(screen.getByTestId('deletion-gift')).toHaveTextContent('Charity: Red Cross Riga');
    expect(screen.getByTestId('deletion-gift')).toHaveTextContent(
      '€3.16 goes to Red Cross Riga, with no fee, and your account is deleted.',
    );
    fireEvent.click(yes()!);
    expect(onGive).toHaveBeenCalledWith(CHARITY_ID);
    expect(onDelete).not.toHaveBeenCalled();
  });

  it('a charity card that is not found, not a charity, or text that is no card: a clear error and no "Yes, delete"', () => {
    const { onGiftCardId, lookup } = setup({ preview: CLOSING, methods: METHODS });
    chooseGift();
    fireEvent.change(giftField(), { target: { value: 'red cross' } });
    expect(onGiftCardId).toHaveBeenLastCalledWith(null);
    expect(screen.getByRole('alert')).toHaveTextContent('This is not a card link or id.');
    expect(giftField()).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(giftField(), { target: { value: CHARITY_ID } });
    lookup({ status: 'missing' });
    expect(screen.getByRole('alert')).toHaveTextContent('No active card was found for this link or id.');
    expect(yes()).toBeNull();

    lookup(found('WAITER'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Red Cross Riga is not a charity card: only a charity card can receive your balance.',
    );
    expect(screen.queryByTestId('deletion-gift')).toBeNull();
    expect(yes()).toBeNull();

    // Back to the payout: today's flow, unchanged.
    fireEvent.click(screen.getByRole('radio', { name: 'Pay it out to my bank account' }));
    expect(screen.getByTestId('deletion-closing')).toBeInTheDocument();
    expect(yes()).not.toBeNull();
  });

  it('reads the card id from a guest link, a hash link or a bare id', () => {
    expect(giftCardIdOf(`https://tipcard.lv/payment/${CHARITY_ID}`)).toBe(CHARITY_ID);
    expect(giftCardIdOf(`https://tipcard.lv/payment/${CHARITY_ID}/canceled?payment=00000000-0000-4000-8000-0000000000aa`)).toBe(
      CHARITY_ID,
    );
    expect(giftCardIdOf(`https://tipcard.lv/#/lv/payment/${CHARITY_ID}`)).toBe(CHARITY_ID);
    expect(giftCardIdOf(`https://tipcard.lv/#/somewhere/${CHARITY_ID}`)).toBe(CHARITY_ID);
    expect(giftCardIdOf(`  ${CHARITY_ID.toUpperCase()} `)).toBe(CHARITY_ID);
    expect(giftCardIdOf('https://tipcard.lv/payment/not-an-id')).toBeNull();
    expect(giftCardIdOf('')).toBeNull();
  });

  it('speaks French', async () => {
    await loadLocale('fr');
    await i18n.changeLanguage('fr');
    const { lookup } = setup({ preview: CLOSING, methods: METHODS });
    expect(screen.getByTestId('deletion-closing')).toHaveTextContent(
      /^Votre solde de 3,16\s€ est versé .* Ce dernier retrait n’a pas de minimum : vous recevez 3,00\s€ et les frais sont de 0,16\s€\.$/,
    );
    expect(screen.getByRole('button', { name: 'Oui, supprimer' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('radio', { name: 'Le donner à une carte caritative' }));
    lookup(found('DONATION'));
    expect(screen.getByTestId('deletion-gift')).toHaveTextContent(
      /3,16\s€ vont à Red Cross Riga, sans frais, et votre compte est supprimé\.$/,
    );
  });
});
