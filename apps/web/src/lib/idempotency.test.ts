import { describe, expect, it } from 'vitest';
import { createIdempotencyKeeper, newIdempotencyKey } from './idempotency.ts';

const body = { amount_cents: 500, cover_fee: false, terms_accepted: true as const };

describe('idempotency keys', () => {
  it('makes v4 UUIDs the server accepts (8–100 characters)', () => {
    expect(newIdempotencyKey()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps one key for a retry or a double tap of the same payment', () => {
    let n = 0;
    const keeper = createIdempotencyKeeper(() => `key-${++n}-xxxxxxxx`);
    const first = keeper.keyFor(body);
    expect(keeper.keyFor({ ...body })).toBe(first);
    expect(keeper.keyFor({ ...body, message: '  ' })).toBe(first);
  });

  it('takes a new key when the payment changes, and after a reset', () => {
    let n = 0;
    const keeper = createIdempotencyKeeper(() => `key-${++n}-xxxxxxxx`);
    const first = keeper.keyFor(body);
    const covered = keeper.keyFor({ ...body, cover_fee: true });
    expect(covered).not.toBe(first);
    expect(keeper.keyFor({ ...body, cover_fee: true, rating: 5 })).not.toBe(covered);
    const withRating = keeper.keyFor({ ...body, cover_fee: true, rating: 5 });
    keeper.reset();
    expect(keeper.keyFor({ ...body, cover_fee: true, rating: 5 })).not.toBe(withRating);
  });
});
