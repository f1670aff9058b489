import { describe, expect, it } from 'vitest';
import { amountProblem, chosenAmount, formatPercent, limitsOf, parseAmountInput, presetLabel, summaryOf } from './tip-amount.ts';

const limits = limitsOf(null);

describe('parseAmountInput', () => {
  it('reads what guests type into integer cents', () => {
    expect(parseAmountInput('5')).toBe(500);
    expect(parseAmountInput('5.5')).toBe(550);
    expect(parseAmountInput('5,50')).toBe(550);
    expect(parseAmountInput(' €7 ')).toBe(700);
    expect(parseAmountInput('1 000')).toBe(100_000);
    expect(parseAmountInput('0.29')).toBe(29);
    expect(parseAmountInput('12.')).toBe(1_200);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'abc', '5.555', '1.2.3', '-5', '5e2', '.5']) expect(parseAmountInput(text)).toBeNull();
  });
});

describe('the amount the form pays', () => {
  it('takes a typed amount over a preset, and nothing while the typed text is no amount', () => {
    expect(chosenAmount(500, '')).toBe(500);
    expect(chosenAmount(500, '12')).toBe(1_200);
    expect(chosenAmount(500, 'x')).toBeNull();
    expect(chosenAmount(null, '  ')).toBeNull();
  });

  it('accepts 1 to 500 EUR and says why otherwise', () => {
    expect(amountProblem(null, limits)).toBe('required');
    expect(amountProblem(99, limits)).toBe('range');
    expect(amountProblem(100, limits)).toBeNull();
    expect(amountProblem(50_000, limits)).toBeNull();
    expect(amountProblem(50_001, limits)).toBe('range');
  });
});

describe('summaryOf (what the guest sees before paying)', () => {
  it('deducts the fee from the tip when the guest does not cover it', () => {
    expect(summaryOf(500, limits, 5, false)).toEqual({ amountCents: 500, feeCents: 25, totalCents: 500, netCents: 475 });
  });

  it('adds the fee on top when the guest covers it, so the staff member gets the whole tip', () => {
    expect(summaryOf(500, limits, 5, true)).toEqual({ amountCents: 500, feeCents: 25, totalCents: 525, netCents: 500 });
  });

  it('rounds half a cent up, and net + fee is always the tip', () => {
    expect(summaryOf(110, limits, 5, false)).toMatchObject({ feeCents: 6, netCents: 104 });
    for (let cents = 100; cents <= 2_000; cents += 7) {
      const summary = summaryOf(cents, limits, 5, false)!;
      expect(summary.netCents + summary.feeCents).toBe(cents);
    }
  });

  it('shows no figures for an amount the server would refuse', () => {
    expect(summaryOf(null, limits, 5, false)).toBeNull();
    expect(summaryOf(50, limits, 5, true)).toBeNull();
    expect(summaryOf(60_000, limits, 5, true)).toBeNull();
  });
});

describe('labels', () => {
  it('shows whole-euro presets without decimals', () => {
    expect(presetLabel(500)).toBe('€5');
    expect(presetLabel(2_000)).toBe('€20');
    expect(presetLabel(250)).toBe('€2.50');
  });

  it('writes the fee percentage the way the guest reads numbers', () => {
    expect(formatPercent(5, 'en')).toBe('5');
    expect(formatPercent(2.5, 'fr')).toBe('2,5');
  });

  it('uses the card limits when the server sent them', () => {
    expect(limitsOf({ min_amount_cents: 200, max_amount_cents: 10_000 })).toEqual({ minCents: 200, maxCents: 10_000 });
  });
});
