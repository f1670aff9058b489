import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import '../../../lib/i18n.ts';
import { AmountStep } from './withdraw-dialog.tsx';

function setup(mainCents: number) {
  const onNext = vi.fn();
  render(<AmountStep mainCents={mainCents} initial="" arrival="Next business day" onNext={onNext} />);
  const field = screen.getByRole('textbox', { name: 'Amount to withdraw' });
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
  const type = (value: string) => fireEvent.change(field, { target: { value } });
  return { onNext, field, submit, type };
}

describe('the amount step of a withdrawal', () => {
  it('shows the form texts of the amount rules (spec 5)', async () => {
    const { onNext, submit, type } = setup(1500);
    type('2');
    submit();
    expect(await screen.findByText('Minimum withdrawal amount €3')).toBeInTheDocument();
    type('ten');
    expect(await screen.findByText('Wrong amount')).toBeInTheDocument();
    type('5.555');
    expect(await screen.findByText('Wrong amount')).toBeInTheDocument();
    type('13.01');
    expect(await screen.findByText('Not enough money on balance')).toBeInTheDocument();
    expect(onNext).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: 'Amount to withdraw' })).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the fee, the total and the arrival before going on, and goes on with the cents', async () => {
    const { onNext, submit, type } = setup(1500);
    type('10,5');
    expect(await screen.findByTestId('summary-receive')).toHaveTextContent('€10.50');
    expect(screen.getByTestId('summary-fee')).toHaveTextContent('€2.00');
    expect(screen.getByTestId('summary-total')).toHaveTextContent('€12.50');
    expect(screen.getByTestId('summary-arrival')).toHaveTextContent('Next business day');
    submit();
    await waitFor(() => expect(onNext).toHaveBeenCalledWith(1050, '10,5'));
  });

  it('"Withdraw all" fills the main balance less the 2 EUR fee, to the cent', async () => {
    const { onNext, field, submit } = setup(1234);
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw all' }));
    expect(field).toHaveValue('10.34');
    expect(await screen.findByTestId('summary-total')).toHaveTextContent('€12.34');
    submit();
    await waitFor(() => expect(onNext).toHaveBeenCalledWith(1034, '10.34'));
  });

  it('"Withdraw all" is off when the balance does not cover 3 EUR and the fee', () => {
    setup(499);
    expect(screen.getByRole('button', { name: 'Withdraw all' })).toBeDisabled();
    expect(screen.getByText('Your balance has to cover at least €3 plus the €2 fee.')).toBeInTheDocument();
  });
});
