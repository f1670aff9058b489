import { describe, expect, it } from 'vitest';
import { returnReasonCode } from './return-reasons.ts';

describe('returnReasonCode', () => {
  it('reads the ISO code a stored reason starts with', () => {
    expect(returnReasonCode('AC04 Closed account (sandbox test account)')).toBe('AC04');
    expect(returnReasonCode('ac01 incorrect account number')).toBe('AC01');
    expect(returnReasonCode('MS03')).toBe('MS03');
  });

  it('answers null for no reason or one without a code we know', () => {
    expect(returnReasonCode(null)).toBeNull();
    expect(returnReasonCode('Returned by the bank')).toBeNull();
    expect(returnReasonCode('XX99 Something else')).toBeNull();
    expect(returnReasonCode('')).toBeNull();
  });
});
