import { describe, expect, it } from 'vitest';
import { guestI18n } from './guest-i18n.ts';
import { i18n } from './i18n.ts';

/** The app's i18next instances pass every text through the typography filter, after its placeholders are filled. */
describe('typography post-processor', () => {
  it('gives French high punctuation its no-break spaces on the guest page', () => {
    const t = guestI18n.getFixedT('fr');
    expect(t('result.success_title')).toBe('Merci\u202F!');
    expect(t('form.message_left', { remaining: 12 })).toBe('Caractères restants\u00A0: 12');
  });

  it('keeps a filled-in amount with its currency in every language', () => {
    expect(guestI18n.getFixedT('fr')('result.success_text', { amount: '1 234,50 €', name: 'Anna' })).toContain(
      '1\u00A0234,50\u00A0€',
    );
    expect(guestI18n.getFixedT('en')('result.success_text', { amount: '€1 234.50', name: 'Anna' })).toContain('€1\u00A0234.50');
  });

  it("is the signed-in app's filter too", () => {
    expect(i18n.t('validation:amount_range', { lng: 'en', min: '€1.00', max: '€1 000.00' })).toContain('€1\u00A0000.00');
  });
});
