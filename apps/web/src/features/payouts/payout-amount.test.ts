import { describe, expect, it } from 'vitest';
import { decimalAmount } from '@tipcard/shared/money/format';
import { checkAmount, withdrawAllCents } from './payout-amount.ts';

describe('checkAmount', () => {
  const main = 1500; // 15 EUR

  it("answers 'Wrong amount' for text that is not a valid amount", () => {
    expect(checkAmount('ten', main)).toEqual({ ok: false, problem: 'wrong_amount' });
    expect(checkAmount('5.555', main)).toEqual({ ok: false, problem: 'wrong_amount' });
    expect(checkAmount('€10', main)).toEqual({ ok: false, problem: 'wrong_amount' });
  });

  it('asks for at least 3 EUR', () => {
    expect(checkAmount('2.99', main)).toEqual({ ok: false, problem: 'minimum' });
    expect(checkAmount('0', main)).toEqual({ ok: false, problem: 'minimum' });
    expect(checkAmount('3', main)).toEqual({ ok: true, cents: 300 });
  });

  it('needs the amount plus the 2 EUR fee on the main balance', () => {
    expect(checkAmount('13', main)).toEqual({ ok: true, cents: 1300 });
    expect(checkAmount('13.01', main)).toEqual({ ok: false, problem: 'not_enough' });
    expect(checkAmount('4', 500)).toEqual({ ok: false, problem: 'not_enough' });
  });

  it('checks the minimum before the balance', () => {
    expect(checkAmount('1', 0)).toEqual({ ok: false, problem: 'minimum' });
  });
});

describe('withdrawAllCents', () => {
  it('is the main balance less the fee, to the cent', () => {
    expect(withdrawAllCents(1234)).toBe(1034);
    expect(withdrawAllCents(500)).toBe(300);
    expect(withdrawAllCents(123_456_789)).toBe(123_456_589);
  });

  it('is null when not even the minimum is covered', () => {
    expect(withdrawAllCents(499)).toBeNull();
    expect(withdrawAllCents(0)).toBeNull();
  });

  it('always passes the form rules when there is one', () => {
    for (let main = 0; main < 3000; main += 7) {
      const cents = withdrawAllCents(main);
      if (cents === null) continue;
      expect(checkAmount(decimalAmount(cents), main)).toEqual({ ok: true, cents });
      expect(checkAmount(decimalAmount(cents + 1), main)).toEqual({ ok: false, problem: 'not_enough' });
    }
  });
});
