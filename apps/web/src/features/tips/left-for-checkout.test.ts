import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberLeftForCheckout, takeLeftForCheckout } from './left-for-checkout.ts';

const arrivedBy = (type: NavigationTimingType) =>
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue([{ type } as PerformanceNavigationTiming]);

afterEach(() => vi.restoreAllMocks());

describe('what the guest entered before the checkout', () => {
  it('comes back once when the guest returns with Back to the same card', () => {
    arrivedBy('back_forward');
    rememberLeftForCheckout('card-1', { custom: '7.50' });
    expect(takeLeftForCheckout('card-1')).toEqual({ custom: '7.50' });
    expect(takeLeftForCheckout('card-1')).toBeNull();
  });

  it('is not used on a new visit of the page, nor on another card', () => {
    arrivedBy('navigate');
    rememberLeftForCheckout('card-1', { custom: '7.50' });
    expect(takeLeftForCheckout('card-1')).toBeNull();
    arrivedBy('back_forward');
    rememberLeftForCheckout('card-1', { custom: '7.50' });
    expect(takeLeftForCheckout('card-2')).toBeNull();
  });
});
