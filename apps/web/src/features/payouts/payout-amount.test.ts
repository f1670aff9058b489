import { describe, expect, it } from 'vitest';
import { centsToInput, checkAmount, parseAmountCents, withdrawAllCents } from './payout-amount.ts';

describe('parseAmountCents', () => {
  it('reads whole euros, one or two decimals, a point or a comma, and thousands spaces', () => {
    expect(parseAmountCents('10')).toBe(1000);
    expect(parseAmountCents('10.5')).toBe(1050);
    expect(parseAmountCents('10,05')).toBe(1005);
    expect(parseAmountCents('0.29')).toBe(29);
    expect(parseAmountCents('1 234.56')).toBe(123456);
    expect(parseAmountCents(' 7. ')).toBe(700);
  });

  it('refuses what is not a number or has more than two decimals', () => {
    for (const text of ['', 'abc', '10.123', '1e3', '-5', '10..5', '€10', '12,3,4', '.5', '0x10']) {
      expect(parseAmountCents(text), text).toBeNull();
    }
  });
});

describe('checkAmount', () => {
  const main = 1500; // 15 EUR

  it("answers 'Wrong amount' for text that is not a valid amount", () => {
    expect(checkAmount('ten', main)).toEqual({ ok: false, problem: 'wrong_amount' });
    expect(checkAmount('5.555', main)).toEqual({ ok: false, problem: 'wrong_amount' });
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
      expect(checkAmount(centsToInput(cents), main)).toEqual({ ok: true, cents });
      expect(checkAmount(centsToInput(cents + 1), main)).toEqual({ ok: false, problem: 'not_enough' });
    }
  });
});

describe('centsToInput', () => {
  it('writes cents the way the field reads them back', () => {
    expect(centsToInput(1034)).toBe('10.34');
    expect(centsToInput(300)).toBe('3.00');
    expect(centsToInput(5)).toBe('0.05');
    expect(centsToInput(123456)).toBe('1234.56');
  });
});
