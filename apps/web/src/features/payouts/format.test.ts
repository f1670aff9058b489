import { describe, expect, it } from 'vitest';
import { shortMask } from './format.ts';

describe('shortMask', () => {
  it('keeps the country and the last four of an IBAN mask', () => {
    expect(shortMask('LV•• •••• •••• •••• •••• 5001')).toBe('LV•• •••• 5001');
    expect(shortMask('DE•• •••• •••• •••• 3000')).toBe('DE•• •••• 3000');
  });

  it('leaves a UK mask as it is', () => {
    expect(shortMask('•••• 5678 (20-00-00)')).toBe('•••• 5678 (20-00-00)');
  });
});
