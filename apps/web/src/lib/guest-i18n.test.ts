import { afterEach, describe, expect, it } from 'vitest';
import { guestI18n, guestResources } from './guest-i18n.ts';

afterEach(() => guestI18n.changeLanguage('en'));

/** The guest pages' own translator (no i18next, decision 0052) reads the catalogs as i18next did. */
describe('the guest pages’ texts', () => {
  it('picks the plural form of each language by its own rules (Latvian has a form for 10, 20, …)', () => {
    expect(guestI18n.getFixedT('en')('card.team_split', { count: 1 })).toBe("Your tip goes to the team's 1 member.");
    expect(guestI18n.getFixedT('en')('card.team_split', { count: 3 })).toBe(
      "Your tip is split evenly among the team's 3 members.",
    );
    expect(guestI18n.getFixedT('lv')('card.team_split', { count: 21 })).toContain('(dalībnieku skaits: 21)');
    expect(guestI18n.getFixedT('lv')('card.team_split', { count: 10 })).toBe(
      'Jūsu dzeramnauda tiek vienādi sadalīta starp 10 komandas dalībniekiem.',
    );
  });

  it('reads other namespaces by prefix, and falls back to English, then to the key', () => {
    expect(guestI18n.getFixedT('fr')('common:language.names.lv')).toBe('Latviešu');
    guestI18n.addResourceBundle('pseudo', 'payment', { only_here: 'Ẋ' });
    expect(guestI18n.getFixedT('pseudo')('only_here')).toBe('Ẋ');
    expect(guestI18n.getFixedT('pseudo')('card.eyebrow')).toBe(guestI18n.getFixedT('en')('card.eyebrow'));
    expect(guestI18n.getFixedT('fr')('errors:nothing_here')).toBe('nothing_here');
    delete guestResources.pseudo;
  });

  it('leaves a placeholder without a value as it is, for a component to place itself', () => {
    expect(guestI18n.getFixedT('en')('form.pay', { amount: '{{amount}}' })).toBe('Pay {{amount}}');
    expect(guestI18n.getFixedT('en')('card.photo_alt')).toBe('Photo of {{name}}');
  });

  it('tells who listens when the language changes, once per change', () => {
    const heard: string[] = [];
    const listener = (language: string) => heard.push(language);
    guestI18n.on('languageChanged', listener);
    guestI18n.changeLanguage('es');
    guestI18n.changeLanguage('es');
    guestI18n.off('languageChanged', listener);
    guestI18n.changeLanguage('fr');
    expect(heard).toEqual(['es']);
    expect(guestI18n.language).toBe('fr');
  });
});
